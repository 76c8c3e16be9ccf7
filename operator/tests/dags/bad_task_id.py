from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("bad", schedule=None) as dag:
    BashOperator(task_id="has space", bash_command="echo")
