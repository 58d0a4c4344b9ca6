-- Up Migration

-- A signed-in session of the app reader (/app). The cookie carries a random
-- session id, never the API token it was made from; only the id's SHA-256 is
-- kept. A session ends when it expires, when its owner signs out (the row is
-- deleted), and when its token is revoked, expires or is deleted: it is read
-- only through its token, whose scopes it keeps.
CREATE TABLE app_sessions (
  id_hash bytea NOT NULL,
  user_id text NOT NULL,
  token_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  expires_at timestamptz NOT NULL,
  CONSTRAINT app_sessions_pkey PRIMARY KEY (id_hash),
  CONSTRAINT app_sessions_id_hash_length CHECK (octet_length(id_hash) = 32),
  CONSTRAINT app_sessions_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT app_sessions_token_fkey FOREIGN KEY (token_id) REFERENCES api_tokens (id) ON DELETE CASCADE
);
CREATE INDEX app_sessions_token_idx ON app_sessions (token_id);
CREATE INDEX app_sessions_user_expires_idx ON app_sessions (user_id, expires_at);

-- Down Migration

DROP TABLE app_sessions;
