-- Up Migration

-- Every clock a kept answer's version reads now also says that it moved, on
-- the channel quire_clocks, with the organization it belongs to as the
-- payload ('*' when it belongs to none, or to every one). An instance that
-- listens keeps each version it read until its organization's clock moves,
-- rather than reading it again for every request (src/db/clock-feed.ts).
--
-- A notification is sent when its transaction commits, and one payload once
-- per transaction however many rows ticked: a write costs one message per
-- organization it touched. Deleting ticks says so too: a deleted
-- organization's clock goes with its rows, and no insert would tell.

CREATE FUNCTION clock_notify_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('quire_clocks', o.id) FROM (SELECT DISTINCT organization_id AS id FROM changed_rows) o;
  ELSE
    PERFORM pg_notify('quire_clocks', o.id) FROM (SELECT DISTINCT organization_id AS id FROM gone_rows) o;
  END IF;
  RETURN NULL;
END;
$$;

-- Ticks kept by space: the space's organization, or every one when the space
-- is gone already (its ticks deleted with it).
CREATE FUNCTION clock_notify_spaces() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('quire_clocks', o.id) FROM (
      SELECT DISTINCT coalesce(s.organization_id, '*') AS id
      FROM changed_rows c LEFT JOIN spaces s ON s.id = c.space_id) o;
  ELSE
    PERFORM pg_notify('quire_clocks', o.id) FROM (
      SELECT DISTINCT coalesce(s.organization_id, '*') AS id
      FROM gone_rows c LEFT JOIN spaces s ON s.id = c.space_id) o;
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION clock_notify_everyone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('quire_clocks', '*');
  RETURN NULL;
END;
$$;

CREATE TRIGGER clock_notify_on_insert AFTER INSERT ON organization_ticks
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_organizations();
CREATE TRIGGER clock_notify_on_delete AFTER DELETE ON organization_ticks
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_organizations();

CREATE TRIGGER clock_notify_on_insert AFTER INSERT ON change_request_ticks
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_spaces();
CREATE TRIGGER clock_notify_on_delete AFTER DELETE ON change_request_ticks
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_spaces();

CREATE TRIGGER clock_notify_on_insert AFTER INSERT ON comment_thread_ticks
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_spaces();
CREATE TRIGGER clock_notify_on_delete AFTER DELETE ON comment_thread_ticks
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_spaces();

CREATE TRIGGER clock_notify_on_update AFTER UPDATE ON user_profile_clock
  FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_everyone();
CREATE TRIGGER clock_notify_on_update AFTER UPDATE ON integration_catalog_clock
  FOR EACH STATEMENT EXECUTE FUNCTION clock_notify_everyone();

-- Down Migration

DROP TRIGGER clock_notify_on_update ON integration_catalog_clock;
DROP TRIGGER clock_notify_on_update ON user_profile_clock;
DROP TRIGGER clock_notify_on_delete ON comment_thread_ticks;
DROP TRIGGER clock_notify_on_insert ON comment_thread_ticks;
DROP TRIGGER clock_notify_on_delete ON change_request_ticks;
DROP TRIGGER clock_notify_on_insert ON change_request_ticks;
DROP TRIGGER clock_notify_on_delete ON organization_ticks;
DROP TRIGGER clock_notify_on_insert ON organization_ticks;
DROP FUNCTION clock_notify_everyone();
DROP FUNCTION clock_notify_spaces();
DROP FUNCTION clock_notify_organizations();
