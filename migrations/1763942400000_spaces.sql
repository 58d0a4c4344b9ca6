-- Up Migration

CREATE TABLE spaces (
  id text NOT NULL,
  organization_id text NOT NULL,
  parent_id text,
  title text NOT NULL,
  emoji text,
  visibility text NOT NULL DEFAULT 'private',
  edit_mode text NOT NULL DEFAULT 'live',
  -- A role, 'inherit', or NULL (nothing beyond the organization role).
  default_level text DEFAULT 'inherit',
  -- The secret of share-link visibility; every space has one, in force only under that visibility.
  share_key text NOT NULL,
  -- The active revision. Content storage comes later; the id is the space's first, empty revision.
  revision_id text NOT NULL,
  -- Counters kept by the domains that own comments and change requests, in the
  -- transactions that change them, so that reading a space costs no counting.
  comments_open_count integer NOT NULL DEFAULT 0,
  change_requests_count integer NOT NULL DEFAULT 0,
  change_requests_open_count integer NOT NULL DEFAULT 0,
  change_requests_draft_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  deleted_at timestamptz,
  CONSTRAINT spaces_pkey PRIMARY KEY (id),
  CONSTRAINT spaces_organization_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  -- Same organization as its collection; moving a collection to another
  -- organization carries its spaces. A deleted collection only detaches its
  -- spaces (PostgreSQL 15's column list): what becomes of them is the API's call.
  CONSTRAINT spaces_parent_fkey
    FOREIGN KEY (organization_id, parent_id) REFERENCES collections (organization_id, id)
    ON DELETE SET NULL (parent_id) ON UPDATE CASCADE,
  CONSTRAINT spaces_title_length CHECK (char_length(title) <= 50),
  CONSTRAINT spaces_emoji_length CHECK (char_length(emoji) <= 50),
  CONSTRAINT spaces_visibility_enum
    CHECK (visibility IN ('public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private')),
  CONSTRAINT spaces_in_collection_needs_parent CHECK (visibility <> 'in-collection' OR parent_id IS NOT NULL),
  CONSTRAINT spaces_edit_mode_enum CHECK (edit_mode IN ('live', 'locked')),
  CONSTRAINT spaces_default_level_enum
    CHECK (default_level IN ('admin', 'create', 'edit', 'review', 'comment', 'read', 'inherit')),
  CONSTRAINT spaces_counters_not_negative CHECK (
    comments_open_count >= 0 AND change_requests_count >= 0
    AND change_requests_open_count >= 0 AND change_requests_draft_count >= 0
  )
);
-- Live spaces of an organization and of a collection, newest first.
CREATE INDEX spaces_organization_live_idx ON spaces (organization_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX spaces_parent_live_idx ON spaces (parent_id, created_at, id) WHERE deleted_at IS NULL;
-- The purge finds spaces deleted long enough ago.
CREATE INDEX spaces_deleted_at_idx ON spaces (deleted_at) WHERE deleted_at IS NOT NULL;

-- Down Migration

DROP TABLE spaces;
