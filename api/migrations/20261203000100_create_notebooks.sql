-- Legacy projects and their notebooks (spec 000 §2 "legacy project list", spec 001 §2
-- "Notebooks", §3 "Project" and "Notebook"; docs/contracts/notebooks.md). A legacy project is a
-- project of the notebook flavour: the same asset, row and Project resource as a project v2,
-- with the legacy form's fields beside; its notebooks are `.ipynb` files in its repository, each
-- with a row here.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

-- code | notebook (the resource's spec.flavour).
ALTER TABLE projects ADD COLUMN flavour TEXT NOT NULL DEFAULT 'code';
-- The legacy form's fields: type (default 'report'), size (the workspace in GiB), author and
-- tags (a JSON array).
ALTER TABLE projects ADD COLUMN project_type TEXT NOT NULL DEFAULT 'report';
ALTER TABLE projects ADD COLUMN size TEXT NOT NULL DEFAULT '5';
ALTER TABLE projects ADD COLUMN author TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
-- The token JupyterLab asks of every request (encrypted at rest like the other secrets): made at
-- each start, given to the container in the project's environment Secret, and sent by the app
-- proxy, so nothing else in the cluster can reach the notebook server.
ALTER TABLE projects ADD COLUMN jupyter_token_enc TEXT;

CREATE TABLE notebooks (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    -- The .ipynb file in the project's repository.
    path TEXT NOT NULL,
    -- active (the only status the console shows in imports).
    status TEXT NOT NULL DEFAULT 'active',
    -- The file's blob when JupyterLab last started from it (or it was last committed here): a
    -- commit is made on that base, so a notebook changed in git meanwhile is never overwritten.
    base_sha TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT notebooks_path UNIQUE (project_id, path)
);

CREATE INDEX notebooks_project ON notebooks (project_id);
