"""Airflow 3's airflow.sdk, a DAG object outside `with`, and `dag=` on the tasks."""
from airflow.sdk import DAG, chain
from airflow.providers.standard.operators.bash import BashOperator

dag = DAG("sdk_style", schedule=None)
one = BashOperator(task_id="one", bash_command="echo 1", dag=dag)
two = BashOperator(task_id="two", bash_command="echo 2", dag=dag)
three = BashOperator(task_id="three", bash_command="echo 3", dag=dag)
chain(one, [two, three])
