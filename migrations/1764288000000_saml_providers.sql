-- Up Migration

CREATE TABLE saml_providers (
  id text NOT NULL,
  organization_id text NOT NULL,
  label text NOT NULL,
  sso_url text,
  entity_id text,
  -- The identity provider's public certificate, as PEM.
  certificate text,
  default_team_id text,
  default_role text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT saml_providers_pkey PRIMARY KEY (id),
  CONSTRAINT saml_providers_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  -- A team of the same organization; deleting the team only clears it here.
  CONSTRAINT saml_providers_default_team_fkey
    FOREIGN KEY (organization_id, default_team_id) REFERENCES teams (organization_id, id) ON DELETE SET NULL (default_team_id),
  CONSTRAINT saml_providers_label_length CHECK (char_length(label) BETWEEN 1 AND 30),
  CONSTRAINT saml_providers_sso_url_length CHECK (char_length(sso_url) <= 2048),
  CONSTRAINT saml_providers_entity_id_length CHECK (char_length(entity_id) <= 1024),
  CONSTRAINT saml_providers_certificate_length CHECK (char_length(certificate) <= 10000),
  CONSTRAINT saml_providers_default_role_enum
    CHECK (default_role IN ('admin', 'create', 'edit', 'review', 'comment', 'read'))
);
CREATE INDEX saml_providers_organization_created_idx ON saml_providers (organization_id, created_at, id);

-- Down Migration

DROP TABLE saml_providers;
