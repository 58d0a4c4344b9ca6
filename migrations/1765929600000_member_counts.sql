-- Up Migration

-- How many members an organization has, so that the `count` of its members
-- list costs no counting: counting 50,000 memberships took some 5 ms of every
-- page. Statement-level triggers keep it right on every path that adds or
-- removes a membership: the API, invites, SSO, and the cascades of a user or
-- an organization deleted. One statement may touch several organizations (a
-- user deleted leaves all of theirs); their rows are then locked in id order,
-- so that two such statements cannot wait on each other.
ALTER TABLE organizations ADD COLUMN members_count integer NOT NULL DEFAULT 0;

CREATE FUNCTION organization_members_keep_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  -- Per organization: memberships added (positive) or removed (negative).
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_object_agg(organization_id, n) INTO changes
      FROM (SELECT organization_id, count(*) AS n FROM added_members GROUP BY organization_id) c;
  ELSE
    SELECT jsonb_object_agg(organization_id, -n) INTO changes
      FROM (SELECT organization_id, count(*) AS n FROM removed_members GROUP BY organization_id) c;
  END IF;
  IF changes IS NOT NULL THEN
    PERFORM 1 FROM organizations o
      WHERE o.id IN (SELECT key FROM jsonb_each(changes))
      ORDER BY o.id
      FOR NO KEY UPDATE;
    UPDATE organizations o SET members_count = o.members_count + (c.value)::int
      FROM jsonb_each(changes) c
      WHERE o.id = c.key;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER organization_members_count_on_insert
  AFTER INSERT ON organization_members
  REFERENCING NEW TABLE AS added_members
  FOR EACH STATEMENT EXECUTE FUNCTION organization_members_keep_count();
CREATE TRIGGER organization_members_count_on_delete
  AFTER DELETE ON organization_members
  REFERENCING OLD TABLE AS removed_members
  FOR EACH STATEMENT EXECUTE FUNCTION organization_members_keep_count();
-- A membership never moves to another organization (no route does it, and the
-- count would not follow): a statement that tries is refused.
CREATE FUNCTION organization_members_refuse_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a membership cannot move to another organization' USING ERRCODE = 'check_violation';
END;
$$;
CREATE TRIGGER organization_members_stay
  BEFORE UPDATE OF organization_id ON organization_members
  FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION organization_members_refuse_move();

-- The count of the memberships there are now.
UPDATE organizations SET members_count =
  (SELECT count(*) FROM organization_members m WHERE m.organization_id = organizations.id);

-- Down Migration

DROP TRIGGER organization_members_stay ON organization_members;
DROP FUNCTION organization_members_refuse_move();
DROP TRIGGER organization_members_count_on_delete ON organization_members;
DROP TRIGGER organization_members_count_on_insert ON organization_members;
DROP FUNCTION organization_members_keep_count();
ALTER TABLE organizations DROP COLUMN members_count;
