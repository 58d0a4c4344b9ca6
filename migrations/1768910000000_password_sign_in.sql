-- Up Migration

-- People sign in with their e-mail address and a password. Only the
-- password's argon2id hash is kept (its own PHC string: algorithm, cost,
-- salt and hash), one per user.
CREATE TABLE user_passwords (
  user_id text NOT NULL,
  password_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT user_passwords_pkey PRIMARY KEY (user_id),
  CONSTRAINT user_passwords_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT user_passwords_hash_format CHECK (password_hash LIKE '$argon2id$%' AND char_length(password_hash) <= 512)
);

-- Links mailed to an account's address, each for one purpose: to set a new
-- password (only to a proven address), or to prove the address. Kept only as
-- the secret's SHA-256, for an hour, used once; a newer one of the same
-- purpose replaces the old.
CREATE TABLE account_links (
  id_hash bytea NOT NULL,
  user_id text NOT NULL,
  purpose text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  expires_at timestamptz NOT NULL,
  CONSTRAINT account_links_pkey PRIMARY KEY (id_hash),
  CONSTRAINT account_links_id_hash_length CHECK (octet_length(id_hash) = 32),
  CONSTRAINT account_links_purpose_enum CHECK (purpose IN ('password-reset', 'email-proof')),
  CONSTRAINT account_links_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX account_links_user_purpose_idx ON account_links (user_id, purpose);

-- A session opened with a password acts through a token of its own, made
-- for it and never shown: `session` tokens are not the user's API tokens
-- (not listed, not counted, not revocable through the API) and end with
-- their session.
ALTER TABLE api_tokens ADD COLUMN kind text NOT NULL DEFAULT 'api';
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind_enum CHECK (kind IN ('api', 'session'));

-- Sessions are listed to their user, who may end any of them: each has an id
-- to name it by (never its secret), how it was opened and the browser it was
-- opened from.
ALTER TABLE app_sessions ADD COLUMN id text;
UPDATE app_sessions SET id = substr(encode(id_hash, 'hex'), 1, 20);
ALTER TABLE app_sessions ALTER COLUMN id SET NOT NULL;
ALTER TABLE app_sessions ADD COLUMN signed_in_with text NOT NULL DEFAULT 'token';
ALTER TABLE app_sessions ADD COLUMN user_agent text;
ALTER TABLE app_sessions ADD CONSTRAINT app_sessions_signed_in_with_enum CHECK (signed_in_with IN ('token', 'password'));
ALTER TABLE app_sessions ADD CONSTRAINT app_sessions_user_agent_length CHECK (char_length(user_agent) <= 256);
CREATE UNIQUE INDEX app_sessions_user_id_idx ON app_sessions (user_id, id);

-- Down Migration

DROP INDEX app_sessions_user_id_idx;
ALTER TABLE app_sessions DROP COLUMN user_agent, DROP COLUMN signed_in_with, DROP COLUMN id;
DELETE FROM api_tokens WHERE kind = 'session';
ALTER TABLE api_tokens DROP COLUMN kind;
DROP TABLE account_links;
DROP TABLE user_passwords;
