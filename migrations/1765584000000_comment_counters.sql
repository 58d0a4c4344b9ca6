-- Up Migration

-- Review requests of users and of teams, that go when their reviewer does.
--
-- The space's `comments` (spaces.comments_open_count) and a change request's
-- (change_requests.comments_count) already count what the GitBook spec says:
-- the open comments of their own thread, replies and resolved comments aside.
-- They are kept in the transactions that change comments; they are counted
-- again here once, so that a database written by any earlier version starts
-- exact.
UPDATE spaces s SET comments_open_count = n.open, comments_total_count = n.total
FROM (
  SELECT s2.id, count(c.id) FILTER (WHERE c.status = 'open') AS open, count(c.id) AS total
  FROM spaces s2 LEFT JOIN comments c ON c.space_id = s2.id AND c.thread_key = ''
  GROUP BY s2.id
) n
WHERE n.id = s.id AND (s.comments_open_count <> n.open OR s.comments_total_count <> n.total);
UPDATE change_requests cr SET comments_count = n.open, comments_total_count = n.total
FROM (
  SELECT cr2.id, count(c.id) FILTER (WHERE c.status = 'open') AS open, count(c.id) AS total
  FROM change_requests cr2 LEFT JOIN comments c ON c.change_request_id = cr2.id
  GROUP BY cr2.id
) n
WHERE n.id = cr.id AND (cr.comments_count <> n.open OR cr.comments_total_count <> n.total);

-- A reviewer asked before this migration who has left the organization, or
-- whose membership is disabled, is asked no more.
DELETE FROM change_request_reviewers r
WHERE NOT EXISTS (
  SELECT 1 FROM organization_members m
  WHERE m.organization_id = r.organization_id AND m.user_id = r.user_id AND NOT m.disabled
);

-- A request names a user or a team (exactly one); `reviewer_id` is whichever
-- it is, so that one key, one list order and one removal path serve both.
-- User and team ids are both 20 random characters, so they do not collide.
ALTER TABLE change_request_reviewers DROP CONSTRAINT change_request_reviewers_pkey;
DROP INDEX change_request_reviewers_list_idx;
ALTER TABLE change_request_reviewers ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE change_request_reviewers ADD COLUMN team_id text;
ALTER TABLE change_request_reviewers
  ADD COLUMN reviewer_id text GENERATED ALWAYS AS (coalesce(user_id, team_id)) STORED NOT NULL;
ALTER TABLE change_request_reviewers
  ADD CONSTRAINT change_request_reviewers_pkey PRIMARY KEY (change_request_id, reviewer_id),
  ADD CONSTRAINT change_request_reviewers_one_reviewer CHECK (num_nonnulls(user_id, team_id) = 1),
  -- Leaving the organization, or a team's deletion, takes its requests along.
  -- Deferred checks: a transfer carries the rows to the new organization
  -- (ON UPDATE CASCADE from spaces), where the trigger below drops those
  -- whose reviewer is not in it before the checks run at commit. The
  -- cascades themselves are never deferred.
  ADD CONSTRAINT change_request_reviewers_member_fkey
    FOREIGN KEY (organization_id, user_id) REFERENCES organization_members (organization_id, user_id)
    ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  ADD CONSTRAINT change_request_reviewers_team_fkey
    FOREIGN KEY (organization_id, team_id) REFERENCES teams (organization_id, id)
    ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;
-- The list, oldest first, keyset on (created_at, reviewer_id).
CREATE INDEX change_request_reviewers_list_idx ON change_request_reviewers (change_request_id, created_at, reviewer_id);
-- The cascades of leaving the organization and of deleting a team.
CREATE INDEX change_request_reviewers_member_idx ON change_request_reviewers (organization_id, user_id)
  WHERE user_id IS NOT NULL;
CREATE INDEX change_request_reviewers_team_idx ON change_request_reviewers (organization_id, team_id)
  WHERE team_id IS NOT NULL;

-- A transfer moves a change request to another organization: a team of the
-- old one cannot review there, nor can a user who is not an active member.
CREATE FUNCTION change_request_reviewers_follow_organization() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.team_id IS NOT NULL OR NOT EXISTS (
    SELECT 1 FROM organization_members m
    WHERE m.organization_id = NEW.organization_id AND m.user_id = NEW.user_id AND NOT m.disabled
  ) THEN
    DELETE FROM change_request_reviewers
    WHERE change_request_id = NEW.change_request_id AND reviewer_id = NEW.reviewer_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER change_request_reviewers_on_transfer
  AFTER UPDATE OF organization_id ON change_request_reviewers
  FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION change_request_reviewers_follow_organization();

-- A disabled membership reaches no content: its review requests go, as on leaving.
CREATE FUNCTION organization_members_drop_review_requests() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM change_request_reviewers
  WHERE organization_id = NEW.organization_id AND user_id = NEW.user_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER organization_members_disabled_drop_review_requests
  AFTER UPDATE OF disabled ON organization_members
  FOR EACH ROW
  WHEN (NEW.disabled AND NOT OLD.disabled)
  EXECUTE FUNCTION organization_members_drop_review_requests();

-- Down Migration

DROP TRIGGER organization_members_disabled_drop_review_requests ON organization_members;
DROP FUNCTION organization_members_drop_review_requests();
DROP TRIGGER change_request_reviewers_on_transfer ON change_request_reviewers;
DROP FUNCTION change_request_reviewers_follow_organization();
DELETE FROM change_request_reviewers WHERE team_id IS NOT NULL;
DROP INDEX change_request_reviewers_team_idx;
DROP INDEX change_request_reviewers_member_idx;
DROP INDEX change_request_reviewers_list_idx;
ALTER TABLE change_request_reviewers
  DROP CONSTRAINT change_request_reviewers_team_fkey,
  DROP CONSTRAINT change_request_reviewers_member_fkey,
  DROP CONSTRAINT change_request_reviewers_one_reviewer,
  DROP CONSTRAINT change_request_reviewers_pkey;
ALTER TABLE change_request_reviewers DROP COLUMN reviewer_id;
ALTER TABLE change_request_reviewers DROP COLUMN team_id;
ALTER TABLE change_request_reviewers ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE change_request_reviewers ADD CONSTRAINT change_request_reviewers_pkey PRIMARY KEY (change_request_id, user_id);
CREATE INDEX change_request_reviewers_list_idx ON change_request_reviewers (change_request_id, created_at, user_id);
