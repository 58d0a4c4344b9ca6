-- Up Migration

-- A Git Sync operation that failed for a reason that may pass (the remote
-- unreachable or slow, the service's own failure) is queued again after a
-- delay that grows with each retry; `error` keeps why, for the space's status.
ALTER TABLE git_sync_operations
  ADD COLUMN retries integer NOT NULL DEFAULT 0,
  ADD COLUMN retry_at timestamptz;

-- Down Migration

ALTER TABLE git_sync_operations
  DROP COLUMN retry_at,
  DROP COLUMN retries;
