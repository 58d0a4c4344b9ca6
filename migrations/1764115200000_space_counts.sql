-- Up Migration

-- How many spaces that are not deleted an organization and a collection hold,
-- so that a list's `count` costs no counting. A trigger on spaces keeps them
-- right on every path that changes a space: the API, foreign-key cascades
-- (a collection deleted or transferred) and the purge.
ALTER TABLE organizations ADD COLUMN live_spaces_count integer NOT NULL DEFAULT 0;
ALTER TABLE collections ADD COLUMN live_spaces_count integer NOT NULL DEFAULT 0;

CREATE FUNCTION spaces_keep_live_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
    UPDATE organizations SET live_spaces_count = live_spaces_count - 1 WHERE id = OLD.organization_id;
    IF OLD.parent_id IS NOT NULL THEN
      UPDATE collections SET live_spaces_count = live_spaces_count - 1 WHERE id = OLD.parent_id;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
    UPDATE organizations SET live_spaces_count = live_spaces_count + 1 WHERE id = NEW.organization_id;
    IF NEW.parent_id IS NOT NULL THEN
      UPDATE collections SET live_spaces_count = live_spaces_count + 1 WHERE id = NEW.parent_id;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER spaces_live_counts_on_insert_delete
  AFTER INSERT OR DELETE ON spaces
  FOR EACH ROW EXECUTE FUNCTION spaces_keep_live_counts();
-- Only the columns that decide where a live space counts.
CREATE TRIGGER spaces_live_counts_on_update
  AFTER UPDATE OF organization_id, parent_id, deleted_at ON spaces
  FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id
     OR OLD.parent_id IS DISTINCT FROM NEW.parent_id
     OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION spaces_keep_live_counts();

UPDATE organizations SET live_spaces_count =
  (SELECT count(*) FROM spaces WHERE spaces.organization_id = organizations.id AND deleted_at IS NULL);
UPDATE collections SET live_spaces_count =
  (SELECT count(*) FROM spaces WHERE spaces.parent_id = collections.id AND deleted_at IS NULL);

-- Down Migration

DROP TRIGGER spaces_live_counts_on_update ON spaces;
DROP TRIGGER spaces_live_counts_on_insert_delete ON spaces;
DROP FUNCTION spaces_keep_live_counts();
ALTER TABLE collections DROP COLUMN live_spaces_count;
ALTER TABLE organizations DROP COLUMN live_spaces_count;
