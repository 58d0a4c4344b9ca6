-- Up Migration

-- A Git Sync installation: the link of one space to one branch of a
-- repository on GitHub, GitLab or any Git host over HTTPS, with the token the
-- service uses there (sealed with the keyring, context
-- `git-sync-installation:<id>:token`) and the secret the provider signs its
-- webhooks with (sealed, context `git-sync-installation:<id>:webhook`).
-- A change to an installation ticks its organization's clock: the space's
-- `gitSync` field shows it.
CREATE TABLE git_sync_installations (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  provider text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  -- The provider's REST API when not the operator's default (GitHub Enterprise, a self-hosted GitLab).
  api_url text,
  access_token_sealed text,
  -- The user name sent with the token to a Git host over HTTPS (provider `git`).
  username text,
  -- GitHub's repository id or GitLab's project id.
  repository_id bigint,
  repository_name text,
  -- The HTTPS URL Git clones, without credentials.
  repository_url text,
  default_branch text,
  ref text,
  project_directory text NOT NULL DEFAULT '',
  commit_message_template text,
  priority text NOT NULL DEFAULT 'git',
  preview_external_branches boolean NOT NULL DEFAULT false,
  webhook_secret_sealed text NOT NULL,
  -- Null: no polling.
  polling_interval_seconds integer,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT git_sync_installations_pkey PRIMARY KEY (id),
  CONSTRAINT git_sync_installations_space_key UNIQUE (organization_id, space_id),
  CONSTRAINT git_sync_installations_organization_id_id_key UNIQUE (organization_id, id),
  CONSTRAINT git_sync_installations_provider_check CHECK (provider IN ('github', 'gitlab', 'git')),
  CONSTRAINT git_sync_installations_status_check CHECK (status IN ('pending', 'active', 'unauthenticated')),
  CONSTRAINT git_sync_installations_priority_check CHECK (priority IN ('git', 'gitbook')),
  CONSTRAINT git_sync_installations_polling_check CHECK (polling_interval_seconds IS NULL OR polling_interval_seconds > 0),
  CONSTRAINT git_sync_installations_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT git_sync_installations_user_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX git_sync_installations_user_idx ON git_sync_installations (created_by);
CREATE TRIGGER organization_ticks_on_insert AFTER INSERT ON git_sync_installations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows();
CREATE TRIGGER organization_ticks_on_update AFTER UPDATE ON git_sync_installations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows();
CREATE TRIGGER organization_ticks_on_delete AFTER DELETE ON git_sync_installations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows();

-- When an installation that polls is next due, apart from the installation
-- so that polling ticks no clock. A poll is claimed with a lease, as the
-- operations queue claims an operation, so that several instances never poll
-- the same installation at once; a lease whose instance stopped expires.
CREATE TABLE git_sync_polls (
  installation_id text NOT NULL,
  organization_id text NOT NULL,
  due_at timestamptz NOT NULL,
  lease_expires_at timestamptz,
  polled_at timestamptz,
  -- Why the last poll could not read the branch; null when it could.
  error text,
  CONSTRAINT git_sync_polls_pkey PRIMARY KEY (installation_id),
  CONSTRAINT git_sync_polls_installation_fkey FOREIGN KEY (organization_id, installation_id)
    REFERENCES git_sync_installations (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX git_sync_polls_due_idx ON git_sync_polls (due_at, installation_id);
CREATE INDEX git_sync_polls_organization_idx ON git_sync_polls (organization_id);

-- Down Migration

DROP TABLE git_sync_polls;
DROP TABLE git_sync_installations;
