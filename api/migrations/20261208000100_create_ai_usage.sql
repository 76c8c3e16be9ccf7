-- The assistant's per-user request budget, shared by every API replica: requests per user and
-- minute (the minute as Unix seconds / 60). Rows older than an hour are deleted as new ones come.
CREATE TABLE ai_usage (
    uid TEXT NOT NULL,
    minute BIGINT NOT NULL,
    requests BIGINT NOT NULL,
    CONSTRAINT ai_usage_pkey PRIMARY KEY (uid, minute)
);
CREATE INDEX ai_usage_minute ON ai_usage (minute);
