from airflow import DAG

first = DAG("first", schedule=None)
second = DAG("second", schedule=None)
