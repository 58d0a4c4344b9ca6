-- Up Migration

-- People sign in through the operator's OpenID Connect provider: each
-- identity there (its issuer and the subject it names the person by) opens
-- one user, linked on a first sign-in by an address the provider says it
-- has proven. A user may have several (another provider later), never the
-- reverse.
CREATE TABLE user_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  last_signed_in_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT user_identities_pkey PRIMARY KEY (issuer, subject),
  CONSTRAINT user_identities_issuer_length CHECK (char_length(issuer) BETWEEN 1 AND 2048),
  CONSTRAINT user_identities_subject_length CHECK (char_length(subject) BETWEEN 1 AND 255),
  CONSTRAINT user_identities_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX user_identities_user_idx ON user_identities (user_id);

-- A session opened through the identity provider acts, as a password's does,
-- through a hidden `session` token of its own.
ALTER TABLE app_sessions DROP CONSTRAINT app_sessions_signed_in_with_enum;
ALTER TABLE app_sessions ADD CONSTRAINT app_sessions_signed_in_with_enum CHECK (signed_in_with IN ('token', 'password', 'oidc'));

-- Down Migration

DELETE FROM api_tokens WHERE kind = 'session' AND id IN (SELECT token_id FROM app_sessions WHERE signed_in_with = 'oidc');
DELETE FROM app_sessions WHERE signed_in_with = 'oidc';
ALTER TABLE app_sessions DROP CONSTRAINT app_sessions_signed_in_with_enum;
ALTER TABLE app_sessions ADD CONSTRAINT app_sessions_signed_in_with_enum CHECK (signed_in_with IN ('token', 'password'));
DROP TABLE user_identities;
