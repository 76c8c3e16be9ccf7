"""Ludis's stand-in for `airflow.utils.dates` (see `ludis.loader`): what Ludis runs, and every other name refused."""

from ludis.compat import days_ago  # noqa: F401
from ludis.loader import refusing_getattr

__getattr__ = refusing_getattr(__name__)
