-- Identity and administration. Portable SQL: the same file runs on SQLite and PostgreSQL.
-- Ids are UUID text, times are unix seconds (BIGINT), flags are 0/1 (BIGINT).

CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    admin_email TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    tier TEXT NOT NULL,
    max_seats BIGINT NOT NULL,
    bucket_id TEXT,
    is_2fa_required BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    CONSTRAINT organizations_name_key UNIQUE (name),
    CONSTRAINT organizations_slug_key UNIQUE (slug)
);

CREATE TABLE users (
    uid TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    role TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    cluster_id TEXT,
    timezone TEXT NOT NULL,
    date_format TEXT NOT NULL DEFAULT 'MM/DD/YY',
    photo_path TEXT,
    git_username TEXT,
    git_token_enc TEXT,
    enabled_2fa BIGINT NOT NULL DEFAULT 0,
    confirmed_2fa BIGINT NOT NULL DEFAULT 0,
    secret_2fa_enc TEXT,
    last_totp_step BIGINT NOT NULL DEFAULT 0,
    api_key_enc TEXT,
    api_key_hash TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT users_email_key UNIQUE (email),
    CONSTRAINT users_api_key_hash_key UNIQUE (api_key_hash)
);
CREATE INDEX users_organization_idx ON users (organization_id);

-- A login session: every refresh token of one sign-in shares a family.
CREATE TABLE token_families (
    id TEXT PRIMARY KEY,
    user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT,
    revoke_reason TEXT
);
CREATE INDEX token_families_user_idx ON token_families (user_uid);

CREATE TABLE refresh_tokens (
    id TEXT PRIMARY KEY,
    family_id TEXT NOT NULL REFERENCES token_families (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    spent_at BIGINT,
    CONSTRAINT refresh_tokens_token_hash_key UNIQUE (token_hash)
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);

CREATE TABLE auth_throttle (
    key TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    window_start BIGINT NOT NULL,
    locked_until BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE flightings (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    active BIGINT NOT NULL,
    user_roles TEXT NOT NULL,
    CONSTRAINT flightings_pkey PRIMARY KEY (organization_id, key)
);

CREATE TABLE buckets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    region TEXT NOT NULL,
    CONSTRAINT buckets_name_key UNIQUE (name)
);

CREATE TABLE login_events (
    id TEXT PRIMARY KEY,
    user_uid TEXT,
    email TEXT NOT NULL,
    organization_id TEXT,
    success BIGINT NOT NULL,
    reason TEXT NOT NULL,
    ip TEXT NOT NULL,
    at BIGINT NOT NULL,
    day TEXT NOT NULL
);
CREATE INDEX login_events_org_at_idx ON login_events (organization_id, at);

CREATE TABLE activity (
    id TEXT PRIMARY KEY,
    user_uid TEXT,
    organization_id TEXT,
    entity_type TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    entity_name TEXT NOT NULL,
    action TEXT NOT NULL,
    at BIGINT NOT NULL,
    day TEXT NOT NULL
);
CREATE INDEX activity_org_type_at_idx ON activity (organization_id, entity_type, at);
