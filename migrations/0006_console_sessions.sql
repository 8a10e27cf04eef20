-- Console sign-in (issue #17): e-mailed sign-in links and the sessions they
-- start. Only SHA-256 hashes of link tokens are stored; a session row is what
-- a console cookie's `sid` claim points at, so sign-out can revoke it.

CREATE TABLE magic_links (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL,
  email TEXT NOT NULL,
  -- NULL: the e-mail had no user when the link was sent (SIGNUP=open); redeeming it creates the account.
  user_id TEXT,
  requested_ip TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE UNIQUE INDEX magic_links_token ON magic_links(token_hash);
-- The per-address rate limit counts recent links of one e-mail.
CREATE INDEX magic_links_email ON magic_links(email, created_at);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  -- Sliding: pushed forward on use, never past absolute_expires_at.
  expires_at TEXT NOT NULL,
  absolute_expires_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  revoked_at TEXT,
  ip TEXT,
  user_agent TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
