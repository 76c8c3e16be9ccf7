"""The operators Ludis runs, and how: BashOperator (`bash -c`), PythonOperator and `@task` (the
callable, in the task's pod), EmptyOperator and DummyOperator (nothing)."""

from __future__ import annotations

import os
import subprocess
from typing import Any, Callable

from . import templates
from .model import BaseOperator, context_for, refuse_values_between_tasks


class BashOperator(BaseOperator):
    kind = "BashOperator"

    def __init__(self, *, task_id: str, bash_command: str, env: dict | None = None,
                 append_env: bool = False, cwd: str | None = None, **kwargs: Any) -> None:
        super().__init__(task_id=task_id, **kwargs)
        refuse_values_between_tasks(self, bash_command, env, cwd)
        templates.check(bash_command, f"the bash_command of the task {task_id!r}")
        for k, v in (env or {}).items():
            templates.check(v, f"the env {k} of the task {task_id!r}")
        self.bash_command = bash_command
        self.env = env
        self.append_env = append_env
        self.cwd = cwd

    def execute(self, context: dict) -> int:
        command = templates.render(self.bash_command, context)
        if self.env is None:
            env = None
        else:
            rendered = {k: str(templates.render(v, context)) for k, v in self.env.items()}
            env = {**os.environ, **rendered} if self.append_env else rendered
        print(f"[ludis] running: bash -c {command!r}", flush=True)
        return subprocess.run(["bash", "-c", command], env=env, cwd=self.cwd).returncode


class PythonOperator(BaseOperator):
    kind = "PythonOperator"

    def __init__(self, *, task_id: str, python_callable: Callable, op_args: list | None = None,
                 op_kwargs: dict | None = None, templates_dict: dict | None = None,
                 **kwargs: Any) -> None:
        super().__init__(task_id=task_id, **kwargs)
        if not callable(python_callable):
            raise TypeError(f"the python_callable of the task {task_id!r} is not callable")
        refuse_values_between_tasks(self, op_args, op_kwargs, templates_dict)
        self.python_callable = python_callable
        self.op_args = list(op_args or [])
        self.op_kwargs = dict(op_kwargs or {})
        self.templates_dict = templates_dict

    def execute(self, context: dict) -> int:
        if self.templates_dict is not None:
            context = {**context, "templates_dict": {
                k: templates.render(v, context) for k, v in self.templates_dict.items()}}
        extra = context_for(self.python_callable, context, set(self.op_kwargs))
        result = self.python_callable(*self.op_args, **self.op_kwargs, **extra)
        print(f"[ludis] Done. Returned value was: {result!r}", flush=True)
        return 0


class DecoratedTask(PythonOperator):
    """A `@task` function's task."""

    kind = "task"


class EmptyOperator(BaseOperator):
    kind = "EmptyOperator"

    def execute(self, context: dict) -> int:
        return 0


class DummyOperator(EmptyOperator):
    kind = "DummyOperator"
