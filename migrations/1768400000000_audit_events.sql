-- Up Migration

-- The audit log: one row per administrative or destructive action, written in
-- the action's own transaction, so that a row exists exactly when the action
-- committed. Rows are only inserted: the trigger below refuses any update, and
-- rows leave only with their organization or by the retention purge. The
-- actor, token and target are kept by id without foreign keys, so that the
-- record outlives the user, token or space it names; labels are as they were.
CREATE TABLE audit_events (
  id uuid NOT NULL,
  organization_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  action text NOT NULL,
  actor_type text NOT NULL,
  actor_id text NOT NULL,
  actor_label text,
  token_id text,
  ip text,
  source text NOT NULL,
  target_type text NOT NULL,
  target_id text NOT NULL,
  target_label text,
  -- The request that made the change, shared by the events one request records.
  correlation_id text,
  schema_version integer NOT NULL DEFAULT 1,
  -- Before and after of what changed, and the action's other details; never a secret.
  payload jsonb NOT NULL DEFAULT '{}',
  CONSTRAINT audit_events_pkey PRIMARY KEY (id),
  CONSTRAINT audit_events_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT audit_events_actor_type_check
    CHECK (actor_type IN ('user', 'integration', 'installation', 'system', 'support')),
  CONSTRAINT audit_events_source_check
    CHECK (source IN ('ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support')),
  CONSTRAINT audit_events_action_check CHECK (action ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$'),
  CONSTRAINT audit_events_ip_check CHECK (char_length(ip) <= 64),
  CONSTRAINT audit_events_payload_check CHECK (jsonb_typeof(payload) = 'object')
);
-- The list, newest first, and each of its filters.
CREATE INDEX audit_events_organization_idx ON audit_events (organization_id, occurred_at DESC, id DESC);
CREATE INDEX audit_events_action_idx ON audit_events (organization_id, action, occurred_at DESC, id DESC);
CREATE INDEX audit_events_actor_idx ON audit_events (organization_id, actor_id, occurred_at DESC, id DESC);
CREATE INDEX audit_events_target_idx ON audit_events (organization_id, target_id, occurred_at DESC, id DESC);
-- The retention purge, across organizations.
CREATE INDEX audit_events_occurred_idx ON audit_events (occurred_at);

CREATE FUNCTION audit_events_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit events are never changed' USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_update();

-- Down Migration

DROP TABLE audit_events;
DROP FUNCTION audit_events_refuse_update();
