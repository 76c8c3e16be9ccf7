"""A DAG file as Airflow 2 users write them: `with DAG`, classic operators, lists in >> and <<."""
from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.operators.python import PythonOperator

default_args = {"owner": "data", "retries": 1, "retry_delay": timedelta(minutes=5)}


def transform(**context):
    print("transforming for", context["ds"])


with DAG(
    dag_id="sales_daily",
    default_args=default_args,
    start_date=datetime(2024, 1, 1),
    schedule_interval="0 6 * * *",
    catchup=False,
    tags=["sales"],
) as dag:
    start = EmptyOperator(task_id="start")
    extract_eu = BashOperator(task_id="extract.eu", bash_command="echo eu")
    extract_us = BashOperator(task_id="extract_us", bash_command="echo us")
    clean = PythonOperator(task_id="transform", python_callable=transform)
    report = BashOperator(task_id="report", bash_command="echo {{ ds }}")

    start >> [extract_eu, extract_us] >> clean
    report << clean
