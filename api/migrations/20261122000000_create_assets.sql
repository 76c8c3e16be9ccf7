-- Assets and collaboration: every shareable kind (applications/insights now; projects, datasets
-- and workflows later) has one row in `assets` (owner, organization, name, the custom resource it
-- mirrors) and its kind's details in a table of its own. Shares, pins, views and comments refer to
-- `assets`, so the access rule and the list mechanics are written once for every kind.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

CREATE TABLE assets (
    id TEXT PRIMARY KEY,
    -- application | project | dataset | workflow
    kind TEXT NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    -- NULL: no known owner (a resource applied without the owner annotation); the organization's
    -- administrators have it.
    owner_uid TEXT,
    name TEXT NOT NULL,
    -- LOWER(name || ' ' || description), for search.
    search_text TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    img_path TEXT,
    -- The custom resource this row mirrors; NULL while no cluster is configured.
    namespace TEXT,
    resource_name TEXT,
    -- api: created in the console or the API; resource: applied with kubectl or GitOps.
    origin TEXT NOT NULL DEFAULT 'api',
    views BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX assets_resource_key ON assets (kind, namespace, resource_name);
-- The id is part of the owner and organization indexes, so listing an owner's or (for its
-- administrators) an organization's assets reads the index only.
CREATE INDEX assets_owner_idx ON assets (owner_uid, kind, updated_at, id);
CREATE INDEX assets_org_idx ON assets (organization_id, kind, updated_at, id);
CREATE INDEX assets_kind_idx ON assets (kind, updated_at, id);
-- Covers the list query's visible set (ids → kind, owner, sort keys, search text), so listing the
-- ~1,000 assets a user sees reads this index only.
CREATE INDEX assets_list_idx ON assets (id, kind, owner_uid, updated_at, created_at, search_text);

CREATE TABLE insights (
    id TEXT PRIMARY KEY REFERENCES assets (id) ON DELETE CASCADE,
    -- application | report | user_report
    app_type TEXT NOT NULL,
    -- running | stopped | starting | external | rendering | rendered | uploaded | failed
    status TEXT NOT NULL,
    app_url TEXT,
    -- The workload's name for applications that run in the cluster.
    container_name TEXT,
    -- cluster | slice-and-dice | campaign
    template TEXT,
    is_template BIGINT NOT NULL DEFAULT 0,
    language TEXT NOT NULL DEFAULT 'python',
    -- user_report: the uploaded file's object key.
    report_object TEXT,
    project_id TEXT,
    -- JSON arrays of strings.
    publish_filenames TEXT NOT NULL DEFAULT '[]',
    dataset_ids TEXT NOT NULL DEFAULT '[]',
    -- Where a running application answers (the Insight's status.url), for the reverse proxy.
    upstream_url TEXT,
    -- The report output folder (status.output).
    output TEXT
);
CREATE INDEX insights_type_idx ON insights (app_type, id);

-- One row per target and origin: `console` entries are made in the console or the API,
-- `resource` entries are declared in the custom resource's spec.sharing (GitOps) and replaced
-- whenever the resource changes. A target's level is the highest of its entries.
CREATE TABLE shares (
    id TEXT PRIMARY KEY,
    asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
    -- user (to_id = uid) | organization (to_id = organization id) | email (to_id = a lowercased
    -- address declared in spec.sharing that has no user yet; it becomes a user entry when the
    -- user is created)
    to_type TEXT NOT NULL,
    to_id TEXT NOT NULL,
    -- 0 none (unshared), 1 view, 2 execute, 3 edit
    level BIGINT NOT NULL,
    origin TEXT NOT NULL,
    from_user_uid TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT shares_entry_key UNIQUE (asset_id, to_type, to_id, origin)
);
CREATE INDEX shares_target_idx ON shares (to_id, to_type, level, asset_id);

CREATE TABLE pins (
    user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
    asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    CONSTRAINT pins_pkey PRIMARY KEY (user_uid, asset_id)
);
CREATE INDEX pins_asset_idx ON pins (asset_id);

-- The last counted view of an asset per user (a view counts at most once per user per 10 minutes).
CREATE TABLE asset_views (
    asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
    user_uid TEXT NOT NULL,
    last_at BIGINT NOT NULL,
    CONSTRAINT asset_views_pkey PRIMARY KEY (asset_id, user_uid)
);

CREATE TABLE comments (
    id TEXT PRIMARY KEY,
    asset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
    author_uid TEXT,
    author_display_name TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX comments_asset_idx ON comments (asset_id, created_at);
