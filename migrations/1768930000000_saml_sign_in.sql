-- Up Migration

-- People sign in through their organization's SAML provider: its identities
-- are kept in user_identities under the issuer `saml:<provider id>` (never the
-- entity id the provider claims, which another organization could claim too),
-- and such a session acts through a token bound to that organization.
ALTER TABLE app_sessions DROP CONSTRAINT app_sessions_signed_in_with_enum;
ALTER TABLE app_sessions ADD CONSTRAINT app_sessions_signed_in_with_enum CHECK (signed_in_with IN ('token', 'password', 'oidc', 'saml'));

-- Down Migration

DELETE FROM api_tokens WHERE kind = 'session' AND id IN (SELECT token_id FROM app_sessions WHERE signed_in_with = 'saml');
DELETE FROM app_sessions WHERE signed_in_with = 'saml';
DELETE FROM user_identities WHERE issuer LIKE 'saml:%';
ALTER TABLE app_sessions DROP CONSTRAINT app_sessions_signed_in_with_enum;
ALTER TABLE app_sessions ADD CONSTRAINT app_sessions_signed_in_with_enum CHECK (signed_in_with IN ('token', 'password', 'oidc'));
