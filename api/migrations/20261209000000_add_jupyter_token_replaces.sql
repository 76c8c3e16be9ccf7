-- The pod whose restart made a notebook server's current token: of two API replicas restarting
-- the same pod, only the first renews the token (the second would leave the new pod with a token
-- the database no longer holds).
ALTER TABLE projects ADD COLUMN jupyter_token_replaces TEXT;
