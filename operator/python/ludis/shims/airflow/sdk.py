"""Ludis's stand-in for `airflow.sdk` (see `ludis.loader`): what Ludis runs, and every other name refused."""

from ludis.model import DAG, BaseOperator, chain, cross_downstream, dag, task, XComArg  # noqa: F401
from ludis.loader import refusing_getattr

__getattr__ = refusing_getattr(__name__)
