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

CREATE FUNCTION integration_catalog_clock_tick() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE integration_catalog_clock SET version = version + 1;
  RETURN NULL;
END;
$$;
CREATE TRIGGER integration_catalog_clock_on_change AFTER INSERT OR UPDATE OR DELETE ON integrations
  FOR EACH STATEMENT EXECUTE FUNCTION integration_catalog_clock_tick();

-- Down Migration

DROP TRIGGER integration_catalog_clock_on_change ON integrations;
DROP FUNCTION integration_catalog_clock_tick();
DROP TABLE integration_catalog_clock;
