-- Up Migration

-- The integrations list shows each integration's owner organization, whole:
-- a change to an organization that owns integrations ticks the catalog's
-- clock, so that the list may read its owners unrecorded after the clock.
-- Every column counts but the kept counters and the time of the change,
-- which an organization does not show; a column added later counts too.
CREATE FUNCTION integration_catalog_clock_on_owners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_organizations o JOIN new_organizations n ON n.id = o.id
    WHERE to_jsonb(o) - '{members_count,live_spaces_count,updated_at}'::text[]
        IS DISTINCT FROM to_jsonb(n) - '{members_count,live_spaces_count,updated_at}'::text[]
      AND EXISTS (SELECT 1 FROM integrations i WHERE i.organization_id = n.id)
  ) THEN
    UPDATE integration_catalog_clock SET version = version + 1;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER integration_catalog_clock_on_owners AFTER UPDATE ON organizations
  REFERENCING OLD TABLE AS old_organizations NEW TABLE AS new_organizations
  FOR EACH STATEMENT EXECUTE FUNCTION integration_catalog_clock_on_owners();

-- Down Migration

DROP TRIGGER integration_catalog_clock_on_owners ON organizations;
DROP FUNCTION integration_catalog_clock_on_owners();
