-- Up Migration

-- A session opened through the operator's OpenID Connect provider keeps the ID
-- token the provider issued, sealed with the keyring and bound to the session:
-- signing out hands it back to the provider's end-session endpoint as
-- `id_token_hint`, so that the provider ends its own session without asking
-- the person to confirm. It goes with the session's row.
ALTER TABLE app_sessions ADD COLUMN provider_id_token_sealed text;
ALTER TABLE app_sessions ADD CONSTRAINT app_sessions_id_token_hint_oidc
  CHECK (provider_id_token_sealed IS NULL OR (signed_in_with = 'oidc' AND octet_length(provider_id_token_sealed) <= 16384));

-- Down Migration

ALTER TABLE app_sessions DROP COLUMN provider_id_token_sealed;
