-- Up Migration

-- A clock that ticks with every change to any integration: the integrations
-- list reads it, with the caller's organizations, before its page, which then
-- runs unrecorded (see comment_thread_clocks). Checking a kept page of
-- integrations, wide with their manifests, cost PostgreSQL the printing of
-- every row for its digest; now it costs two key lookups. Publishing is rare,
-- so one clock for the whole catalog costs little in pages made again.
CREATE TABLE integration_catalog_clock (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL DEFAULT 1
);
INSERT INTO integration_catalog_clock DEFAULT VALUES;

-- Only when rows changed: a statement that changes none (a cascade from an
-- organization without integrations) still fires the trigger.
CREATE FUNCTION integration_catalog_clock_tick() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_integrations) THEN
    UPDATE integration_catalog_clock SET version = version + 1;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER integration_catalog_clock_on_insert AFTER INSERT ON integrations
  REFERENCING NEW TABLE AS changed_integrations FOR EACH STATEMENT EXECUTE FUNCTION integration_catalog_clock_tick();
CREATE TRIGGER integration_catalog_clock_on_update AFTER UPDATE ON integrations
  REFERENCING NEW TABLE AS changed_integrations FOR EACH STATEMENT EXECUTE FUNCTION integration_catalog_clock_tick();
CREATE TRIGGER integration_catalog_clock_on_delete AFTER DELETE ON integrations
  REFERENCING OLD TABLE AS changed_integrations FOR EACH STATEMENT EXECUTE FUNCTION integration_catalog_clock_tick();

-- Down Migration

DROP TRIGGER integration_catalog_clock_on_delete ON integrations;
DROP TRIGGER integration_catalog_clock_on_update ON integrations;
DROP TRIGGER integration_catalog_clock_on_insert ON integrations;
DROP FUNCTION integration_catalog_clock_tick();
DROP TABLE integration_catalog_clock;
