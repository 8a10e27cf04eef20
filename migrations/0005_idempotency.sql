-- Idempotency-Key (Stripe semantics): the first answer to a POST that charges
-- or creates, kept 24 hours per account (or for the operator), so a retry
-- with the same key and the same request replays it instead of running again.
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  status INTEGER,
  headers TEXT,
  body TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (scope, key)
);
-- The daily clean-up deletes by age.
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
