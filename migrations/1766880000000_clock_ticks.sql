-- Up Migration

-- The comment thread, change request and roster clocks become tick rows, as
-- organization_ticks is: each tick inserts a row and a clock is the sum of
-- its rows, folded now and then. As rows updated in place, a clock stayed
-- locked by its writer until it committed, and the soak found the deadlock
-- that made: a comment posted (its foreign key share-locks the space, then
-- its trigger ticks the thread) waited for one deleted in the same thread
-- (which had ticked the thread and waited to update the space's counters,
-- behind a change request queued to lock the space, itself waiting for the
-- first). Inserts lock nothing another writer waits for.

CREATE TABLE comment_thread_ticks (
  space_id text NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
  thread_key text NOT NULL,
  ticks bigint NOT NULL DEFAULT 1 CHECK (ticks > 0)
);
CREATE INDEX comment_thread_ticks_by_thread ON comment_thread_ticks (space_id, thread_key) INCLUDE (ticks);
INSERT INTO comment_thread_ticks (space_id, thread_key, ticks)
  SELECT space_id, thread_key, version FROM comment_thread_clocks;

CREATE TABLE change_request_ticks (
  space_id text NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
  ticks bigint NOT NULL DEFAULT 1 CHECK (ticks > 0)
);
CREATE INDEX change_request_ticks_by_space ON change_request_ticks (space_id) INCLUDE (ticks);
INSERT INTO change_request_ticks (space_id, ticks) SELECT space_id, version FROM change_request_clocks;

CREATE TABLE organization_roster_ticks (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  ticks bigint NOT NULL DEFAULT 1 CHECK (ticks > 0)
);
CREATE INDEX organization_roster_ticks_by_organization ON organization_roster_ticks (organization_id) INCLUDE (ticks);
INSERT INTO organization_roster_ticks (organization_id, ticks)
  SELECT organization_id, version FROM organization_roster_clocks;

-- Folds, as organization_ticks_fold: one row per clock, the same sum; a key
-- another transaction is folding is left to it.
CREATE FUNCTION comment_thread_ticks_fold(space_ids text[]) RETURNS void LANGUAGE sql AS $$
  WITH folding AS (
    SELECT DISTINCT id FROM unnest(space_ids) AS id
  ), mine AS (
    SELECT id FROM folding WHERE pg_try_advisory_xact_lock(hashtext('comment_thread_ticks'), hashtext(id))
  ), gone AS (
    DELETE FROM comment_thread_ticks t USING mine WHERE t.space_id = mine.id
    RETURNING t.space_id, t.thread_key, t.ticks
  )
  INSERT INTO comment_thread_ticks (space_id, thread_key, ticks)
  SELECT space_id, thread_key, sum(ticks) FROM gone GROUP BY space_id, thread_key;
$$;

CREATE FUNCTION change_request_ticks_fold(space_ids text[]) RETURNS void LANGUAGE sql AS $$
  WITH folding AS (
    SELECT DISTINCT id FROM unnest(space_ids) AS id
  ), mine AS (
    SELECT id FROM folding WHERE pg_try_advisory_xact_lock(hashtext('change_request_ticks'), hashtext(id))
  ), gone AS (
    DELETE FROM change_request_ticks t USING mine WHERE t.space_id = mine.id RETURNING t.space_id, t.ticks
  )
  INSERT INTO change_request_ticks (space_id, ticks) SELECT space_id, sum(ticks) FROM gone GROUP BY space_id;
$$;

CREATE FUNCTION organization_roster_ticks_fold(organization_ids text[]) RETURNS void LANGUAGE sql AS $$
  WITH folding AS (
    SELECT DISTINCT id FROM unnest(organization_ids) AS id
  ), mine AS (
    SELECT id FROM folding WHERE pg_try_advisory_xact_lock(hashtext('organization_roster_ticks'), hashtext(id))
  ), gone AS (
    DELETE FROM organization_roster_ticks t USING mine WHERE t.organization_id = mine.id
    RETURNING t.organization_id, t.ticks
  )
  INSERT INTO organization_roster_ticks (organization_id, ticks)
  SELECT organization_id, sum(ticks) FROM gone GROUP BY organization_id;
$$;

