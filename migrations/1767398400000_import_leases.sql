-- Up Migration

-- An import running now, on any instance: at most IMPORT_MAX_RUNNING_PER_ORGANIZATION
-- per organization and IMPORT_MAX_RUNNING in all. A row is taken in a short
-- transaction before the import starts and deleted when it ends; a row whose
-- instance died before deleting it stops counting at expires_at. No connection
-- or lock is held while the import runs.
CREATE TABLE import_leases (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  user_id text NOT NULL,
  started_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CONSTRAINT import_leases_pkey PRIMARY KEY (id),
  CONSTRAINT import_leases_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT import_leases_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX import_leases_organization_expires_idx ON import_leases (organization_id, expires_at);
CREATE INDEX import_leases_expires_idx ON import_leases (expires_at);
CREATE INDEX import_leases_space_idx ON import_leases (organization_id, space_id);
CREATE INDEX import_leases_user_idx ON import_leases (user_id);

-- Down Migration

DROP TABLE import_leases;
