"""What a DAG file declares: DAGs, their tasks and the dependencies between them.

The shapes follow Airflow's (`DAG`, `BaseOperator`, `XComArg`, `chain`, `cross_downstream`, the
`@dag` and `@task` decorators) so that DAG files written for Airflow read unchanged; only what
Ludis runs is kept (see `ludis.operators`).
"""

from __future__ import annotations

import datetime
import functools
import inspect
import re
from typing import Any, Callable, Iterable

from .errors import DagError, NotSupportedError, not_supported

TASK_ID = re.compile(r"^[A-Za-z0-9_.-]{1,250}$")
DAG_ID = TASK_ID

#: Every DAG made while the file is imported, in order (Airflow's auto-register).
REGISTRY: list["DAG"] = []
#: The DAGs of the `with DAG(...)` blocks being run, innermost last.
_CONTEXT: list["DAG"] = []


def _check_id(kind: str, value: Any) -> str:
    if not isinstance(value, str) or not TASK_ID.match(value):
        raise DagError(
            f"the {kind} id {value!r} is not valid: use 1 to 250 letters, digits, '_', '-' or '.'"
        )
    return value


def _schedule_text(value: Any) -> str | None:
    """A schedule as Ludis stores it: a cron expression or preset, or None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, datetime.timedelta):
        raise not_supported(f"the schedule timedelta({value})")
    raise not_supported(f"the schedule {value!r} (datasets, timetables)")


class DAG:
    """A DAG: its id, schedule and tasks. Accepts Airflow's arguments; only the id and the
    schedule matter to Ludis (`default_args`, `start_date`, `catchup`, `tags`… are accepted)."""

    def __init__(self, dag_id: str | None = None, *args: Any, schedule: Any = "__unset__",
                 schedule_interval: Any = "__unset__", default_args: dict | None = None,
                 **kwargs: Any) -> None:
        if dag_id is None:
            dag_id = kwargs.pop("dag_id", None)
        self.dag_id = _check_id("DAG", dag_id)
        if schedule != "__unset__":
            chosen = schedule
        elif schedule_interval != "__unset__":
            chosen = schedule_interval
        else:
            chosen = args[0] if args and isinstance(args[0], str) else None
        self.schedule = _schedule_text(chosen)
        self.default_args = dict(default_args or {})
        self.params = dict(kwargs.get("params") or {})
        self.task_dict: dict[str, BaseOperator] = {}
        REGISTRY.append(self)

    # `with DAG(...) as dag:` makes it the DAG of the tasks made inside.
    def __enter__(self) -> "DAG":
        _CONTEXT.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _CONTEXT.pop()

    @property
    def tasks(self) -> list["BaseOperator"]:
        return list(self.task_dict.values())

    def add_task(self, task: "BaseOperator") -> None:
        if task.task_id in self.task_dict:
            raise DagError(f"the task id {task.task_id!r} is used twice in the DAG {self.dag_id!r}")
        self.task_dict[task.task_id] = task

    def get_task(self, task_id: str) -> "BaseOperator":
        return self.task_dict[task_id]

    def __repr__(self) -> str:
        return f"<DAG: {self.dag_id}>"


def current_dag() -> DAG | None:
    return _CONTEXT[-1] if _CONTEXT else None


class DependencyMixin:
    """`>>`, `<<`, `set_upstream`, `set_downstream`, with lists on either side."""

    def _operators(self) -> list["BaseOperator"]:
        raise NotImplementedError

    def set_downstream(self, other: Any) -> None:
        for up in self._operators():
            for down in _operators_of(other):
                up._add_downstream(down)

    def set_upstream(self, other: Any) -> None:
        for down in self._operators():
            for up in _operators_of(other):
                up._add_downstream(down)

    def __rshift__(self, other: Any) -> Any:
        self.set_downstream(other)
        return other

    def __lshift__(self, other: Any) -> Any:
        self.set_upstream(other)
        return other

    # `[a, b] >> c` and `[a, b] << c`: the list is on the left.
    def __rrshift__(self, other: Any) -> Any:
        self.set_upstream(other)
        return self

    def __rlshift__(self, other: Any) -> Any:
        self.set_downstream(other)
        return self


def _operators_of(value: Any) -> list["BaseOperator"]:
    if isinstance(value, DependencyMixin):
        return value._operators()
    if isinstance(value, (list, tuple, set)):
        return [op for v in value for op in _operators_of(v)]
    raise DagError(f"{value!r} is not a task: a dependency joins tasks (or lists of tasks)")


class BaseOperator(DependencyMixin):
    """A task. Subclasses (`ludis.operators`) say how it runs."""

    #: The operator's name as Ludis reports it.
    kind = "BaseOperator"

    def __init__(self, task_id: str | None = None, dag: DAG | None = None, **kwargs: Any) -> None:
        self.task_id = _check_id("task", task_id)
        self.dag = dag or current_dag()
        rule = kwargs.get("trigger_rule", "all_success")
        if str(getattr(rule, "value", rule)) != "all_success":
            raise not_supported(
                f"the trigger rule {getattr(rule, 'value', rule)!r} of the task {task_id!r}"
                " (a task runs when all its upstream tasks succeeded)"
            )
        self.upstream_task_ids: set[str] = set()
        self.downstream_task_ids: set[str] = set()
        if self.dag is not None:
            self.dag.add_task(self)

    def _operators(self) -> list["BaseOperator"]:
        return [self]

    def _add_downstream(self, other: "BaseOperator") -> None:
        if self.dag is None or other.dag is not self.dag:
            raise DagError(
                f"the tasks {self.task_id!r} and {other.task_id!r} are not in the same DAG"
            )
        if other is self:
            raise DagError(f"the task {self.task_id!r} cannot depend on itself")
        self.downstream_task_ids.add(other.task_id)
        other.upstream_task_ids.add(self.task_id)

    @property
    def output(self) -> "XComArg":
        return XComArg(self)

    def execute(self, context: dict) -> Any:  # pragma: no cover - subclasses run
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Task({self.kind}): {self.task_id}>"


class XComArg(DependencyMixin):
    """What calling a `@task` function returns: its task, usable in dependencies. Passing it to
    another task (a value between tasks) is refused at parse time (see `values_between_tasks`)."""

    def __init__(self, operator: BaseOperator, key: str = "return_value") -> None:
        self.operator = operator
        self.key = key

    def _operators(self) -> list[BaseOperator]:
        return [self.operator]

    def __getitem__(self, key: str) -> "XComArg":
        return XComArg(self.operator, key)

    def __repr__(self) -> str:
        return f"XComArg({self.operator.task_id!r})"


def xcom_args_in(value: Any) -> list[XComArg]:
    """The XComArgs inside a value (arguments, lists, dicts)."""
    if isinstance(value, XComArg):
        return [value]
    if isinstance(value, (list, tuple, set)):
        return [x for v in value for x in xcom_args_in(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in xcom_args_in(v)]
    return []


def refuse_values_between_tasks(task: BaseOperator, *values: Any) -> None:
    """A task that takes another's return value: the dependency is implied, but Ludis does not
    pass values between task pods (XCom), so the file is refused, saying what to do instead."""
    for x in xcom_args_in(list(values)):
        up = x.operator.task_id
        raise NotSupportedError(
            f"the task {task.task_id!r} takes the return value of the task {up!r} (XCom): Ludis "
            f"does not pass values between tasks; make the dependency with {up} >> "
            f"{task.task_id} and share data through files (e.g. in a dataset)"
        )


def chain(*tasks: Any) -> None:
    """`chain(a, b, [c, d], e)`: each element upstream of the next; two lists side by side join
    pairwise (as Airflow's)."""
    for up, down in zip(tasks, tasks[1:]):
        if isinstance(up, (list, tuple)) and isinstance(down, (list, tuple)):
            if len(up) != len(down):
                raise DagError(
                    f"chain: lists side by side must have the same length ({len(up)} and {len(down)})"
                )
            for u, d in zip(up, down):
                _as_dep(u).set_downstream(d)
        elif isinstance(up, (list, tuple)):
            for u in up:
                _as_dep(u).set_downstream(down)
        else:
            _as_dep(up).set_downstream(down)


def cross_downstream(from_tasks: Iterable[Any], to_tasks: Iterable[Any]) -> None:
    """Every task of `from_tasks` upstream of every task of `to_tasks`."""
    to_tasks = list(to_tasks)
    for t in from_tasks:
        _as_dep(t).set_downstream(to_tasks)


def _as_dep(value: Any) -> DependencyMixin:
    if isinstance(value, DependencyMixin):
        return value
    raise DagError(f"{value!r} is not a task")


def dag(dag_id: Any = None, **dag_kwargs: Any) -> Callable:
    """`@dag(...)` on a function: calling the function makes the DAG (its id the function's name
    unless given), running the body inside `with DAG(...)`."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def make(*args: Any, **kwargs: Any) -> DAG:
            with DAG(dag_id_ or fn.__name__, **dag_kwargs) as d:
                fn(*args, **kwargs)
            return d

        return make

    if callable(dag_id):  # bare `@dag`
        dag_id_ = None
        return wrap(dag_id)
    dag_id_ = dag_id
    return wrap


class _TaskDecorator:
    """`@task`, `@task()`, `@task(task_id=...)`, `@task.python`; `@task.bash` and the other
    flavours are refused by name."""

    def __call__(self, python_callable: Callable | None = None, **kwargs: Any) -> Any:
        if python_callable is not None and callable(python_callable):
            return _decorated(python_callable, kwargs)
        return lambda fn: _decorated(fn, kwargs)

    @property
    def python(self) -> "_TaskDecorator":
        return self

    def __getattr__(self, name: str) -> Any:
        if name in REFUSED_FLAVOURS:
            raise not_supported(f"@task.{name}")
        raise AttributeError(name)


#: `@task.<flavour>` decorators Airflow has and Ludis does not run.
REFUSED_FLAVOURS = {"bash", "virtualenv", "external_python", "branch", "short_circuit", "sensor",
                    "docker", "kubernetes", "pyspark", "sql", "run_if", "skip_if"}

task = _TaskDecorator()


def _decorated(fn: Callable, task_kwargs: dict) -> Callable:
    from .operators import DecoratedTask

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> XComArg:
        base = task_kwargs.get("task_id") or fn.__name__
        d = task_kwargs.get("dag") or current_dag()
        task_id = base
        # A function called twice in a DAG makes task, task__1, task__2 (as Airflow does).
        n = 0
        while d is not None and task_id in d.task_dict:
            n += 1
            task_id = f"{base}__{n}"
        options = {k: v for k, v in task_kwargs.items() if k != "task_id"}
        op = DecoratedTask(task_id=task_id, python_callable=fn, op_args=list(args),
                           op_kwargs=kwargs, **options)
        return XComArg(op)

    call.function = fn  # type: ignore[attr-defined]
    call.override = lambda **kw: _decorated(fn, {**task_kwargs, **kw})  # type: ignore[attr-defined]
    return call


def context_for(fn: Callable, context: dict, given: set[str]) -> dict:
    """The context arguments a callable asks for: all of them with `**kwargs`, else those named
    as parameters (and not given already)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return {k: v for k, v in context.items() if k not in given}
    return {p.name: context[p.name] for p in params if p.name in context and p.name not in given}
