-- App tickets already traded for an app cookie (a ticket opens an app once, on every API
-- replica), kept until they expire.
CREATE TABLE app_tickets (
    id TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX app_tickets_expires_idx ON app_tickets (expires_at);
