-- What a project's Run runs (the entry file chosen beside Run; NULL: the launch rule's first
-- candidate), the commit an insight was published at (its pods check that revision out), and
-- what the operator says of an insight's state (why it fails or waits). Portable SQL: the same
-- file runs on SQLite and PostgreSQL.

ALTER TABLE projects ADD COLUMN run_file TEXT;
ALTER TABLE insights ADD COLUMN revision TEXT;
ALTER TABLE insights ADD COLUMN status_message TEXT;
