-- Up Migration

-- What a space and a branch held at their last sync, besides the commit: the
-- space's revision then (the base an import's change request starts from, so
-- that a merge conflicts only where both sides changed a page since) and the
-- fingerprints of the repository's files then (so that an import rewrites
-- only the files Git changed since). Null for a link synced before them: the
-- next sync compares with the space's current revision, as a first one does.
ALTER TABLE git_sync_links
  ADD COLUMN revision_id text,
  ADD COLUMN fingerprints jsonb;

-- An import that conflicted: its change request, left open, and the commit
-- and fingerprints it holds. The next import writes into that change request
-- rather than opening another; once someone merges it (having resolved its
-- conflicts), the link stands at that commit and that merge.
ALTER TABLE git_sync_links
  ADD COLUMN pending_change_request_id text,
  ADD COLUMN pending_commit_sha text,
  ADD COLUMN pending_fingerprints jsonb;

-- Down Migration

ALTER TABLE git_sync_links
  DROP COLUMN pending_fingerprints,
  DROP COLUMN pending_commit_sha,
  DROP COLUMN pending_change_request_id,
  DROP COLUMN fingerprints,
  DROP COLUMN revision_id;
