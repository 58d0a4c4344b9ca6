-- Up Migration

-- Case-insensitive substring search of members by name and e-mail, through
-- one trigram index on both (a newline between them, so that no search spans
-- the two): the planner prices one index scan well, but not two OR-ed ones.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX users_search_trgm_idx ON users USING gin ((display_name || E'\n' || email) gin_trgm_ops);

-- Member lists: by join time or last-seen time, in either order, optionally by role.
CREATE INDEX organization_members_joined_idx ON organization_members (organization_id, joined_at, user_id);
CREATE INDEX organization_members_seen_idx ON organization_members (organization_id, last_seen_at, user_id)
  WHERE last_seen_at IS NOT NULL;
CREATE INDEX organization_members_role_idx ON organization_members (organization_id, role, joined_at, user_id);

CREATE TABLE teams (
  id text NOT NULL,
  organization_id text NOT NULL,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT teams_pkey PRIMARY KEY (id),
  CONSTRAINT teams_organization_id_id_key UNIQUE (organization_id, id),
  CONSTRAINT teams_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT teams_title_length CHECK (char_length(title) BETWEEN 1 AND 64)
);
CREATE INDEX teams_organization_created_idx ON teams (organization_id, created_at, id);

CREATE TABLE team_members (
  team_id text NOT NULL,
  organization_id text NOT NULL,
  user_id text NOT NULL,
  role text NOT NULL DEFAULT 'member',
  added_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT team_members_pkey PRIMARY KEY (team_id, user_id),
  CONSTRAINT team_members_team_fkey
    FOREIGN KEY (organization_id, team_id) REFERENCES teams (organization_id, id) ON DELETE CASCADE,
  -- Only members of the organization are in its teams; leaving it leaves them.
  CONSTRAINT team_members_member_fkey
    FOREIGN KEY (organization_id, user_id) REFERENCES organization_members (organization_id, user_id) ON DELETE CASCADE,
  CONSTRAINT team_members_role_enum CHECK (role IN ('owner', 'member'))
);
-- A member's teams, and the team list's `owner` filter.
CREATE INDEX team_members_member_idx ON team_members (organization_id, user_id, role);

-- Down Migration

DROP TABLE team_members;
DROP TABLE teams;
DROP INDEX organization_members_role_idx;
DROP INDEX organization_members_seen_idx;
DROP INDEX organization_members_joined_idx;
DROP INDEX users_search_trgm_idx;