-- The same triggers call these, now inserting ticks; about one in 32 folds.
-- A space or organization deleted meanwhile still gets no tick.
DROP FUNCTION comment_thread_clocks_tick(text[], text[]);
CREATE FUNCTION comment_thread_clocks_tick(space_ids text[], thread_keys text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ticked text[];
BEGIN
  WITH added AS (
    INSERT INTO comment_thread_ticks (space_id, thread_key)
    SELECT DISTINCT t.space_id, t.thread_key FROM unnest(space_ids, thread_keys) AS t (space_id, thread_key)
      JOIN spaces s ON s.id = t.space_id
    RETURNING space_id
  )
  SELECT array_agg(space_id) INTO ticked FROM added;
  IF ticked IS NOT NULL AND random() < 1.0 / 32 THEN
    PERFORM comment_thread_ticks_fold(ticked);
  END IF;
END;
$$;

CREATE OR REPLACE FUNCTION change_request_clocks_tick() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ticked text[];
BEGIN
  WITH added AS (
    INSERT INTO change_request_ticks (space_id)
    SELECT DISTINCT c.space_id FROM changed_requests c JOIN spaces s ON s.id = c.space_id
    RETURNING space_id
  )
  SELECT array_agg(space_id) INTO ticked FROM added;
  IF ticked IS NOT NULL AND random() < 1.0 / 32 THEN
    PERFORM change_request_ticks_fold(ticked);
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION organization_roster_clocks_on_members() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ticked text[];
BEGIN
  WITH added AS (
    INSERT INTO organization_roster_ticks (organization_id)
    SELECT DISTINCT m.organization_id FROM changed_members m JOIN organizations o ON o.id = m.organization_id
    RETURNING organization_id
  )
  SELECT array_agg(organization_id) INTO ticked FROM added;
  IF ticked IS NOT NULL AND random() < 1.0 / 32 THEN
    PERFORM organization_roster_ticks_fold(ticked);
  END IF;
  RETURN NULL;
END;
$$;

DROP TABLE comment_thread_clocks;
DROP TABLE change_request_clocks;
DROP TABLE organization_roster_clocks;

-- Down Migration

CREATE TABLE comment_thread_clocks (
  space_id text NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
  thread_key text NOT NULL,
  version bigint NOT NULL DEFAULT 1,
  PRIMARY KEY (space_id, thread_key)
);
INSERT INTO comment_thread_clocks (space_id, thread_key, version)
  SELECT space_id, thread_key, sum(ticks) FROM comment_thread_ticks GROUP BY space_id, thread_key;
CREATE TABLE change_request_clocks (
  space_id text PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT 1
);
INSERT INTO change_request_clocks (space_id, version) SELECT space_id, sum(ticks) FROM change_request_ticks GROUP BY space_id;
CREATE TABLE organization_roster_clocks (
  organization_id text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT 1
);
INSERT INTO organization_roster_clocks (organization_id, version)
  SELECT organization_id, sum(ticks) FROM organization_roster_ticks GROUP BY organization_id;

DROP FUNCTION comment_thread_clocks_tick(text[], text[]);
CREATE FUNCTION comment_thread_clocks_tick(space_ids text[], thread_keys text[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO comment_thread_clocks AS k (space_id, thread_key)
  SELECT DISTINCT t.space_id, t.thread_key FROM unnest(space_ids, thread_keys) AS t (space_id, thread_key)
    JOIN spaces s ON s.id = t.space_id
    ORDER BY t.space_id, t.thread_key
  ON CONFLICT (space_id, thread_key) DO UPDATE SET version = k.version + 1;
$$;
CREATE OR REPLACE FUNCTION change_request_clocks_tick() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO change_request_clocks AS k (space_id)
  SELECT DISTINCT c.space_id FROM changed_requests c
    JOIN spaces s ON s.id = c.space_id
    ORDER BY c.space_id
  ON CONFLICT (space_id) DO UPDATE SET version = k.version + 1;
  RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION organization_roster_clocks_on_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_roster_clocks AS k (organization_id)
  SELECT DISTINCT m.organization_id FROM changed_members m
    JOIN organizations o ON o.id = m.organization_id
    ORDER BY m.organization_id
  ON CONFLICT (organization_id) DO UPDATE SET version = k.version + 1;
  RETURN NULL;
END;
$$;
DROP FUNCTION organization_roster_ticks_fold(text[]);
DROP FUNCTION change_request_ticks_fold(text[]);
DROP FUNCTION comment_thread_ticks_fold(text[]);
DROP TABLE organization_roster_ticks;
DROP TABLE change_request_ticks;
DROP TABLE comment_thread_ticks;
