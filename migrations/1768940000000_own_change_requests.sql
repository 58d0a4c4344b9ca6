-- Up Migration

-- "Edit" in the app continues the writer's own newest change request that is
-- still being worked on: found by space and author among the few not closed.
CREATE INDEX change_requests_space_author_workable_idx ON change_requests (space_id, created_by, created_at DESC, id DESC)
  WHERE status IN ('draft', 'open');

-- Down Migration

DROP INDEX change_requests_space_author_workable_idx;
