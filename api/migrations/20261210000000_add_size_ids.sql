-- The hardware size a project's preview and an app's or report's pod take, from the
-- administrator's size list (the ConfigMap ludis-sizes; NULL: the list's default). Portable SQL:
-- the same file runs on SQLite and PostgreSQL.
ALTER TABLE projects ADD COLUMN size_id TEXT;
ALTER TABLE insights ADD COLUMN size_id TEXT;
