-- Up Migration

-- A published address never changes owner: a basename a site gave up (changed,
-- or the site deleted) stays its organization's, so that no other
-- organization can serve its pages at a URL that people, links and search
-- engines trust. The organization may take it again for any of its sites.
-- `site_id` is the site that last went by it, while that site exists: the
-- old address sends its readers there.
CREATE TABLE retired_site_addresses (
  organization_id text NOT NULL,
  -- In lower case: basenames are one name whatever their case.
  basename text NOT NULL,
  site_id text,
  retired_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT retired_site_addresses_pkey PRIMARY KEY (basename),
  CONSTRAINT retired_site_addresses_lower_check CHECK (basename = lower(basename)),
  CONSTRAINT retired_site_addresses_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT retired_site_addresses_site_fkey FOREIGN KEY (site_id)
    REFERENCES sites (id) ON DELETE SET NULL
);
CREATE INDEX retired_site_addresses_organization_idx ON retired_site_addresses (organization_id);
CREATE INDEX retired_site_addresses_site_idx ON retired_site_addresses (site_id) WHERE site_id IS NOT NULL;

-- An integration's name is its address across the service (/v1/integrations/{name},
-- its images' URLs, what other organizations install it by): once unpublished,
-- it stays its organization's, as a site's basename does.
CREATE TABLE retired_integration_names (
  organization_id text NOT NULL,
  name text NOT NULL,
  retired_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT retired_integration_names_pkey PRIMARY KEY (name),
  CONSTRAINT retired_integration_names_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE
);
CREATE INDEX retired_integration_names_organization_idx ON retired_integration_names (organization_id);

-- Names and ids are kept apart: a basename may no longer look like an id (20
-- characters of [A-Za-z0-9]), since /s/{name} then named two sites. A site
-- that went by such a name loses it: /s/{its id} still reads it, and the old
-- name is kept as its retired address, so links to it still lead there unless
-- the name is another site's id, which from now on always names that site.
INSERT INTO retired_site_addresses (organization_id, basename, site_id)
SELECT organization_id, lower(basename), id FROM sites WHERE basename ~ '^[A-Za-z0-9]{20}$';
UPDATE sites SET basename = NULL WHERE basename ~ '^[A-Za-z0-9]{20}$';

-- Down Migration

DROP TABLE retired_integration_names;
DROP TABLE retired_site_addresses;
