"""Ludis's stand-in for `airflow.utils.trigger_rule` (see `ludis.loader`): what Ludis runs, and every other name refused."""

from ludis.compat import TriggerRule  # noqa: F401
from ludis.loader import refusing_getattr

__getattr__ = refusing_getattr(__name__)
