-- Up Migration

-- Timestamps are kept at millisecond precision: the API shows milliseconds and
-- keyset cursors carry them, so a stored microsecond would break tie ordering.

CREATE TABLE service_settings (
  key text NOT NULL,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT service_settings_pkey PRIMARY KEY (key)
);

CREATE TABLE users (
  id text NOT NULL,
  email text NOT NULL,
  display_name text NOT NULL,
  photo_url text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT users_pkey PRIMARY KEY (id),
  CONSTRAINT users_email_lowercase CHECK (email = lower(email)),
  CONSTRAINT users_display_name_length CHECK (char_length(display_name) BETWEEN 1 AND 255)
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE api_tokens (
  id text NOT NULL,
  user_id text NOT NULL,
  token_hash bytea NOT NULL,
  label text NOT NULL DEFAULT '',
  -- NULL means the token carries its user's full rights.
  scopes text[],
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  expires_at timestamptz,
  revoked_at timestamptz,
  CONSTRAINT api_tokens_pkey PRIMARY KEY (id),
  CONSTRAINT api_tokens_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT api_tokens_hash_length CHECK (octet_length(token_hash) = 32)
);
CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash);
CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id);

CREATE TABLE organizations (
  id text NOT NULL,
  title text NOT NULL,
  email_domains text[] NOT NULL DEFAULT '{}',
  hostname text,
  type text NOT NULL DEFAULT 'business',
  use_case text,
  community_type text,
  default_role text,
  default_content_site_id text,
  logo_url text,
  sso boolean NOT NULL DEFAULT false,
  ai boolean NOT NULL DEFAULT false,
  invite_links boolean NOT NULL DEFAULT true,
  plan text NOT NULL DEFAULT 'enterprise_2024',
  custom_hostname text,
  merge_rules jsonb NOT NULL DEFAULT '{"type":"none"}',
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT organizations_pkey PRIMARY KEY (id),
  CONSTRAINT organizations_title_length CHECK (char_length(title) BETWEEN 2 AND 255),
  CONSTRAINT organizations_hostname_format CHECK (hostname ~ '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$'),
  CONSTRAINT organizations_type_enum CHECK (type IN ('business', 'community')),
  CONSTRAINT organizations_default_role_enum
    CHECK (default_role IN ('admin', 'create', 'edit', 'review', 'comment', 'read'))
);
CREATE UNIQUE INDEX organizations_hostname_key ON organizations (hostname);
CREATE INDEX organizations_email_domains_idx ON organizations USING gin (email_domains);
CREATE INDEX organizations_created_at_id_idx ON organizations (created_at, id);

CREATE TABLE organization_members (
  organization_id text NOT NULL,
  user_id text NOT NULL,
  -- NULL is a guest: a member with access only to what is shared with them.
  role text,
  disabled boolean NOT NULL DEFAULT false,
  sso boolean NOT NULL DEFAULT false,
  joined_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  last_seen_at timestamptz,
  CONSTRAINT organization_members_pkey PRIMARY KEY (organization_id, user_id),
  CONSTRAINT organization_members_organization_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT organization_members_user_fkey
    FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT organization_members_role_enum
    CHECK (role IN ('admin', 'create', 'edit', 'review', 'comment', 'read'))
);
-- Lists "the organizations of a user" without scanning every membership.
CREATE INDEX organization_members_user_id_idx ON organization_members (user_id, organization_id);

-- Down Migration

DROP TABLE organization_members;
DROP TABLE organizations;
DROP TABLE api_tokens;
DROP TABLE users;
DROP TABLE service_settings;
