-- Up Migration

-- Roles given on a site to members (guests included) and teams, beside their
-- organization role: the same grants as on spaces and collections, one more
-- kind of target. The keys keep the site and the grantee in one
-- organization; deleting the site, leaving the organization or deleting the
-- team removes the grant.
ALTER TABLE content_grants ADD COLUMN site_id text;
ALTER TABLE content_grants DROP CONSTRAINT content_grants_one_target;
ALTER TABLE content_grants
  ADD CONSTRAINT content_grants_one_target CHECK (num_nonnulls(space_id, collection_id, site_id) = 1);
ALTER TABLE content_grants
  ADD CONSTRAINT content_grants_site_fkey FOREIGN KEY (organization_id, site_id)
    REFERENCES sites (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE;
-- One grant per site and grantee.
CREATE UNIQUE INDEX content_grants_site_user_key ON content_grants (site_id, user_id)
  WHERE site_id IS NOT NULL AND user_id IS NOT NULL;
CREATE UNIQUE INDEX content_grants_site_team_key ON content_grants (site_id, team_id)
  WHERE site_id IS NOT NULL AND team_id IS NOT NULL;
-- The grants of a site in the order they were made (the lists).
CREATE INDEX content_grants_site_created_idx ON content_grants (site_id, created_at, id) WHERE site_id IS NOT NULL;

-- Down Migration

DELETE FROM content_grants WHERE site_id IS NOT NULL;
DROP INDEX content_grants_site_created_idx;
DROP INDEX content_grants_site_team_key;
DROP INDEX content_grants_site_user_key;
ALTER TABLE content_grants DROP CONSTRAINT content_grants_site_fkey;
ALTER TABLE content_grants DROP CONSTRAINT content_grants_one_target;
ALTER TABLE content_grants ADD CONSTRAINT content_grants_one_target CHECK (num_nonnulls(space_id, collection_id) = 1);
ALTER TABLE content_grants DROP COLUMN site_id;
