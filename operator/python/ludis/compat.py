"""Small Airflow helpers DAG files use: `days_ago` and `TriggerRule`."""

from __future__ import annotations

import datetime
import enum


def days_ago(n: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime.datetime:
    today = datetime.datetime.now(datetime.timezone.utc).replace(
        hour=hour, minute=minute, second=second, microsecond=0)
    return today - datetime.timedelta(days=n)


class TriggerRule(str, enum.Enum):
    """Only ALL_SUCCESS is run by Ludis; the others are refused when a task names them."""

    ALL_SUCCESS = "all_success"
    ALL_FAILED = "all_failed"
    ALL_DONE = "all_done"
    ONE_SUCCESS = "one_success"
    ONE_FAILED = "one_failed"
    NONE_FAILED = "none_failed"
    NONE_SKIPPED = "none_skipped"
    ALWAYS = "always"
