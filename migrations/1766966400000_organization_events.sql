-- Up Migration

-- What admins did in an organization that its members may later ask about:
-- today, a first API token issued to a member, who then holds a secret
-- someone else saw. Kept with the organization; the actor and the member
-- stay named by id (null once their user is deleted), the details as JSON.
CREATE TABLE organization_events (
  id text NOT NULL,
  organization_id text NOT NULL,
  type text NOT NULL,
  actor_id text,
  user_id text,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT organization_events_pkey PRIMARY KEY (id),
  CONSTRAINT organization_events_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT organization_events_actor_fkey FOREIGN KEY (actor_id) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT organization_events_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT organization_events_type_enum CHECK (type IN ('member_token_issued'))
);
CREATE INDEX organization_events_organization_created_idx ON organization_events (organization_id, created_at, id);
-- For the foreign keys: deleting a user sets these to null.
CREATE INDEX organization_events_actor_idx ON organization_events (actor_id);
CREATE INDEX organization_events_user_idx ON organization_events (user_id);

-- A user's tokens are listed newest first and paged by (created_at, id); the
-- index on user_id alone had to sort them.
CREATE INDEX api_tokens_user_created_idx ON api_tokens (user_id, created_at, id);
DROP INDEX api_tokens_user_id_idx;

-- Down Migration

CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id);
DROP INDEX api_tokens_user_created_idx;
DROP TABLE organization_events;
