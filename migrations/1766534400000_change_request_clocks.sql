-- Up Migration

-- A clock per space that ticks with every change to its change requests: the
-- lists of change requests and a change request read it (with the roster and
-- profile clocks, and the caller's access, which carries the space's head
-- revision) before their rows, which then run unrecorded, as comment threads
-- do (see comment_thread_clocks).
CREATE TABLE change_request_clocks (
  space_id text PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT 1
);

-- Ticks the spaces of the changed rows, once each and in key order; a space
-- deleted meanwhile has no clock to tick.
CREATE FUNCTION change_request_clocks_tick() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO change_request_clocks AS k (space_id)
  SELECT DISTINCT c.space_id FROM changed_requests c
    JOIN spaces s ON s.id = c.space_id
    ORDER BY c.space_id
  ON CONFLICT (space_id) DO UPDATE SET version = k.version + 1;
  RETURN NULL;
END;
$$;
CREATE TRIGGER change_request_clocks_on_insert AFTER INSERT ON change_requests
  REFERENCING NEW TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();
CREATE TRIGGER change_request_clocks_on_update AFTER UPDATE ON change_requests
  REFERENCING NEW TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();
CREATE TRIGGER change_request_clocks_on_delete AFTER DELETE ON change_requests
  REFERENCING OLD TABLE AS changed_requests FOR EACH STATEMENT EXECUTE FUNCTION change_request_clocks_tick();

-- Down Migration

DROP TRIGGER change_request_clocks_on_delete ON change_requests;
DROP TRIGGER change_request_clocks_on_update ON change_requests;
DROP TRIGGER change_request_clocks_on_insert ON change_requests;
DROP FUNCTION change_request_clocks_tick();
DROP TABLE change_request_clocks;
