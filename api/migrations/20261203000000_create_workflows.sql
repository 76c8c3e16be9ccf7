-- Workflows v2 (spec 001 §3 "Workflow", §7 "Workflows v2"; docs/contracts/workflows.md): a DAG of
-- tasks drawn in the visual designer or written as an Airflow-style DAG file in a project, run on
-- a schedule or on demand by the operator through a Workflow custom resource (applied at the
-- first publish). This row keeps what the console edits and what the operator last observed;
-- the runs themselves are WorkflowRun resources, read from the cluster.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

CREATE TABLE workflows (
    id TEXT PRIMARY KEY REFERENCES assets (id) ON DELETE CASCADE,
    -- The project whose code the tasks run (an asset id; the project may be deleted later).
    project_id TEXT NOT NULL,
    -- Drawn in the designer (1) or written as a DAG file (0).
    visual BIGINT NOT NULL DEFAULT 1,
    -- The designer's nodes and edges (JSON arrays, spec 001 §3 "Designer node/edge").
    nodes TEXT NOT NULL DEFAULT '[]',
    edges TEXT NOT NULL DEFAULT '[]',
    -- A five-field UTC cron, or 'None'.
    schedule TEXT NOT NULL DEFAULT 'None',
    -- E-mail notifications of finished runs: on/off, recipients (JSON array), both | failure | success.
    email_bool BIGINT NOT NULL DEFAULT 0,
    email_list TEXT NOT NULL DEFAULT '[]',
    email_on TEXT NOT NULL DEFAULT 'both',
    -- Scheduled runs paused (the CronJob suspended).
    paused BIGINT NOT NULL DEFAULT 0,
    -- Whether the Workflow resource was applied at least once.
    published BIGINT NOT NULL DEFAULT 0,
    -- A manual workflow's DAG file in the project ({id}_dag.py).
    dag_file TEXT,
    -- The project commit the published tasks run.
    revision TEXT,
    -- What the operator observed: unpublished | initializing | ready | broken, and why broken.
    status TEXT NOT NULL DEFAULT 'unpublished',
    import_error TEXT,
    -- The newest run: its name, start (Unix seconds), state and duration (seconds).
    last_run_name TEXT,
    last_run BIGINT,
    last_run_state TEXT,
    last_run_duration BIGINT
);

CREATE INDEX workflows_project ON workflows (project_id);
