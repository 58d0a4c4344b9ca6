-- Up Migration

-- A space's pages are kept as answers under its organization's clock
-- (src/cache-versions.ts, spaceContent). A computed page shows its OpenAPI
-- spec's newest version, so a spec's row, whose last_version_id moves when a
-- new version is processed, ticks its organization's clock too.
CREATE TRIGGER organization_ticks_on_insert AFTER INSERT ON openapi_specs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows();
CREATE TRIGGER organization_ticks_on_update AFTER UPDATE ON openapi_specs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows();
CREATE TRIGGER organization_ticks_on_delete AFTER DELETE ON openapi_specs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION organization_ticks_on_rows();

-- Down Migration

DROP TRIGGER organization_ticks_on_insert ON openapi_specs;
DROP TRIGGER organization_ticks_on_update ON openapi_specs;
DROP TRIGGER organization_ticks_on_delete ON openapi_specs;
