-- When each API key last authenticated a request (issue #17: the console's
-- key list shows it). Written at most once per key per few minutes
-- (src/auth/key-usage.ts), so it is accurate to that interval, not to the
-- request. NULL: never used.
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
