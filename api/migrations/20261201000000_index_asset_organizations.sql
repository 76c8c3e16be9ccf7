-- Shares reach only the asset's organization, so the list query checks the organization of every
-- shared asset: the list's covering index carries it (the visible set still reads no table rows).
DROP INDEX assets_list_idx;
CREATE INDEX assets_list_idx ON assets (id, kind, owner_uid, organization_id, updated_at, created_at, search_text);
