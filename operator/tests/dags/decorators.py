"""The TaskFlow idioms: @dag and @task (with and without arguments), old module paths,
set_upstream/set_downstream, chain and cross_downstream."""
from datetime import datetime

from airflow.decorators import dag, task
from airflow.models.baseoperator import chain, cross_downstream
from airflow.operators.bash_operator import BashOperator
from airflow.operators.dummy import DummyOperator
from airflow.operators.python_operator import PythonOperator


@dag(schedule="@daily", start_date=datetime(2024, 1, 1), catchup=False, tags=["demo"])
def taskflow_demo():
    @task
    def fetch():
        return 1

    @task(task_id="fit-model")
    def fit():
        return 2

    begin = DummyOperator(task_id="begin")
    a = fetch()
    b = fit()
    notify = BashOperator(task_id="notify", bash_command="echo done")
    publish = PythonOperator(task_id="publish", python_callable=print, op_args=["published"])
    archive = BashOperator(task_id="archive", bash_command="echo archived")
    chain(begin, a, b)
    cross_downstream([b], [notify, publish])
    archive.set_upstream(notify)
    publish.set_downstream(archive)


taskflow_demo()
