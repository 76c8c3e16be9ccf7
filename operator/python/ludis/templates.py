"""The part of Airflow's Jinja templates that Ludis renders: `{{ name }}` and `{{ name.attr }}`
of the run's context (`ds`, `ds_nodash`, `ts`, `ts_nodash`, `run_id`, `dag.dag_id`,
`task.task_id`, `ti.try_number`, `params.x`…). Any other expression (filters, calls, `{% %}`) is
refused when the file is parsed."""

from __future__ import annotations

import re
from typing import Any

from .errors import not_supported

EXPRESSION = re.compile(r"\{\{\s*(.*?)\s*\}\}")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
#: The names a template may start with.
ROOTS = {"ds", "ds_nodash", "ts", "ts_nodash", "run_id", "dag", "task", "ti", "task_instance",
         "params", "logical_date", "execution_date", "dag_run"}


def check(text: Any, where: str) -> None:
    """Refuses the templates Ludis cannot render (at parse time)."""
    if not isinstance(text, str):
        return
    if "{%" in text or "{#" in text:
        raise not_supported(f"the Jinja statement in {where}")
    for expr in EXPRESSION.findall(text):
        if not NAME.match(expr) or expr.split(".")[0] not in ROOTS:
            raise not_supported(f"the template expression {{{{ {expr} }}}} in {where}")


def render(text: Any, context: dict) -> Any:
    if not isinstance(text, str):
        return text

    def value(m: re.Match) -> str:
        parts = m.group(1).split(".")
        v: Any = context[parts[0]]
        for p in parts[1:]:
            v = v[p] if isinstance(v, dict) else getattr(v, p)
        return str(v)

    return EXPRESSION.sub(value, text)
