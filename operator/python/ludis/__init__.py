"""Ludis's reader and runner of workflows written as code (Airflow-style DAG files).

`python -m ludis.parse <dagFile>` runs the file the way Airflow's DagBag does and prints the DAG it
declares; `python -m ludis.run <dagFile> <taskId>` runs the file again and executes one task. When
the real Airflow is not installed, the `airflow` modules a DAG file imports are the small shims in
`ludis/shims/airflow/`, which record tasks and dependencies (see `ludis.model`). Pure standard
library, Python >= 3.10.
"""
