"""Ludis's stand-in for `airflow.operators.bash` (see `ludis.loader`): what Ludis runs, and every other name refused."""

from ludis.operators import BashOperator  # noqa: F401
from ludis.loader import refusing_getattr

__getattr__ = refusing_getattr(__name__)
