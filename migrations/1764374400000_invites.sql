-- Up Migration

-- Link invites: whoever holds the id (a 20-character random secret) may join
-- the organization with the invite's role, while the organization allows invite links.
CREATE TABLE organization_invites (
  id text NOT NULL,
  organization_id text NOT NULL,
  role text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT organization_invites_pkey PRIMARY KEY (id),
  CONSTRAINT organization_invites_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT organization_invites_created_by_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT organization_invites_role_enum CHECK (role IN ('admin', 'create', 'edit', 'review', 'comment', 'read'))
);
CREATE INDEX organization_invites_organization_created_idx ON organization_invites (organization_id, created_at, id);

-- Down Migration

DROP TABLE organization_invites;
