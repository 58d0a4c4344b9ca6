-- Up Migration

-- A token an integration calls the API with as one of its installations
-- (createIntegrationInstallationToken): stored only as its SHA-256 hash,
-- with the integration's scopes as they were when it was made, and short-lived.
-- It goes with its installation.
ALTER TABLE integration_installations
  ADD CONSTRAINT integration_installations_organization_id_id_key UNIQUE (organization_id, id);

CREATE TABLE integration_installation_tokens (
  id text NOT NULL,
  organization_id text NOT NULL,
  installation_id text NOT NULL,
  integration_id text NOT NULL,
  token_hash bytea NOT NULL,
  scopes text[] NOT NULL DEFAULT '{}',
  -- Who made it: an admin of the publishing organization; null once that user is gone.
  created_by text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CONSTRAINT integration_installation_tokens_pkey PRIMARY KEY (id),
  CONSTRAINT integration_installation_tokens_hash_key UNIQUE (token_hash),
  CONSTRAINT integration_installation_tokens_hash_length CHECK (octet_length(token_hash) = 32),
  CONSTRAINT integration_installation_tokens_expiry CHECK (expires_at > created_at),
  CONSTRAINT integration_installation_tokens_installation_fkey FOREIGN KEY (organization_id, installation_id)
    REFERENCES integration_installations (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT integration_installation_tokens_integration_fkey FOREIGN KEY (integration_id)
    REFERENCES integrations (id) ON DELETE CASCADE,
  CONSTRAINT integration_installation_tokens_created_by_fkey FOREIGN KEY (created_by)
    REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX integration_installation_tokens_installation_idx
  ON integration_installation_tokens (organization_id, installation_id, expires_at);
CREATE INDEX integration_installation_tokens_integration_idx ON integration_installation_tokens (integration_id);
CREATE INDEX integration_installation_tokens_created_by_idx ON integration_installation_tokens (created_by);

-- Development mode (setIntegrationDevelopmentMode): the tunnel an
-- integration's events and UI renders go to instead of its endpoint, for
-- its own organization, or for every organization with `all`.
ALTER TABLE integrations
  ADD COLUMN dev_tunnel_url text,
  ADD COLUMN dev_all_organizations boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT integrations_dev_tunnel_url_length CHECK (char_length(dev_tunnel_url) BETWEEN 1 AND 256),
  ADD CONSTRAINT integrations_dev_all_needs_tunnel CHECK (dev_tunnel_url IS NOT NULL OR NOT dev_all_organizations);

-- Down Migration

ALTER TABLE integrations
  DROP CONSTRAINT integrations_dev_all_needs_tunnel,
  DROP CONSTRAINT integrations_dev_tunnel_url_length,
  DROP COLUMN dev_all_organizations,
  DROP COLUMN dev_tunnel_url;
DROP TABLE integration_installation_tokens;
ALTER TABLE integration_installations DROP CONSTRAINT integration_installations_organization_id_id_key;
