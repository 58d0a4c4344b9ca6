-- Up Migration

-- A site's count of site spaces leaves out those whose space is deleted, so
-- it depends on a row another transaction may change at the same moment.
-- Each side used to look at the other's state from before it committed: a
-- space deleted while it was added to a site stayed counted (one too many),
-- and one deleted while its site space was removed was taken off twice (one
-- too few). This side now holds the space's row (FOR SHARE) before it looks
-- at its trash state: it waits for a delete or restore under way, and one
-- that comes later waits for it, then counts on a fresh snapshot. Should the
-- two meet in opposite orders, PostgreSQL ends one of them (a deadlock, a
-- 409 to its caller) and nothing is miscounted.
CREATE OR REPLACE FUNCTION site_spaces_keep_site_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM 1 FROM spaces WHERE id = OLD.space_id FOR SHARE;
    UPDATE sites SET site_spaces_count = site_spaces_count - 1
      WHERE id = OLD.site_id AND EXISTS (SELECT 1 FROM spaces WHERE id = OLD.space_id AND deleted_at IS NULL);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM 1 FROM spaces WHERE id = NEW.space_id FOR SHARE;
    UPDATE sites SET site_spaces_count = site_spaces_count + 1
      WHERE id = NEW.site_id AND EXISTS (SELECT 1 FROM spaces WHERE id = NEW.space_id AND deleted_at IS NULL);
  END IF;
  RETURN NULL;
END;
$$;

-- Counted again once, so that a count such a race left wrong starts exact.
UPDATE sites x SET site_spaces_count = n.live
FROM (
  SELECT x2.id, count(s.id) AS live
  FROM sites x2
  LEFT JOIN site_spaces ss ON ss.site_id = x2.id
  LEFT JOIN spaces s ON s.id = ss.space_id AND s.deleted_at IS NULL
  GROUP BY x2.id
) n
WHERE n.id = x.id AND x.site_spaces_count <> n.live;

-- Down Migration

CREATE OR REPLACE FUNCTION site_spaces_keep_site_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE sites SET site_spaces_count = site_spaces_count - 1
      WHERE id = OLD.site_id AND EXISTS (SELECT 1 FROM spaces WHERE id = OLD.space_id AND deleted_at IS NULL);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE sites SET site_spaces_count = site_spaces_count + 1
      WHERE id = NEW.site_id AND EXISTS (SELECT 1 FROM spaces WHERE id = NEW.space_id AND deleted_at IS NULL);
  END IF;
  RETURN NULL;
END;
$$;
