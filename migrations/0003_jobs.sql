-- One row per tool call made with an API key or a dashboard token, so the
-- job_id a tool answers can be looked up (GET /api/v1/jobs/{id}). The id is
-- the call's request id (X-Request-Id), which also names its ledger rows.
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  operation TEXT NOT NULL,
  status TEXT NOT NULL,
  credits INTEGER NOT NULL,
  output_urls TEXT NOT NULL DEFAULT '[]',
  error_code TEXT,
  key_id TEXT,
  user_id TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  finished_at TEXT
);
-- Lookups are by id within one account; listings newest first.
CREATE INDEX jobs_account ON jobs(account_id, created_at);
