-- Up Migration

-- Where an integration's events are sent (a self-hosted extension of
-- publishIntegration), and the secret each delivery is signed with: sealed
-- with the keyring (context `integration-signing:<id>`), key_id naming the key
-- for a rotation. Null until the integration names an endpoint.
ALTER TABLE integrations
  ADD COLUMN endpoint_url text,
  ADD COLUMN signing_secret_sealed text,
  ADD COLUMN signing_secret_key_id text,
  ADD CONSTRAINT integrations_endpoint_url_length CHECK (char_length(endpoint_url) <= 2048),
  ADD CONSTRAINT integrations_signing_secret_key CHECK ((signing_secret_sealed IS NULL) = (signing_secret_key_id IS NULL)),
  ADD CONSTRAINT integrations_organization_id_id_key UNIQUE (organization_id, id);
CREATE INDEX integrations_signing_secret_key_idx ON integrations (signing_secret_key_id);

ALTER TABLE sites ADD CONSTRAINT sites_organization_id_id_key UNIQUE (organization_id, id);

-- Webhooks: an organization's admins send its events to a URL of theirs, for
-- the whole organization or one space or site, signed as integrations' are
-- with a secret of the webhook's own (sealed, context `webhook-signing:<id>`).
CREATE TABLE webhooks (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text,
  site_id text,
  url text NOT NULL,
  -- The event types sent; empty: every type.
  events text[] NOT NULL DEFAULT '{}',
  secret_sealed text NOT NULL,
  secret_key_id text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT webhooks_pkey PRIMARY KEY (id),
  CONSTRAINT webhooks_organization_id_id_key UNIQUE (organization_id, id),
  CONSTRAINT webhooks_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  -- On the space's id alone: a space moved to another organization must not
  -- take this organization's webhook (and its URL) with it. The fan-out sends a
  -- webhook only its own organization's events.
  CONSTRAINT webhooks_space_fkey FOREIGN KEY (space_id) REFERENCES spaces (id) ON DELETE CASCADE,
  CONSTRAINT webhooks_site_fkey FOREIGN KEY (organization_id, site_id)
    REFERENCES sites (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT webhooks_user_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT webhooks_one_target CHECK (space_id IS NULL OR site_id IS NULL),
  CONSTRAINT webhooks_url_length CHECK (char_length(url) <= 2048),
  CONSTRAINT webhooks_events_count CHECK (cardinality(events) <= 50)
);
CREATE INDEX webhooks_organization_created_idx ON webhooks (organization_id, created_at, id);
CREATE INDEX webhooks_space_idx ON webhooks (space_id) WHERE space_id IS NOT NULL;
CREATE INDEX webhooks_site_idx ON webhooks (site_id) WHERE site_id IS NOT NULL;
CREATE INDEX webhooks_user_idx ON webhooks (created_by);
CREATE INDEX webhooks_secret_key_idx ON webhooks (secret_key_id);

-- The outbox: an event written in the transaction of the action it tells of,
-- so that it exists exactly when the action committed. The fan-out turns each
-- into deliveries, in `seq` order, and removes it. A space's writers hold the
-- space's row lock to commit, so its events' seq follow their commits.
CREATE TABLE events (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  id text NOT NULL,
  organization_id text NOT NULL,
  type text NOT NULL,
  space_id text,
  site_id text,
  -- Only to this installation (installation_setup, installation_deleted).
  installation_id text,
  -- Only to this integration (a task it queued for itself).
  integration_id text,
  -- The event as sent, but for eventId and installationId, set per delivery.
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT events_pkey PRIMARY KEY (seq),
  CONSTRAINT events_id_key UNIQUE (id),
  CONSTRAINT events_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT events_integration_fkey FOREIGN KEY (integration_id)
    REFERENCES integrations (id) ON DELETE CASCADE
);
CREATE INDEX events_organization_idx ON events (organization_id);
CREATE INDEX events_integration_idx ON events (integration_id);

-- One delivery of an event to one endpoint: an integration's (through one of
-- its installations) or a webhook's. Deliveries of the same stream (endpoint
-- and space, site or organization) go out one at a time, in seq order.
CREATE TABLE event_deliveries (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  -- The IntegrationEvent's id, and the eventId of the payload sent.
  id text NOT NULL,
  -- The organization whose event it is.
  organization_id text NOT NULL,
  integration_id text,
  -- No foreign key: an installation's last event tells of its deletion.
  installation_id text,
  webhook_id text,
  stream text NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  url text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  -- Retries stop here; the delivery is then failed.
  give_up_at timestamptz NOT NULL,
  lease_expires_at timestamptz,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  CONSTRAINT event_deliveries_pkey PRIMARY KEY (seq),
  CONSTRAINT event_deliveries_id_key UNIQUE (id),
  CONSTRAINT event_deliveries_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT event_deliveries_integration_fkey FOREIGN KEY (integration_id)
    REFERENCES integrations (id) ON DELETE CASCADE,
  CONSTRAINT event_deliveries_webhook_fkey FOREIGN KEY (organization_id, webhook_id)
    REFERENCES webhooks (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT event_deliveries_one_endpoint CHECK ((integration_id IS NULL) <> (webhook_id IS NULL)),
  CONSTRAINT event_deliveries_status_enum CHECK (status IN ('pending', 'success', 'failed')),
  CONSTRAINT event_deliveries_attempts_positive CHECK (attempts >= 0),
  CONSTRAINT event_deliveries_last_error_length CHECK (char_length(last_error) <= 1000)
);
-- What is due, and the head of each stream.
CREATE INDEX event_deliveries_due_idx ON event_deliveries (next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX event_deliveries_stream_idx ON event_deliveries (stream, seq) WHERE status = 'pending';
-- The lists of an integration's and a webhook's deliveries.
CREATE INDEX event_deliveries_integration_created_idx ON event_deliveries (integration_id, created_at, id);
CREATE INDEX event_deliveries_webhook_created_idx ON event_deliveries (webhook_id, created_at, id);
CREATE INDEX event_deliveries_organization_idx ON event_deliveries (organization_id);

-- Down Migration

DROP TABLE event_deliveries;
DROP TABLE events;
DROP TABLE webhooks;
ALTER TABLE sites DROP CONSTRAINT sites_organization_id_id_key;
DROP INDEX integrations_signing_secret_key_idx;
ALTER TABLE integrations
  DROP CONSTRAINT integrations_organization_id_id_key,
  DROP CONSTRAINT integrations_signing_secret_key,
  DROP CONSTRAINT integrations_endpoint_url_length,
  DROP COLUMN signing_secret_key_id,
  DROP COLUMN signing_secret_sealed,
  DROP COLUMN endpoint_url;
