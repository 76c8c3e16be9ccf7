-- Datasets: a folder of files in the organization's bucket (`prefix` in `bucket`), mirrored by a
-- Dataset custom resource. The files themselves live only in object storage; this row keeps
-- where they are, what the operator last measured, and whether the dataset is a seeded sample.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

CREATE TABLE datasets (
    id TEXT PRIMARY KEY REFERENCES assets (id) ON DELETE CASCADE,
    bucket TEXT NOT NULL,
    -- datasets/<id>/ (ends with '/').
    prefix TEXT NOT NULL,
    -- Retain | Delete: what happens to the objects when the dataset is deleted.
    deletion_policy TEXT NOT NULL DEFAULT 'Retain',
    -- pending (storage not confirmed yet) | ready | deleting | failed
    status TEXT NOT NULL,
    status_message TEXT,
    -- What the operator (or the API after a write) last measured.
    object_count BIGINT NOT NULL DEFAULT 0,
    bytes BIGINT NOT NULL DEFAULT 0,
    -- The slug of the seeded sample this dataset is (NULL for users' datasets).
    sample TEXT
);
CREATE INDEX datasets_sample_idx ON datasets (sample, id);

-- Which seeded samples each organization was given, so a sample its administrators deleted is
-- not given again at the next start.
CREATE TABLE sample_seeds (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    sample TEXT NOT NULL,
    seeded_at BIGINT NOT NULL,
    CONSTRAINT sample_seeds_pkey PRIMARY KEY (organization_id, sample)
);
