-- Up Migration

-- A custom hostname a site is read at (docs.example.com), besides its
-- address under PUBLIC_URL: one site per hostname, whatever its case.
ALTER TABLE sites ADD COLUMN hostname text;
CREATE UNIQUE INDEX sites_hostname_key ON sites (lower(hostname)) WHERE hostname IS NOT NULL;

-- Down Migration

DROP INDEX sites_hostname_key;
ALTER TABLE sites DROP COLUMN hostname;
