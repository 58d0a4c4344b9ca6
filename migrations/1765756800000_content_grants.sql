-- Up Migration

-- Roles given one by one on a space or a collection, to a member (guests
-- included) or to a team of the organization. A grant on a collection reaches
-- everything inside it. The effective role is the strongest of what reaches.
CREATE TABLE content_grants (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text,
  collection_id text,
  user_id text,
  team_id text,
  role text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT content_grants_pkey PRIMARY KEY (id),
  CONSTRAINT content_grants_one_target CHECK (num_nonnulls(space_id, collection_id) = 1),
  CONSTRAINT content_grants_one_grantee CHECK (num_nonnulls(user_id, team_id) = 1),
  CONSTRAINT content_grants_role_enum CHECK (role IN ('admin', 'create', 'edit', 'review', 'comment', 'read')),
  -- The target and the grantee are of one organization, enforced by the keys:
  -- a transfer carries the target's grants along (ON UPDATE CASCADE), and
  -- fails unless the grants of teams and of people outside the new
  -- organization were dropped first. Leaving the organization, or deleting a
  -- team, removes its grants.
  CONSTRAINT content_grants_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id)
    ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT content_grants_collection_fkey
    FOREIGN KEY (organization_id, collection_id) REFERENCES collections (organization_id, id)
    ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT content_grants_member_fkey
    FOREIGN KEY (organization_id, user_id) REFERENCES organization_members (organization_id, user_id)
    ON DELETE CASCADE,
  CONSTRAINT content_grants_team_fkey
    FOREIGN KEY (organization_id, team_id) REFERENCES teams (organization_id, id)
    ON DELETE CASCADE
);
-- One grant per target and grantee.
CREATE UNIQUE INDEX content_grants_space_user_key ON content_grants (space_id, user_id)
  WHERE space_id IS NOT NULL AND user_id IS NOT NULL;
CREATE UNIQUE INDEX content_grants_space_team_key ON content_grants (space_id, team_id)
  WHERE space_id IS NOT NULL AND team_id IS NOT NULL;
CREATE UNIQUE INDEX content_grants_collection_user_key ON content_grants (collection_id, user_id)
  WHERE collection_id IS NOT NULL AND user_id IS NOT NULL;
CREATE UNIQUE INDEX content_grants_collection_team_key ON content_grants (collection_id, team_id)
  WHERE collection_id IS NOT NULL AND team_id IS NOT NULL;
-- The grants of a space or collection, in the order they were made (the lists).
CREATE INDEX content_grants_space_created_idx ON content_grants (space_id, created_at, id) WHERE space_id IS NOT NULL;
CREATE INDEX content_grants_collection_created_idx ON content_grants (collection_id, created_at, id)
  WHERE collection_id IS NOT NULL;
-- What reaches a user (theirs and their teams'), and the cascades of leaving and team deletion.
CREATE INDEX content_grants_user_idx ON content_grants (organization_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX content_grants_team_idx ON content_grants (organization_id, team_id) WHERE team_id IS NOT NULL;

-- Down Migration

DROP TABLE content_grants;
