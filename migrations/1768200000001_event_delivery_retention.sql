-- Up Migration

-- Delivered and failed deliveries are kept 30 days, then removed by the
-- delivery worker, oldest first, a batch at a time.
CREATE INDEX event_deliveries_finished_created_idx ON event_deliveries (created_at, seq) WHERE status <> 'pending';

-- Down Migration

DROP INDEX event_deliveries_finished_created_idx;
