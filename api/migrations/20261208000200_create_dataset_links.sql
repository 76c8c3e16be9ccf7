-- A dataset file's temporary link (7 days, no key): a Ludis address whose token is kept here as
-- its SHA-256, so that the dataset's editors can list and revoke it; it dies with the dataset and
-- with its creator's access (checked at every use).
CREATE TABLE dataset_links (
    id TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    dataset_id TEXT NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
    object_key TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    CONSTRAINT dataset_links_pkey PRIMARY KEY (id),
    CONSTRAINT dataset_links_token_key UNIQUE (token_hash)
);
CREATE INDEX dataset_links_dataset ON dataset_links (dataset_id);
