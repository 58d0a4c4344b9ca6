-- Up Migration

-- Search and link checking read what a document's markdown says without
-- parsing it again: its outline (sections at headings, their text) and its
-- links are taken from the same parse that makes its JSON document, when it is
-- written. NULL on documents written before they were kept; the index job
-- fills them in.
ALTER TABLE documents ADD COLUMN outline jsonb;
ALTER TABLE documents ADD COLUMN links jsonb;
-- The text search configuration the document's language calls for (see below).
ALTER TABLE documents ADD COLUMN language text;

-- Accents are folded on both sides, so "cafe" finds "café". unaccent is a
-- trusted extension: a database owner may create it without being a superuser.
CREATE EXTENSION IF NOT EXISTS unaccent;

-- One configuration per language with a stemmer, each folding accents first,
-- and quire_simple for every other language: words as written, lower-cased.
DO $$
DECLARE
  language text;
BEGIN
  FOREACH language IN ARRAY ARRAY['danish', 'dutch', 'english', 'finnish', 'french', 'german', 'hungarian',
    'italian', 'norwegian', 'portuguese', 'romanian', 'russian', 'spanish', 'swedish', 'turkish'] LOOP
    EXECUTE format('CREATE TEXT SEARCH CONFIGURATION quire_%s (COPY = pg_catalog.%s)', language, language);
    EXECUTE format(
      'ALTER TEXT SEARCH CONFIGURATION quire_%s ALTER MAPPING FOR hword, hword_part, word WITH unaccent, %s_stem',
      language, language);
  END LOOP;
END
$$;
CREATE TEXT SEARCH CONFIGURATION quire_simple (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION quire_simple ALTER MAPPING FOR hword, hword_part, word WITH unaccent, simple;

CREATE FUNCTION quire_split_unspaced(text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace($1, '([\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])', ' \1 ', 'g');

-- The search index of every space's current content. Each page has a row
-- of its whole text (ord 0): its title, every heading and all its text (the
-- description first), which a page must match as a whole; and a row for each
-- section of its outline (ord 1, 2 ...), which tell where in the page the
-- words are. Only the space's own line is indexed, never a change request's,
-- and every writer of that line (a merge, an import) replaces the rows of the
-- pages it changes in the same transaction. A transfer carries the rows along
-- (ON UPDATE CASCADE); a deleted space's rows stay for a restore but are left
-- out of every search by the join on spaces.
CREATE TABLE search_sections (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  page_id text NOT NULL,
  ord integer NOT NULL,
  -- The heading's anchor; null on the page's row and on the text before its first heading.
  anchor text,
  -- The page's title (ord 0) or the section's heading.
  title text NOT NULL,
  -- The page's headings, on its row.
  headings text NOT NULL DEFAULT '',
  body text NOT NULL,
  language regconfig NOT NULL,
  -- Page titles count over headings, headings over text. Scripts written
  -- without spaces between words (Chinese, Japanese, Thai) are indexed one
  -- character at a time; a search looks for their words as phrases of characters.
  tsv tsvector NOT NULL GENERATED ALWAYS AS (
    setweight(to_tsvector(language, quire_split_unspaced(title)), CASE WHEN ord = 0 THEN 'A' ELSE 'B' END::"char")
    || setweight(to_tsvector(language, quire_split_unspaced(headings)), 'B')
    || setweight(to_tsvector(language, quire_split_unspaced(body)), 'D')
  ) STORED,
  -- A page's title and headings alone: what an organization-wide search
  -- ranks by, since ranking by the whole text would read every matching
  -- page's (large, compressed) words, and a common word matches them all.
  head_tsv tsvector GENERATED ALWAYS AS (
    CASE WHEN ord = 0 THEN
      setweight(to_tsvector(language, quire_split_unspaced(title)), 'A')
      || setweight(to_tsvector(language, quire_split_unspaced(headings)), 'B')
    END
  ) STORED,
  CONSTRAINT search_sections_pkey PRIMARY KEY (space_id, page_id, ord),
  CONSTRAINT search_sections_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
-- btree_gin lets one GIN index hold the organization and the space beside
-- the words: a space's search, and an organization's, intersect their pages
-- with the pages of the words inside the index.
CREATE EXTENSION IF NOT EXISTS btree_gin;
-- Spaces whose current pages are not in the index yet: those that had pages
-- before it existed. A job at start fills them in, one space at a time.
ALTER TABLE spaces ADD COLUMN search_indexed boolean NOT NULL DEFAULT true;
UPDATE spaces SET search_indexed = false
WHERE EXISTS (
  SELECT 1 FROM tree_entries e
  WHERE e.space_id = spaces.id AND e.change_request_id IS NULL AND e.kind = 'page' AND e.to_seq IS NULL
);
CREATE INDEX spaces_search_unindexed_idx ON spaces (id) WHERE NOT search_indexed;

-- Pages are found by their whole-text rows alone; a page's sections are
-- then read by its key.
CREATE INDEX search_sections_words_idx ON search_sections USING gin (organization_id, space_id, tsv) WHERE ord = 0;

-- Down Migration

DROP TABLE search_sections;
ALTER TABLE spaces DROP COLUMN search_indexed;
DROP FUNCTION quire_split_unspaced(text);
DROP TEXT SEARCH CONFIGURATION quire_simple;
DO $$
DECLARE
  language text;
BEGIN
  FOREACH language IN ARRAY ARRAY['danish', 'dutch', 'english', 'finnish', 'french', 'german', 'hungarian',
    'italian', 'norwegian', 'portuguese', 'romanian', 'russian', 'spanish', 'swedish', 'turkish'] LOOP
    EXECUTE format('DROP TEXT SEARCH CONFIGURATION quire_%s', language);
  END LOOP;
END
$$;
ALTER TABLE documents DROP COLUMN language;
ALTER TABLE documents DROP COLUMN links;
ALTER TABLE documents DROP COLUMN outline;
