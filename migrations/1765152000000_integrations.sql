-- Up Migration

-- Integrations: published by an organization under a name that is unique in
-- the whole service. A new publish by the owner replaces the definition and
-- bumps the version; the row (and its id) stays.
CREATE TABLE integrations (
  id text NOT NULL,
  organization_id text NOT NULL,
  name text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  runtime text NOT NULL DEFAULT 'v1',
  title text NOT NULL,
  description text NOT NULL,
  summary text,
  visibility text NOT NULL,
  target text NOT NULL DEFAULT 'all',
  scopes text[] NOT NULL DEFAULT '{}',
  categories text[] NOT NULL DEFAULT '{}',
  blocks jsonb NOT NULL DEFAULT '[]',
  content_sources jsonb NOT NULL DEFAULT '[]',
  configurations jsonb NOT NULL DEFAULT '{}',
  external_links jsonb NOT NULL DEFAULT '[]',
  -- A string, or an object of directives.
  content_security_policy jsonb,
  -- The hosts the blocks' urlUnfurl patterns name (`*.example.com` for a
  -- wildcard), written with the blocks: what the blockDomain filter matches.
  block_domains text[] NOT NULL DEFAULT '{}',
  has_blocks boolean NOT NULL GENERATED ALWAYS AS (jsonb_array_length(blocks) > 0) STORED,
  has_content_sources boolean NOT NULL GENERATED ALWAYS AS (jsonb_array_length(content_sources) > 0) STORED,
  -- File names (`<asset id>.<extension>`) in integration_assets.
  icon text,
  preview_images text[] NOT NULL DEFAULT '{}',
  -- Never returned by the API.
  script text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT integrations_pkey PRIMARY KEY (id),
  CONSTRAINT integrations_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT integrations_name_format CHECK (name ~ '^[a-zA-Z0-9_.-]{1,100}$'),
  CONSTRAINT integrations_version_positive CHECK (version >= 1),
  CONSTRAINT integrations_runtime_enum CHECK (runtime IN ('v1', 'v2')),
  CONSTRAINT integrations_visibility_enum CHECK (visibility IN ('public', 'private', 'unlisted')),
  CONSTRAINT integrations_target_enum CHECK (target IN ('all', 'site', 'space', 'organization')),
  CONSTRAINT integrations_title_length CHECK (char_length(title) BETWEEN 2 AND 30),
  CONSTRAINT integrations_description_length CHECK (char_length(description) <= 100),
  CONSTRAINT integrations_summary_length CHECK (char_length(summary) <= 2048),
  CONSTRAINT integrations_preview_images_count CHECK (cardinality(preview_images) <= 3),
  CONSTRAINT integrations_block_domains_count CHECK (cardinality(block_domains) <= 1000)
);
CREATE UNIQUE INDEX integrations_name_key ON integrations (name);
-- The list, newest first, and each of its filters.
CREATE INDEX integrations_created_idx ON integrations (created_at, id);
CREATE INDEX integrations_organization_created_idx ON integrations (organization_id, created_at, id);
CREATE INDEX integrations_target_created_idx ON integrations (target, created_at, id);
CREATE INDEX integrations_has_blocks_created_idx ON integrations (has_blocks, created_at, id);
CREATE INDEX integrations_has_content_sources_created_idx ON integrations (has_content_sources, created_at, id);
CREATE INDEX integrations_categories_idx ON integrations USING gin (categories);
CREATE INDEX integrations_scopes_idx ON integrations USING gin (scopes);
CREATE INDEX integrations_block_domains_idx ON integrations USING gin (block_domains);
CREATE INDEX integrations_name_trgm_idx ON integrations USING gin (lower(name) gin_trgm_ops);
CREATE INDEX integrations_title_trgm_idx ON integrations USING gin (lower(title) gin_trgm_ops);

