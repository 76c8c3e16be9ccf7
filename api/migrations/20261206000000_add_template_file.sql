-- The data file a template app reads, chosen in the wizard (relative to its first dataset; NULL:
-- the dataset's default, its first .csv at the top level). Portable SQL: the same file runs on
-- SQLite and PostgreSQL.

ALTER TABLE insights ADD COLUMN template_file TEXT;
