-- Pods clone a project's repository with their own identity (a service-account token the
-- cluster reviews), so the project-wide checkout token is gone.
ALTER TABLE projects DROP COLUMN checkout_token_hash;
