"""`python -m ludis.run <dagFile> <taskId>`: runs the DAG file again and executes one task in
this process; the exit code is the task's (a BashOperator's command's, 1 for an exception).

The context a PythonOperator or `@task` can ask for (`**kwargs`, or parameters by name): `ds`,
`ds_nodash`, `ts`, `ts_nodash`, `run_id`, `dag`, `task`, `params`, `ti`/`task_instance`
(`try_number`, `task_id`, `dag_id`, `run_id`), `logical_date`. The logical date is when the task
started (UTC); `LUDIS_RUN` and `LUDIS_TRY` (set in task pods) give the run id and try number."""

from __future__ import annotations

import datetime
import os
import sys
import traceback
import types

from .loader import import_file, the_dag


def context_of(dag, task) -> dict:
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    run_id = os.environ.get("LUDIS_RUN", "manual__" + now.isoformat())
    ti = types.SimpleNamespace(
        task_id=task.task_id, dag_id=dag.dag_id, run_id=run_id,
        try_number=int(os.environ.get("LUDIS_TRY", "1")),
    )
    return {
        "ds": now.date().isoformat(), "ds_nodash": now.strftime("%Y%m%d"),
        "ts": now.isoformat(), "ts_nodash": now.strftime("%Y%m%dT%H%M%S"),
        "logical_date": now, "execution_date": now, "run_id": run_id,
        "dag": dag, "task": task, "params": dict(getattr(dag, "params", {}) or {}),
        "ti": ti, "task_instance": ti, "dag_run": types.SimpleNamespace(run_id=run_id),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m ludis.run <dagFile> <taskId>", file=sys.stderr)
        return 2
    path, task_id = argv
    try:
        dag = the_dag(import_file(path))
        if task_id not in dag.task_dict:
            print(f"[ludis] the DAG {dag.dag_id!r} has no task {task_id!r}", file=sys.stderr)
            return 1
        task = dag.task_dict[task_id]
        code = task.execute(context_of(dag, task))
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    except Exception:  # noqa: BLE001 - the task failed: its traceback is its log
        traceback.print_exc()
        return 1
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    sys.stdout.flush()
    sys.exit(main(sys.argv[1:]))
