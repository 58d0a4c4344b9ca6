-- Up Migration

-- A Git Sync operation that failed for a reason that may pass (the remote
-- unreachable or slow, the service's own failure) is queued again after a
-- delay that grows with each retry; `error` keeps why, for the space's status.
ALTER TABLE git_sync_operations
  ADD COLUMN retries integer NOT NULL DEFAULT 0,
  ADD COLUMN retry_at timestamptz;

-- GitBook's `standalone` import: its change request is left open, the space
-- and the link as they were; what a sync would change, to look at first.
ALTER TABLE git_sync_operations
  ADD COLUMN standalone boolean NOT NULL DEFAULT false;

-- The export of one merge into a space with a Git Sync installation: the
-- revision that merge made, committed as its own commit (null: the space's
-- current revision, as an export asked through the API).
ALTER TABLE git_sync_operations
  ADD COLUMN revision_id text;

-- Down Migration

ALTER TABLE git_sync_operations
  DROP COLUMN revision_id,
  DROP COLUMN standalone,
  DROP COLUMN retry_at,
  DROP COLUMN retries;
