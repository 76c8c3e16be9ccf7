-- Projects v2: a git-backed code workspace (spec 001 §2 "Project v2 detail"), mirrored by a
-- Project custom resource. The code lives in git (a repository Ludis hosts, or an external
-- remote reached with the owner's token); this row keeps where, the chosen image, and what the
-- operator last observed of the preview container.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

CREATE TABLE projects (
    id TEXT PRIMARY KEY REFERENCES assets (id) ON DELETE CASCADE,
    -- python | r
    language TEXT NOT NULL DEFAULT 'python',
    -- The external HTTPS remote; NULL for a repository hosted by Ludis.
    repo_url TEXT,
    -- The repository's owner, derived from the URL on import.
    repo_author TEXT,
    branch TEXT NOT NULL DEFAULT 'main',
    -- An id of the administrator's image list.
    image_id TEXT NOT NULL,
    -- JSON array of dataset ids.
    dataset_ids TEXT NOT NULL DEFAULT '[]',
    -- Whether the preview is asked to run (spec.preview.running).
    running BIGINT NOT NULL DEFAULT 0,
    -- stopped | starting | running | failed: what the operator observed.
    status TEXT NOT NULL DEFAULT 'stopped',
    status_message TEXT,
    -- Where the preview answers (status.url), for the app proxy.
    upstream_url TEXT,
    -- SHA-256 of the token the preview's checkout clones a hosted repository with (rotated at
    -- every run; the token itself is only in the project's git Secret).
    checkout_token_hash TEXT
);

-- A project's environment variables (spec 001 §3 "Environment variable"): the value encrypted
-- at rest like the other secrets; the Project's Secret carries them to the container.
CREATE TABLE project_env_vars (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value_enc TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT project_env_vars_key UNIQUE (project_id, key)
);
