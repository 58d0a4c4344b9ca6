-- Up Migration

CREATE TABLE collections (
  id text NOT NULL,
  organization_id text NOT NULL,
  parent_id text,
  title text NOT NULL,
  description text,
  -- A role, 'inherit', or NULL (no access by default beyond the organization role).
  default_level text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT collections_pkey PRIMARY KEY (id),
  -- Lets a child reference its parent together with the organization, so a
  -- collection can never sit under another organization's collection.
  CONSTRAINT collections_organization_id_id_key UNIQUE (organization_id, id),
  CONSTRAINT collections_organization_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  -- ON UPDATE CASCADE: moving a collection to another organization carries its subtree along.
  CONSTRAINT collections_parent_fkey
    FOREIGN KEY (organization_id, parent_id) REFERENCES collections (organization_id, id)
    ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT collections_not_own_parent CHECK (parent_id <> id),
  CONSTRAINT collections_title_length CHECK (char_length(title) <= 50),
  CONSTRAINT collections_description_length CHECK (char_length(description) <= 100),
  CONSTRAINT collections_default_level_enum
    CHECK (default_level IN ('admin', 'create', 'edit', 'review', 'comment', 'read', 'inherit'))
);
-- Lists of an organization's collections, all or top-level only, newest first.
CREATE INDEX collections_organization_created_idx ON collections (organization_id, created_at, id);
CREATE INDEX collections_organization_top_level_idx ON collections (organization_id, created_at, id) WHERE parent_id IS NULL;
-- Children of a collection, and the walk up from a child to its ancestors' ids.
CREATE INDEX collections_parent_idx ON collections (parent_id, created_at, id);

-- Down Migration

DROP TABLE collections;