-- The icon and preview images of an integration, served at
-- /integration-assets/{name}/{id}.{extension}. A publish writes new ones
-- under new ids, so a served asset never changes.
CREATE TABLE integration_assets (
  id text NOT NULL,
  organization_id text NOT NULL,
  integration_id text NOT NULL,
  content_type text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  bytes bytea NOT NULL,
  sha256 bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT integration_assets_pkey PRIMARY KEY (id),
  CONSTRAINT integration_assets_integration_fkey FOREIGN KEY (integration_id)
    REFERENCES integrations (id) ON DELETE CASCADE,
  CONSTRAINT integration_assets_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT integration_assets_content_type_enum
    CHECK (content_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp'))
);
CREATE INDEX integration_assets_integration_idx ON integration_assets (integration_id);
CREATE INDEX integration_assets_organization_idx ON integration_assets (organization_id);

-- An integration's secrets, each sealed with AES-256-GCM
-- (`k1.<key id>.<iv>.<tag>.<ciphertext>`); key_id repeats the key the value
-- is sealed under, so that a rotation finds what is left to re-encrypt.
CREATE TABLE integration_secrets (
  integration_id text NOT NULL,
  organization_id text NOT NULL,
  name text NOT NULL,
  sealed text NOT NULL,
  key_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT integration_secrets_pkey PRIMARY KEY (integration_id, name),
  CONSTRAINT integration_secrets_integration_fkey FOREIGN KEY (integration_id)
    REFERENCES integrations (id) ON DELETE CASCADE,
  CONSTRAINT integration_secrets_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX integration_secrets_key_idx ON integration_secrets (key_id);
CREATE INDEX integration_secrets_organization_idx ON integration_secrets (organization_id);

-- An integration installed on an organization (organization_id: the
-- organization it is installed on, not the one that publishes it).
CREATE TABLE integration_installations (
  id text NOT NULL,
  organization_id text NOT NULL,
  integration_id text NOT NULL,
  status text NOT NULL DEFAULT 'active',
  configuration jsonb NOT NULL DEFAULT '{}',
  external_ids text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT integration_installations_pkey PRIMARY KEY (id),
  CONSTRAINT integration_installations_integration_fkey FOREIGN KEY (integration_id)
    REFERENCES integrations (id) ON DELETE CASCADE,
  CONSTRAINT integration_installations_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT integration_installations_status_enum CHECK (status IN ('active', 'pending', 'paused')),
  CONSTRAINT integration_installations_external_ids_count CHECK (cardinality(external_ids) <= 5)
);
-- One installation per organization and integration.
CREATE UNIQUE INDEX integration_installations_integration_organization_key
  ON integration_installations (integration_id, organization_id);
CREATE INDEX integration_installations_integration_created_idx
  ON integration_installations (integration_id, created_at, id);
CREATE INDEX integration_installations_organization_idx ON integration_installations (organization_id);
CREATE INDEX integration_installations_external_ids_idx ON integration_installations USING gin (external_ids);

-- An installation's spaces and sites. Deleting the space or the site removes
-- them; a space in the trash (or moved to another organization) keeps its row
-- until the purge, but no read shows it.
CREATE TABLE integration_space_installations (
  installation_id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  configuration jsonb NOT NULL DEFAULT '{}',
  external_ids text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT integration_space_installations_pkey PRIMARY KEY (installation_id, space_id),
  CONSTRAINT integration_space_installations_installation_fkey FOREIGN KEY (installation_id)
    REFERENCES integration_installations (id) ON DELETE CASCADE,
  CONSTRAINT integration_space_installations_space_fkey FOREIGN KEY (space_id)
    REFERENCES spaces (id) ON DELETE CASCADE,
  CONSTRAINT integration_space_installations_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT integration_space_installations_external_ids_count CHECK (cardinality(external_ids) <= 5)
);
CREATE INDEX integration_space_installations_created_idx
  ON integration_space_installations (installation_id, created_at, space_id);
CREATE INDEX integration_space_installations_space_idx ON integration_space_installations (space_id);
CREATE INDEX integration_space_installations_organization_idx ON integration_space_installations (organization_id);

CREATE TABLE integration_site_installations (
  installation_id text NOT NULL,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  configuration jsonb NOT NULL DEFAULT '{}',
  external_ids text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT integration_site_installations_pkey PRIMARY KEY (installation_id, site_id),
  CONSTRAINT integration_site_installations_installation_fkey FOREIGN KEY (installation_id)
    REFERENCES integration_installations (id) ON DELETE CASCADE,
  CONSTRAINT integration_site_installations_site_fkey FOREIGN KEY (site_id)
    REFERENCES sites (id) ON DELETE CASCADE,
  CONSTRAINT integration_site_installations_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT integration_site_installations_external_ids_count CHECK (cardinality(external_ids) <= 5)
);
CREATE INDEX integration_site_installations_created_idx
  ON integration_site_installations (installation_id, created_at, site_id);
CREATE INDEX integration_site_installations_site_idx ON integration_site_installations (site_id);
CREATE INDEX integration_site_installations_organization_idx ON integration_site_installations (organization_id);

-- Down Migration

DROP TABLE integration_site_installations;
DROP TABLE integration_space_installations;
DROP TABLE integration_installations;
DROP TABLE integration_secrets;
DROP TABLE integration_assets;
DROP TABLE integrations;
