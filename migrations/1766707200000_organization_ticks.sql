-- Up Migration

-- An organization's clock: it ticks with every change to what its lists of
-- spaces, collections, members and sites show (the organization itself, its
-- members, teams, spaces, collections, grants and sites). Those lists read it
-- with the caller's membership before their rows, which then run unrecorded,
-- as comment threads do (see comment_thread_clocks).
--
-- Each tick is a row of its own, never an update of one row per
-- organization: writers in one organization then never wait on each other
-- for the clock, nor deadlock over it, however long their transactions. The
-- clock reads the sum of the rows, which grows with every change that commits;
-- folding rows into one keeps the sum, and with it every kept answer.
CREATE TABLE organization_ticks (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  ticks bigint NOT NULL DEFAULT 1 CHECK (ticks > 0)
);
CREATE INDEX organization_ticks_by_organization ON organization_ticks (organization_id) INCLUDE (ticks);

-- Folds the organizations' ticks into one row each. An organization another
-- transaction is folding is left to it (a transaction's advisory lock), so
-- that folds never wait on each other.
CREATE FUNCTION organization_ticks_fold(organization_ids text[]) RETURNS void LANGUAGE sql AS $$
  WITH folding AS (
    SELECT DISTINCT id FROM unnest(organization_ids) AS id
  ), mine AS (
    SELECT id FROM folding WHERE pg_try_advisory_xact_lock(hashtext('organization_ticks'), hashtext(id))
  ), gone AS (
    DELETE FROM organization_ticks t USING mine WHERE t.organization_id = mine.id
    RETURNING t.organization_id, t.ticks
  )
  INSERT INTO organization_ticks (organization_id, ticks)
  SELECT organization_id, sum(ticks) FROM gone GROUP BY organization_id;
$$;

-- Ticks the organizations named, once each; one deleted meanwhile has no
-- clock to tick. About one tick in 32 also folds, so that an organization's
-- clock stays a few dozen rows to sum.
CREATE FUNCTION organization_ticks_tick(organization_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ticked text[];
BEGIN
  WITH added AS (
    INSERT INTO organization_ticks (organization_id)
    SELECT DISTINCT t.id FROM unnest(organization_ids) AS t (id) JOIN organizations o ON o.id = t.id
    RETURNING organization_id
  )
  SELECT array_agg(organization_id) INTO ticked FROM added;
  IF ticked IS NOT NULL AND random() < 1.0 / 32 THEN
    PERFORM organization_ticks_fold(ticked);
  END IF;
END;
$$;

-- For tables with an organization_id; an update ticks the organizations of
-- the rows before and after it (a space moved to another organization ticks both).
CREATE FUNCTION organization_ticks_on_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM organization_ticks_tick(array_agg(organization_id)) FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM organization_ticks_tick(array_agg(organization_id)) FROM old_rows;
  ELSE
    PERFORM organization_ticks_tick(array_agg(organization_id))
      FROM (SELECT organization_id FROM new_rows UNION SELECT organization_id FROM old_rows) c;
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION organization_ticks_on_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM organization_ticks_tick(array_agg(id)) FROM new_rows;
  RETURN NULL;
END;
$$;
CREATE TRIGGER organization_ticks_on_update AFTER UPDATE ON organizations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_organizations();

CREATE PROCEDURE organization_ticks_watch(watched regclass) LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TRIGGER organization_ticks_on_insert AFTER INSERT ON %s
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows()', watched);
  EXECUTE format('CREATE TRIGGER organization_ticks_on_update AFTER UPDATE ON %s
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows()', watched);
  EXECUTE format('CREATE TRIGGER organization_ticks_on_delete AFTER DELETE ON %s
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows()', watched);
END;
$$;

CALL organization_ticks_watch('organization_members');
CALL organization_ticks_watch('teams');
CALL organization_ticks_watch('team_members');
CALL organization_ticks_watch('spaces');
CALL organization_ticks_watch('collections');
CALL organization_ticks_watch('content_grants');
CALL organization_ticks_watch('sites');
CALL organization_ticks_watch('site_spaces');
CALL organization_ticks_watch('site_sections');
CALL organization_ticks_watch('site_section_groups');
DROP PROCEDURE organization_ticks_watch(regclass);

-- Down Migration

DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['organization_members', 'teams', 'team_members', 'spaces', 'collections',
    'content_grants', 'sites', 'site_spaces', 'site_sections', 'site_section_groups'] LOOP
    EXECUTE format('DROP TRIGGER organization_ticks_on_insert ON %I', watched);
    EXECUTE format('DROP TRIGGER organization_ticks_on_update ON %I', watched);
    EXECUTE format('DROP TRIGGER organization_ticks_on_delete ON %I', watched);
  END LOOP;
END;
$$;
DROP TRIGGER organization_ticks_on_update ON organizations;
DROP FUNCTION organization_ticks_on_organizations();
DROP FUNCTION organization_ticks_on_rows();
DROP FUNCTION organization_ticks_tick(text[]);
DROP FUNCTION organization_ticks_fold(text[]);
DROP TABLE organization_ticks;
