-- Up Migration

-- OpenAPI specifications ("API description files"): an organization's specs,
-- named by a slug, each read from a URL or given as text. Processing runs in
-- the service's own job workers (openapi_spec_jobs below) and stores a
-- version of the spec whenever its content changes.
CREATE TABLE openapi_specs (
  id text NOT NULL,
  organization_id text NOT NULL,
  slug text NOT NULL,
  -- Exactly one source: the URL the spec is fetched from, or its text as given.
  source_url text,
  source_text text,
  visibility text NOT NULL DEFAULT 'private',
  processing_state text NOT NULL DEFAULT 'pending',
  -- The newest version; a failed processing keeps the one before it.
  last_version_id text,
  last_processed_at timestamptz,
  last_process_error_code text,
  -- [{message, code?}] of the last failed processing, bounded in count and length.
  last_processed_errors jsonb,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT openapi_specs_pkey PRIMARY KEY (id),
  CONSTRAINT openapi_specs_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT openapi_specs_slug_format CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length(slug) <= 100),
  CONSTRAINT openapi_specs_one_source CHECK ((source_url IS NULL) <> (source_text IS NULL)),
  CONSTRAINT openapi_specs_visibility_enum CHECK (visibility IN ('private', 'public')),
  CONSTRAINT openapi_specs_processing_state_enum CHECK (processing_state IN ('pending', 'progress', 'complete')),
  CONSTRAINT openapi_specs_error_code_enum
    CHECK (last_process_error_code IN ('FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'))
);
-- A slug names one spec in its organization; concurrent creates meet here.
CREATE UNIQUE INDEX openapi_specs_organization_slug_key ON openapi_specs (organization_id, slug);
CREATE INDEX openapi_specs_organization_created_idx ON openapi_specs (organization_id, created_at, id);

-- A version: the files of a spec as processed (the entry file and the files
-- its external $refs reach), parsed, with a short outline of its operations.
CREATE TABLE openapi_spec_versions (
  id text NOT NULL,
  organization_id text NOT NULL,
  spec_id text NOT NULL,
  -- The URL the entry file was fetched from; null for a spec given as text.
  source_url text,
  -- SHA-256 of the canonical JSON of every file, sorted by path: a new
  -- version is stored only when it differs from the newest one's.
  content_hash text NOT NULL,
  -- The entry file exactly as fetched or given, and how it is written.
  entry_text text NOT NULL,
  entry_format text NOT NULL,
  -- {entrypoint, files: [{path, isEntrypoint, specification}]}, served as
  -- stored: `json` keeps the text as written, so reads need not parse it.
  filesystem json NOT NULL,
  -- {info, tags, operations, operationCount}: what computed pages list.
  outline jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT openapi_spec_versions_pkey PRIMARY KEY (id),
  CONSTRAINT openapi_spec_versions_spec_fkey FOREIGN KEY (spec_id) REFERENCES openapi_specs (id) ON DELETE CASCADE,
  CONSTRAINT openapi_spec_versions_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT openapi_spec_versions_entry_format_enum CHECK (entry_format IN ('json', 'yaml'))
);
CREATE INDEX openapi_spec_versions_spec_created_idx ON openapi_spec_versions (organization_id, spec_id, created_at, id);
CREATE INDEX openapi_spec_versions_spec_idx ON openapi_spec_versions (spec_id);

ALTER TABLE openapi_specs
  ADD CONSTRAINT openapi_specs_last_version_fkey FOREIGN KEY (last_version_id)
    REFERENCES openapi_spec_versions (id) ON DELETE SET NULL;
CREATE INDEX openapi_specs_last_version_idx ON openapi_specs (last_version_id) WHERE last_version_id IS NOT NULL;

-- The processing queue. A job is claimed with FOR UPDATE SKIP LOCKED in a
-- statement of its own that marks it running until `locked_until` (a lease
-- its worker renews); a lease that runs out (the worker died) lets another
-- worker claim it again. No session state, so it works behind PgBouncer in
-- transaction mode. A job reads its spec's source when it runs, so several
-- requests while one job waits are one job.
CREATE TABLE openapi_spec_jobs (
  id text NOT NULL,
  organization_id text NOT NULL,
  spec_id text NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  -- Claims so far; past SPEC_MAX_ATTEMPTS the spec records the failure.
  attempts integer NOT NULL DEFAULT 0,
  -- When a pending job may be claimed: now, or after a failure's backoff.
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  -- Made anew by each claim: a worker writes a job's outcome only while the lease it holds is this one.
  lease_token text,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT openapi_spec_jobs_pkey PRIMARY KEY (id),
  CONSTRAINT openapi_spec_jobs_spec_fkey FOREIGN KEY (spec_id) REFERENCES openapi_specs (id) ON DELETE CASCADE,
  CONSTRAINT openapi_spec_jobs_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT openapi_spec_jobs_state_enum CHECK (state IN ('pending', 'running')),
  CONSTRAINT openapi_spec_jobs_running_leased CHECK (state = 'pending' OR (locked_until IS NOT NULL AND lease_token IS NOT NULL))
);
-- At most one job waits and one runs for a spec: a request while one waits
-- joins it, a request while one runs queues exactly one more.
CREATE UNIQUE INDEX openapi_spec_jobs_pending_key ON openapi_spec_jobs (spec_id) WHERE state = 'pending';
CREATE UNIQUE INDEX openapi_spec_jobs_running_key ON openapi_spec_jobs (spec_id) WHERE state = 'running';
-- What a worker looks for: pending jobs due, and running jobs whose lease ran out.
CREATE INDEX openapi_spec_jobs_due_idx ON openapi_spec_jobs (run_after) WHERE state = 'pending';
CREATE INDEX openapi_spec_jobs_lease_idx ON openapi_spec_jobs (locked_until) WHERE state = 'running';
CREATE INDEX openapi_spec_jobs_organization_idx ON openapi_spec_jobs (organization_id);

-- Down Migration

ALTER TABLE openapi_specs DROP CONSTRAINT openapi_specs_last_version_fkey;
DROP TABLE openapi_spec_jobs;
DROP TABLE openapi_spec_versions;
DROP TABLE openapi_specs;
