-- Up Migration

-- GitBook's import runs: a website, a Git branch or an uploaded zip of
-- markdown brought into a space (or one of its change requests) by a worker
-- on any instance, one run at a time per organization in the order asked.
-- A run is claimed by setting it in progress with a lease; a run whose
-- instance died is claimed again once its lease has expired, and goes on from
-- the last write it recorded. A run into a space writes into a change request
-- of its own (draft_change_request_id) and merges it at its end, so that the
-- space sees the import whole or not at all.
CREATE TABLE import_runs (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  change_request_id text,
  page_id text,
  site_id text,
  source_type text NOT NULL,
  source_url text,
  source_ref text,
  source_project_directory text NOT NULL DEFAULT '',
  source_files text[] NOT NULL DEFAULT '{}',
  authorization_sealed text,
  created_by text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  reason text,
  attempts integer NOT NULL DEFAULT 0,
  lease_expires_at timestamptz,
  draft_change_request_id text,
  source_version text,
  steps_done integer NOT NULL DEFAULT 0,
  steps_total integer,
  written jsonb NOT NULL DEFAULT '{}',
  written_revision_id text,
  pages jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  started_at timestamptz,
  completed_at timestamptz,
  CONSTRAINT import_runs_pkey PRIMARY KEY (id),
  CONSTRAINT import_runs_organization_id_key UNIQUE (organization_id, id),
  CONSTRAINT import_runs_source_type_check CHECK (source_type IN ('website', 'file', 'git')),
  CONSTRAINT import_runs_status_check CHECK (status IN ('pending', 'in-progress', 'completed', 'failed', 'cancelled')),
  CONSTRAINT import_runs_source_files_check CHECK (cardinality(source_files) <= 50),
  CONSTRAINT import_runs_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT import_runs_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT import_runs_change_request_fkey FOREIGN KEY (change_request_id)
    REFERENCES change_requests (id) ON DELETE CASCADE,
  CONSTRAINT import_runs_draft_change_request_fkey FOREIGN KEY (draft_change_request_id)
    REFERENCES change_requests (id) ON DELETE SET NULL,
  CONSTRAINT import_runs_site_fkey FOREIGN KEY (site_id) REFERENCES sites (id) ON DELETE SET NULL,
  CONSTRAINT import_runs_user_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX import_runs_due_idx ON import_runs (created_at, id) WHERE status IN ('pending', 'in-progress');
CREATE INDEX import_runs_organization_idx ON import_runs (organization_id, created_at DESC, id DESC);
CREATE INDEX import_runs_space_idx ON import_runs (organization_id, space_id, created_at DESC);
CREATE INDEX import_runs_change_request_idx ON import_runs (change_request_id) WHERE change_request_id IS NOT NULL;
CREATE INDEX import_runs_draft_change_request_idx ON import_runs (draft_change_request_id)
  WHERE draft_change_request_id IS NOT NULL;
CREATE INDEX import_runs_site_idx ON import_runs (site_id) WHERE site_id IS NOT NULL;
CREATE INDEX import_runs_user_idx ON import_runs (created_by);

-- Down Migration

DROP TABLE import_runs;
