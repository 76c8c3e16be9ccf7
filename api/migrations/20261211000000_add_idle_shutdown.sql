-- Idle shutdown (issue 34). An organization's previews and notebook servers stop, and its apps
-- scale to zero, once nobody used them for idle_minutes (0: never); an app's owner may pin it
-- always on where the organization allows it. Portable SQL: the same file runs on SQLite and
-- PostgreSQL.
ALTER TABLE organizations ADD COLUMN idle_minutes BIGINT NOT NULL DEFAULT 60;
ALTER TABLE organizations ADD COLUMN allow_always_on BIGINT NOT NULL DEFAULT 0;
ALTER TABLE insights ADD COLUMN always_on BIGINT NOT NULL DEFAULT 0;

-- When a running preview, notebook server or app was last used through the API (a proxied
-- request, an open stream; its start counts): written at most every 30 seconds a workload and API
-- replica. idled_at: when the idle sweep stopped it (NULL while it runs or was used since).
CREATE TABLE workload_activity (
    asset_id TEXT PRIMARY KEY REFERENCES assets (id) ON DELETE CASCADE,
    active_at BIGINT NOT NULL,
    idled_at BIGINT
);
