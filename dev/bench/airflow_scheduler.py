"""Airflow's scheduling cost per task, for dev/bench-workflows.sh (run with the Airflow venv's
python; AIRFLOW_HOME and the PostgreSQL connection come from the environment).

  python airflow_scheduler.py write-dags <folder>   # the DAG files: 100 DAGs of 10 tasks, one of 1,000
  python airflow_scheduler.py measure <shape>       # shape: fans (100 × 10) or big (1 × 1,000)

`measure` unpauses the shape's DAGs, starts `airflow scheduler`, waits until it idles, creates one
run of each DAG and waits until every run succeeded, then prints the scheduler's CPU seconds
(its process and children) per task. Every task is an EmptyOperator, which Airflow's scheduler
sets to success itself, without an executor or a worker: what is measured is dependency
resolution and state transitions only — Airflow's lower bound.
"""

import os
import subprocess
import sys
import time

FANS = 100
BIG_CHAINS, BIG_LENGTH = 10, 100


def write_dags(folder):
    os.makedirs(folder, exist_ok=True)
    head = (
        "import pendulum\n"
        "from airflow.sdk import DAG\n"
        "from airflow.providers.standard.operators.empty import EmptyOperator\n\n"
    )
    for i in range(FANS):
        with open(os.path.join(folder, f"fan_{i:03}.py"), "w") as f:
            f.write(head)
            f.write(
                f"with DAG('fan_{i:03}', schedule=None, start_date=pendulum.datetime(2026, 1, 1), catchup=False):\n"
                "    root = EmptyOperator(task_id='t0')\n"
                "    sink = EmptyOperator(task_id='t9')\n"
                "    for j in range(1, 9):\n"
                "        root >> EmptyOperator(task_id=f't{j}') >> sink\n"
            )
    with open(os.path.join(folder, "big.py"), "w") as f:
        f.write(head)
        f.write(
            "with DAG('big', schedule=None, start_date=pendulum.datetime(2026, 1, 1), catchup=False):\n"
            f"    for c in range({BIG_CHAINS}):\n"
            "        prev = None\n"
            f"        for k in range({BIG_LENGTH}):\n"
            "            t = EmptyOperator(task_id=f'c{c}_{k}')\n"
            "            if prev is not None:\n"
            "                prev >> t\n"
            "            prev = t\n"
        )


def cpu_of(proc):
    import psutil

    total = 0.0
    try:
        p = psutil.Process(proc.pid)
        for q in [p] + p.children(recursive=True):
            try:
                t = q.cpu_times()
                total += t.user + t.system
            except psutil.NoSuchProcess:
                pass
    except psutil.NoSuchProcess:
        pass
    return total


def measure(shape):
    from airflow.api.common.trigger_dag import trigger_dag
    from airflow.models import DagModel, DagRun
    from airflow.utils.session import create_session
    from airflow.utils.state import DagRunState
    from airflow.utils.types import DagRunTriggeredByType

    dag_ids = [f"fan_{i:03}" for i in range(FANS)] if shape == "fans" else ["big"]
    tasks = 10 * FANS if shape == "fans" else BIG_CHAINS * BIG_LENGTH
    with create_session() as session:
        session.query(DagModel).filter(DagModel.dag_id.in_(dag_ids)).update(
            {DagModel.is_paused: False}, synchronize_session=False
        )
        known = session.query(DagModel).filter(DagModel.dag_id.in_(dag_ids)).count()
    if known != len(dag_ids):
        sys.exit(f"only {known} of {len(dag_ids)} DAGs are serialized")

    log = open(os.path.join(os.environ["AIRFLOW_HOME"], f"scheduler-{shape}.log"), "w")
    sched = subprocess.Popen(["airflow", "scheduler"], stdout=log, stderr=subprocess.STDOUT)
    try:
        # Wait until the scheduler's start-up is over: its CPU use settles.
        last, quiet = cpu_of(sched), 0
        while quiet < 3:
            time.sleep(2)
            now = cpu_of(sched)
            quiet = quiet + 1 if now - last < 0.3 else 0
            last = now
            if sched.poll() is not None:
                sys.exit("the scheduler exited; see its log in AIRFLOW_HOME")
        cpu0, t0 = cpu_of(sched), time.monotonic()
        for dag_id in dag_ids:
            trigger_dag(dag_id, triggered_by=DagRunTriggeredByType.TEST, run_id=f"bench-{int(time.time())}")
        while True:
            with create_session() as session:
                done = (
                    session.query(DagRun)
                    .filter(DagRun.dag_id.in_(dag_ids), DagRun.state == DagRunState.SUCCESS)
                    .count()
                )
                failed = (
                    session.query(DagRun)
                    .filter(DagRun.dag_id.in_(dag_ids), DagRun.state == DagRunState.FAILED)
                    .count()
                )
            if failed:
                sys.exit(f"{failed} runs failed")
            print(f"\r  airflow {shape}: {done}/{len(dag_ids)} runs done   ", end="", file=sys.stderr, flush=True)
            if done == len(dag_ids):
                break
            if time.monotonic() - t0 > 1800:
                sys.exit("the runs did not finish within 30 minutes")
            time.sleep(0.5)
        cpu, wall = cpu_of(sched) - cpu0, time.monotonic() - t0
        print(file=sys.stderr)
        print(
            f"  airflow {shape}: {len(dag_ids)} runs × {tasks // len(dag_ids)} tasks done after {wall:.2f} s; "
            f"scheduler CPU {cpu:.2f} s = {cpu * 1000 / tasks:.3f} ms per task"
        )
        print(f"RESULT tasks={tasks} cpu_s={cpu:.3f} per_task_ms={cpu * 1000 / tasks:.4f} wall_s={wall:.3f}")
    finally:
        sched.terminate()
        try:
            sched.wait(30)
        except subprocess.TimeoutExpired:
            sched.kill()


if __name__ == "__main__":
    if sys.argv[1:2] == ["write-dags"]:
        write_dags(sys.argv[2])
    elif sys.argv[1:2] == ["measure"]:
        measure(sys.argv[2])
    else:
        sys.exit(__doc__)
