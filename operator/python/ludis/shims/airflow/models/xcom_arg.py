"""Ludis's stand-in for `airflow.models.xcom_arg` (see `ludis.loader`): what Ludis runs, and every other name refused."""

from ludis.model import XComArg  # noqa: F401
from ludis.loader import refusing_getattr

__getattr__ = refusing_getattr(__name__)
