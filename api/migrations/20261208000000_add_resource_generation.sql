-- The version of its resource an asset's row reflects (its uid and metadata.generation): written
-- when the API applies the resource and when the watcher mirrors it, so that the watcher never
-- mirrors an older version over a row the API already changed (a rename lost to a late event).
ALTER TABLE assets ADD COLUMN resource_uid TEXT;
ALTER TABLE assets ADD COLUMN resource_generation BIGINT NOT NULL DEFAULT 0;
