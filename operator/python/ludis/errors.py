"""Why a DAG file is refused."""

SUPPORTED = "use BashOperator, PythonOperator, EmptyOperator or @task"


class NotSupportedError(ImportError):
    """Something a DAG file uses that Ludis does not run (an operator, a sensor, a feature)."""


class DagError(ValueError):
    """A DAG that cannot run: a bad task id, a duplicate, a cycle, no DAG in the file."""


def not_supported(what: str) -> NotSupportedError:
    return NotSupportedError(f"{what} is not supported by Ludis; {SUPPORTED}")
