-- Up Migration

-- The ids of the spaces that are not deleted, so that checking that a
-- granted space is live is an index-only lookup rather than a read of the
-- space's row: a team's or a guest's reach checks every space granted to
-- them (200 for a team list of five teams, 400 for a guest through them).
CREATE INDEX spaces_live_id_idx ON spaces (id) WHERE deleted_at IS NULL;

-- Down Migration

DROP INDEX spaces_live_id_idx;
