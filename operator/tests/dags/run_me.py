"""Tasks the tests run one by one with `ludis.run`."""
from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator


def add(a, b, scale=1, ti=None, run_id=None):
    print(f"sum {(a + b) * scale} in {run_id} try {ti.try_number}")


with DAG("run_me", schedule=None) as dag:
    BashOperator(task_id="shout", bash_command="echo run {{ run_id }} try {{ ti.try_number }}")
    BashOperator(task_id="fail", bash_command="echo failing; exit 7")
    PythonOperator(task_id="add", python_callable=add, op_args=[2, 3], op_kwargs={"scale": 1})

    @task
    def hello():
        print("hello from a task")

    @task
    def explode():
        raise ValueError("boom")

    hello()
    explode()
