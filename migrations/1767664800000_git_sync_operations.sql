-- Up Migration

-- Git Sync's imports and exports of a space, queued by the API and run by a
-- worker on any instance, one at a time per space in the order asked. A row
-- is claimed by setting it running with a lease; a row whose instance died
-- is claimed again once its lease has expired. The credentials the request's
-- URL carried are kept sealed (the keyring, context the row's id) until it ends.
CREATE TABLE git_sync_operations (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  direction text NOT NULL,
  url text NOT NULL,
  ref text NOT NULL,
  authorization_sealed text,
  project_directory text NOT NULL DEFAULT '',
  commit_message text,
  force boolean NOT NULL DEFAULT false,
  requested_by text NOT NULL,
  state text NOT NULL DEFAULT 'queued',
  attempts integer NOT NULL DEFAULT 0,
  lease_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  ended_at timestamptz,
  error text,
  commit_sha text,
  change_request_id text,
  CONSTRAINT git_sync_operations_pkey PRIMARY KEY (id),
  CONSTRAINT git_sync_operations_direction_check CHECK (direction IN ('import', 'export')),
  CONSTRAINT git_sync_operations_state_check CHECK (state IN ('queued', 'running', 'success', 'failure', 'timeout')),
  CONSTRAINT git_sync_operations_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT git_sync_operations_user_fkey FOREIGN KEY (requested_by) REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX git_sync_operations_due_idx ON git_sync_operations (created_at, id) WHERE state IN ('queued', 'running');
CREATE INDEX git_sync_operations_space_idx ON git_sync_operations (organization_id, space_id, created_at DESC);
CREATE INDEX git_sync_operations_user_idx ON git_sync_operations (requested_by);

-- The commit of a branch that held the space's content at the last sync with
-- it: an export commits on top of it only (fast-forward), so that a branch
-- that moved since is never overwritten.
CREATE TABLE git_sync_links (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  url text NOT NULL,
  ref text NOT NULL,
  commit_sha text NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT git_sync_links_pkey PRIMARY KEY (space_id, url, ref),
  CONSTRAINT git_sync_links_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX git_sync_links_organization_space_idx ON git_sync_links (organization_id, space_id);

-- Down Migration

DROP TABLE git_sync_links;
DROP TABLE git_sync_operations;
