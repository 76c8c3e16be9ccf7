//! The DAG file a manual workflow starts with (`{id}_dag.py`, committed to its project when the
//! creator may edit the project): a small, valid Airflow-style DAG with a BashOperator and a
//! PythonOperator, in the idioms the operator's `ludis` package reads (and Airflow itself runs).

/// Pure: the file name of workflow `id`'s DAG file.
pub fn dag_file(id: &str) -> String {
    format!("{id}_dag.py")
}

/// Pure: the starter file of workflow `id` named `name` (the DAG id is the workflow id).
pub fn dag_source(id: &str, name: &str) -> String {
    let title: String = name
        .chars()
        .filter(|c| !c.is_control() && *c != '"' && *c != '\\')
        .collect();
    format!(
        r#""""{title}: a workflow written as code.

Ludis reads this file the way Airflow does (by running it) and runs each task in a pod with the
project's code. Change the tasks, commit, and publish the workflow again.
"""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator


def greet():
    print("Hello from {title}")


with DAG(
    dag_id="{id}",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    catchup=False,
) as dag:
    hello = BashOperator(task_id="hello", bash_command="echo 'Hello from bash'")
    python_task = PythonOperator(task_id="python_task", python_callable=greet)

    hello >> python_task
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_names_its_dag_after_the_workflow() {
        let src = dag_source("abc", "Nightly \"load\"");
        assert!(src.contains("dag_id=\"abc\""), "{src}");
        assert!(src.contains("BashOperator(") && src.contains("PythonOperator("));
        assert!(src.contains("Hello from Nightly load"), "{src}");
        assert_eq!(dag_file("abc"), "abc_dag.py");
    }
}
