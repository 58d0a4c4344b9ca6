-- Up Migration
-- The count of the integrations list: public ones, then the others of the caller's organizations, from the index alone.
CREATE INDEX integrations_visibility_owner_idx ON integrations (visibility, organization_id);

-- Down Migration
DROP INDEX integrations_visibility_owner_idx;
