-- Up Migration

-- Reusable contents: blocks of content a space keeps beside its pages, each
-- with a title and a document. They live in revisions the way pages do: one
-- row per state of one reusable content, written once and shared by every
-- revision that holds it, and tree entries of kind 'reusable_content' that say
-- which state each line holds when. Their markdown is kept in `documents`,
-- like a page's.
CREATE TABLE reusable_content_versions (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  reusable_content_id text NOT NULL,
  title text NOT NULL,
  -- NULL: the reusable content is empty.
  document_id text,
  -- When the reusable content itself was first created, and when this version was.
  reusable_content_created_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT reusable_content_versions_pkey PRIMARY KEY (id),
  CONSTRAINT reusable_content_versions_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT reusable_content_versions_document_fkey FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE,
  CONSTRAINT reusable_content_versions_title_length CHECK (char_length(title) BETWEEN 1 AND 255)
);
CREATE INDEX reusable_content_versions_space_idx ON reusable_content_versions (organization_id, space_id);
CREATE INDEX reusable_content_versions_document_idx ON reusable_content_versions (document_id);

ALTER TABLE tree_entries DROP CONSTRAINT tree_entries_kind_enum;
ALTER TABLE tree_entries ADD CONSTRAINT tree_entries_kind_enum CHECK (kind IN ('page', 'file', 'reusable_content'));

-- Space variables (revisions.variables) and page variables (page_versions.variables)
-- already have their columns; their limits (names, value sizes, count) are the
-- writer's, checked before a revision is made.

-- Down Migration

DELETE FROM tree_entries WHERE kind = 'reusable_content';
ALTER TABLE tree_entries DROP CONSTRAINT tree_entries_kind_enum;
ALTER TABLE tree_entries ADD CONSTRAINT tree_entries_kind_enum CHECK (kind IN ('page', 'file'));
DROP TABLE reusable_content_versions;
