-- Compute usage (issue 34): every workload pod the API's sampler saw running in an organization's
-- namespace, with what it set aside (its containers' CPU and memory requests, i.e. its size) and
-- when it ran (its start; the last time it was seen running, or its end). CPU-hours and
-- memory-hours of a period are the overlap of that span with the period times what it set aside.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.
CREATE TABLE compute_usage (
    pod_uid TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    -- The project, app or workflow the pod ran for (NULL: none this API knows); kept when the
    -- asset is deleted, with its name, so past usage stays accounted.
    asset_id TEXT,
    asset_kind TEXT,
    asset_name TEXT,
    owner_uid TEXT,
    cpu_millicores BIGINT NOT NULL,
    memory_bytes BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    last_seen BIGINT NOT NULL
);
CREATE INDEX compute_usage_org_idx ON compute_usage (organization_id, last_seen);
