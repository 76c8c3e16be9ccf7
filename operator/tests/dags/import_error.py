from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("broken", schedule=None) as dag:
    BashOperator(task_id="a", bash_command="echo a")
    missing_helper()
