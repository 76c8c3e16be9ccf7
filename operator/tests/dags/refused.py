from airflow import DAG
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator

with DAG("k8s", schedule=None) as dag:
    KubernetesPodOperator(task_id="pod", image="busybox")
