-- Addresses outside an organization that its administrators allow workflows to e-mail (one per
-- line, lower-case); its members are always allowed.
ALTER TABLE organizations ADD COLUMN mail_allowlist TEXT NOT NULL DEFAULT '';
