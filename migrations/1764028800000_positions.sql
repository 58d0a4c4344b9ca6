-- Up Migration

-- Spaces and collections under one parent (or at an organization's top level)
-- share one order: `position` ascending, ties broken by id.
ALTER TABLE collections ADD COLUMN position double precision NOT NULL DEFAULT 0;
ALTER TABLE spaces ADD COLUMN position double precision NOT NULL DEFAULT 0;

-- Existing rows keep their creation order.
UPDATE collections SET position = ordered.n
FROM (SELECT id, row_number() OVER (PARTITION BY organization_id, parent_id ORDER BY created_at, id) AS n FROM collections) AS ordered
WHERE collections.id = ordered.id;
UPDATE spaces SET position = ordered.n
FROM (SELECT id, row_number() OVER (PARTITION BY organization_id, parent_id ORDER BY created_at, id) AS n FROM spaces) AS ordered
WHERE spaces.id = ordered.id;

CREATE INDEX collections_siblings_idx ON collections (organization_id, parent_id, position);
CREATE INDEX spaces_siblings_idx ON spaces (organization_id, parent_id, position) WHERE deleted_at IS NULL;

-- Down Migration

DROP INDEX spaces_siblings_idx;
DROP INDEX collections_siblings_idx;
ALTER TABLE spaces DROP COLUMN position;
ALTER TABLE collections DROP COLUMN position;
