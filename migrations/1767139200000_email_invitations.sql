-- Up Migration

-- An e-mail address is a claim: it is proven when its owner accepts an
-- invitation sent to it (or the operator sets it: the first-start admin, the
-- CLI). Existing users are left unverified: before this migration inviting an
-- address made a user for it at once, so no row tells an address its owner
-- proved from one an admin typed. Their memberships and tokens keep working;
-- only what an address alone opens (joining by e-mail domain, the listing of
-- organizations by e-mail domain) waits until they accept an invitation
-- mailed to their address or the operator runs `cli users verify --email`.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;

-- A token an admin issued to a member works only in that organization, and
-- dies with the organization.
ALTER TABLE api_tokens ADD COLUMN organization_id text;
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_organization_fkey
  FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE;
CREATE INDEX api_tokens_organization_idx ON api_tokens (organization_id) WHERE organization_id IS NOT NULL;

-- Tokens issued before this migration by an admin (recorded as organization
-- events) become bound to the organization that issued them.
UPDATE api_tokens t SET organization_id = e.organization_id
  FROM organization_events e
  WHERE e.type = 'member_token_issued' AND e.details->>'tokenId' = t.id AND e.user_id = t.user_id;
-- ... and live at most a day from now, as one issued from now on does.
UPDATE api_tokens SET expires_at = least(expires_at, date_trunc('milliseconds', now()) + interval '24 hours')
  WHERE organization_id IS NOT NULL AND revoked_at IS NULL;

-- Whenever a user becomes a member of an organization, by whatever path, the
-- tokens other organizations' admins issued them stop: such a token reaches
-- only the organization that issued it, and the user now has another.
CREATE FUNCTION api_tokens_revoke_issued_elsewhere() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api_tokens SET revoked_at = date_trunc('milliseconds', now())
    WHERE user_id = NEW.user_id AND organization_id IS NOT NULL
      AND organization_id <> NEW.organization_id AND revoked_at IS NULL;
  RETURN NULL;
END;
$$;
CREATE TRIGGER organization_members_revoke_issued_tokens
  AFTER INSERT ON organization_members
  FOR EACH ROW EXECUTE FUNCTION api_tokens_revoke_issued_elsewhere();

-- An invitation by e-mail: pending until the address's owner accepts it with
-- the secret sent to the address (kept only as its SHA-256), once, before it
-- expires. One per organization and address: inviting again renews it.
-- `mailed`: the secret went only to the address (SMTP), so accepting proves
-- the mailbox; otherwise the inviting admin was shown it to hand over, and
-- accepting proves only that the admin chose this person.
CREATE TABLE organization_email_invitations (
  id text NOT NULL,
  organization_id text NOT NULL,
  email text NOT NULL,
  role text,
  sso boolean NOT NULL DEFAULT false,
  invited_by text,
  secret_hash bytea NOT NULL,
  mailed boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CONSTRAINT organization_email_invitations_pkey PRIMARY KEY (id),
  CONSTRAINT organization_email_invitations_organization_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT organization_email_invitations_invited_by_fkey
    FOREIGN KEY (invited_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT organization_email_invitations_role_enum
    CHECK (role IN ('admin', 'create', 'edit', 'review', 'comment', 'read')),
  CONSTRAINT organization_email_invitations_hash_length CHECK (octet_length(secret_hash) = 32),
  CONSTRAINT organization_email_invitations_email_lower CHECK (email = lower(email))
);
CREATE UNIQUE INDEX organization_email_invitations_address_key ON organization_email_invitations (organization_id, email);
CREATE UNIQUE INDEX organization_email_invitations_secret_key ON organization_email_invitations (secret_hash);
CREATE INDEX organization_email_invitations_organization_created_idx
  ON organization_email_invitations (organization_id, created_at, id);
CREATE INDEX organization_email_invitations_email_idx ON organization_email_invitations (email);

-- Down Migration

DROP TABLE organization_email_invitations;
DROP TRIGGER organization_members_revoke_issued_tokens ON organization_members;
DROP FUNCTION api_tokens_revoke_issued_elsewhere();
DROP INDEX api_tokens_organization_idx;
ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_organization_fkey;
ALTER TABLE api_tokens DROP COLUMN organization_id;
ALTER TABLE users DROP COLUMN email_verified_at;
