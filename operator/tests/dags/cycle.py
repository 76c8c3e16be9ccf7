from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("loop", schedule=None) as dag:
    a = BashOperator(task_id="a", bash_command="echo a")
    b = BashOperator(task_id="b", bash_command="echo b")
    c = BashOperator(task_id="c", bash_command="echo c")
    a >> b >> c >> a
