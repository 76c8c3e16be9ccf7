from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("dup", schedule=None) as dag:
    BashOperator(task_id="same", bash_command="echo 1")
    BashOperator(task_id="same", bash_command="echo 2")
