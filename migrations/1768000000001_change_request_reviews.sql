-- Up Migration

-- A review of a change request: a decision on the revision the change request
-- had when it was submitted. A newer revision, a newer review by the same
-- user, or a newer request of their review makes it outdated (read, never
-- stored, so that nothing has to rewrite reviews when a change request moves).
CREATE TABLE change_request_reviews (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  change_request_id text NOT NULL,
  reviewer_id text NOT NULL,
  revision_id text NOT NULL,
  status text NOT NULL,
  -- Who asked for this review, when it answered a request (the request is then done).
  requested_by text,
  -- The comment posted with the review, in the change request's thread.
  comment_id text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT change_request_reviews_pkey PRIMARY KEY (id),
  CONSTRAINT change_request_reviews_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT change_request_reviews_change_request_fkey
    FOREIGN KEY (change_request_id) REFERENCES change_requests (id) ON DELETE CASCADE,
  CONSTRAINT change_request_reviews_revision_fkey FOREIGN KEY (revision_id) REFERENCES revisions (id) ON DELETE CASCADE,
  CONSTRAINT change_request_reviews_reviewer_fkey FOREIGN KEY (reviewer_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT change_request_reviews_requested_by_fkey
    FOREIGN KEY (requested_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT change_request_reviews_comment_fkey FOREIGN KEY (comment_id) REFERENCES comments (id) ON DELETE SET NULL,
  CONSTRAINT change_request_reviews_status_enum CHECK (status IN ('approved', 'changes-requested'))
);
-- The list, newest first, keyset on (created_at, id); and each reviewer's latest.
CREATE INDEX change_request_reviews_list_idx ON change_request_reviews (change_request_id, created_at, id);
CREATE INDEX change_request_reviews_reviewer_idx ON change_request_reviews (change_request_id, reviewer_id, created_at);
CREATE INDEX change_request_reviews_organization_idx ON change_request_reviews (organization_id);
CREATE INDEX change_request_reviews_user_idx ON change_request_reviews (reviewer_id);
CREATE INDEX change_request_reviews_requested_by_idx ON change_request_reviews (requested_by) WHERE requested_by IS NOT NULL;
CREATE INDEX change_request_reviews_comment_idx ON change_request_reviews (comment_id) WHERE comment_id IS NOT NULL;
CREATE INDEX change_request_reviews_revision_idx ON change_request_reviews (revision_id);

-- A change request's answers show whether the caller may merge it now, which
-- its reviews and review requests decide: both tick its space's clock.
CREATE TRIGGER change_request_reviews_clock_on_insert AFTER INSERT ON change_request_reviews
  REFERENCING NEW TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();
CREATE TRIGGER change_request_reviews_clock_on_update AFTER UPDATE ON change_request_reviews
  REFERENCING NEW TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();
CREATE TRIGGER change_request_reviews_clock_on_delete AFTER DELETE ON change_request_reviews
  REFERENCING OLD TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();
CREATE TRIGGER change_request_reviewers_clock_on_insert AFTER INSERT ON change_request_reviewers
  REFERENCING NEW TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();
CREATE TRIGGER change_request_reviewers_clock_on_delete AFTER DELETE ON change_request_reviewers
  REFERENCING OLD TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();

-- A space's own merge rules: inherit the organization's, none, or its own rules.
ALTER TABLE spaces ADD COLUMN merge_rules jsonb NOT NULL DEFAULT '{"type":"inherit"}',
  ADD CONSTRAINT spaces_merge_rules_type CHECK (merge_rules->>'type' IN ('inherit', 'none', 'rules'));
ALTER TABLE organizations
  ADD CONSTRAINT organizations_merge_rules_type CHECK (merge_rules->>'type' IN ('none', 'rules'));

-- The lists of change requests, by last update or creation: a space's, and an
-- organization's, with one status each.
CREATE INDEX change_requests_space_status_updated_idx ON change_requests (space_id, status, updated_at, id);
CREATE INDEX change_requests_organization_status_created_idx
  ON change_requests (organization_id, status, created_at, id);
CREATE INDEX change_requests_organization_status_updated_idx
  ON change_requests (organization_id, status, updated_at, id);
CREATE INDEX change_requests_created_by_idx ON change_requests (created_by) WHERE created_by IS NOT NULL;
-- Who wrote in a change request (its contributors, the contributor filter).
CREATE INDEX revisions_change_request_author_idx ON revisions (change_request_id, created_by)
  WHERE change_request_id IS NOT NULL;

-- Down Migration

DROP INDEX revisions_change_request_author_idx;
DROP INDEX change_requests_created_by_idx;
DROP INDEX change_requests_organization_status_updated_idx;
DROP INDEX change_requests_organization_status_created_idx;
DROP INDEX change_requests_space_status_updated_idx;
ALTER TABLE organizations DROP CONSTRAINT organizations_merge_rules_type;
ALTER TABLE spaces DROP COLUMN merge_rules;
DROP TRIGGER change_request_reviewers_clock_on_delete ON change_request_reviewers;
DROP TRIGGER change_request_reviewers_clock_on_insert ON change_request_reviewers;
DROP TABLE change_request_reviews;
