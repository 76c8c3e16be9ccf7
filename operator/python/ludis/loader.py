"""Importing a DAG file the way Airflow's DagBag does: as a module with a fresh name, the project
root (the working directory) and the file's folder on `sys.path`, every DAG it makes collected.
Without the real Airflow, `import airflow…` finds the shims of `ludis/shims/`; an `airflow`
module or name they do not have (another operator, a sensor, a hook…) is refused by name."""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types
from typing import Any

from . import model
from .errors import DagError, not_supported

SHIMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shims")


def refusing_getattr(module: str):
    """A module `__getattr__` that refuses every name the shim does not define."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise not_supported(name if name[:1].isupper() else f"{module}.{name}")

    return __getattr__


class _Refuser(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds every `airflow.*` module the shims lack, as an empty package refusing its names."""

    def find_spec(self, fullname: str, path: Any, target: Any = None):
        if fullname == "airflow" or fullname.startswith("airflow."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = types.ModuleType(spec.name)
        module.__path__ = []  # type: ignore[attr-defined]
        module.__getattr__ = refusing_getattr(spec.name)  # type: ignore[attr-defined]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def install_shims() -> bool:
    """Puts the `airflow` shims on `sys.path` unless the real Airflow is installed. Returns
    whether the shims are used."""
    if importlib.util.find_spec("airflow") is not None and SHIMS not in sys.path:
        return False
    if SHIMS not in sys.path:
        sys.path.insert(0, SHIMS)
    if not any(isinstance(f, _Refuser) for f in sys.meta_path):
        sys.meta_path.append(_Refuser())
    return True


def import_file(path: str) -> types.ModuleType:
    """Runs the DAG file as a module of its own (as DagBag names it)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"the DAG file {path!r} does not exist")
    install_shims()
    for folder in (os.path.dirname(os.path.abspath(path)), os.getcwd()):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    name = "unusual_prefix_" + hashlib.sha1(path.encode()).hexdigest() + "_" + stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    model.REGISTRY.clear()
    spec.loader.exec_module(module)
    return module


def the_dag(module: types.ModuleType) -> Any:
    """The file's one DAG: the DAGs in its globals and those made in `with DAG(...)` blocks or by
    `@dag` functions (Airflow's auto-register). None, or more than one, is refused."""
    found: list[Any] = []
    for value in list(vars(module).values()) + list(model.REGISTRY):
        if _is_dag(value) and all(value is not f for f in found):
            found.append(value)
    # The same id twice is the same DAG made again (a @dag function called twice): the last wins.
    by_id: dict[str, Any] = {}
    for d in found:
        by_id[d.dag_id] = d
    if not by_id:
        raise DagError("the file declares no DAG (make one with `with DAG(...)` or `@dag`)")
    if len(by_id) > 1:
        raise DagError(
            f"the file declares {len(by_id)} DAGs ({', '.join(sorted(by_id))}); Ludis runs one DAG "
            "per file: put each in a workflow of its own"
        )
    return next(iter(by_id.values()))


def _is_dag(value: Any) -> bool:
    """A DAG of the shims, or of the real Airflow when it is installed."""
    if isinstance(value, model.DAG):
        return True
    return type(value).__name__ == "DAG" and type(value).__module__.startswith("airflow")


def describe(d: Any) -> dict:
    """The DAG as the operator stores it (`status.dag`): id, schedule, tasks, edges; a cycle is
    refused."""
    tasks = [{"name": t.task_id, "operator": getattr(t, "kind", type(t).__name__)}
             for t in d.task_dict.values()]
    edges = [{"from": up, "to": t.task_id}
             for t in d.task_dict.values() for up in sorted(t.upstream_task_ids)]
    _check_acyclic(list(d.task_dict), edges)
    schedule = getattr(d, "schedule", None)
    return {"dagId": d.dag_id, "schedule": schedule if isinstance(schedule, str) else None,
            "tasks": tasks, "edges": edges}


def _check_acyclic(names: list[str], edges: list[dict]) -> None:
    downstream: dict[str, list[str]] = {n: [] for n in names}
    indegree = {n: 0 for n in names}
    for e in edges:
        downstream[e["from"]].append(e["to"])
        indegree[e["to"]] += 1
    ready = [n for n in names if indegree[n] == 0]
    seen = 0
    while ready:
        n = ready.pop()
        seen += 1
        for d in downstream[n]:
            indegree[d] -= 1
            if indegree[d] == 0:
                ready.append(d)
    if seen != len(names):
        stuck = sorted(n for n in names if indegree[n] > 0)
        raise DagError(f"the tasks form a cycle through {', '.join(stuck)}")
