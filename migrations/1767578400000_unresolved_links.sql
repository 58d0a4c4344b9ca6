-- Up Migration

-- A link of a document that names a page no path of its space answered to
-- when the document was written (a relative `../x.md`, `guides/`, or a
-- `/pages/a/b` path): it stays in the markdown as written, and a later write
-- that adds a page at `target_path` rewrites the document's link to that page
-- (src/change-requests/changes/relink.ts). `target_path` is resolved against
-- the linking page's folder when written, so a later write looks it up as is;
-- `start_offset` and `end_offset` are where the destination is in the
-- document's markdown (UTF-16 code units), so that rewriting it needs no parse.
-- A document is never changed, so neither are its rows; `page_id` is the page
-- the document was written for, which a write checks still holds it.
CREATE TABLE unresolved_links (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  document_id text NOT NULL,
  page_id text NOT NULL,
  target_path text NOT NULL,
  url text NOT NULL,
  start_offset integer NOT NULL,
  end_offset integer NOT NULL,
  CONSTRAINT unresolved_links_pkey PRIMARY KEY (document_id, start_offset),
  CONSTRAINT unresolved_links_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT unresolved_links_document_fkey FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE,
  CONSTRAINT unresolved_links_offsets_check CHECK (start_offset >= 0 AND end_offset > start_offset)
);
-- A write looks up the paths its pages answer to.
CREATE INDEX unresolved_links_target_idx ON unresolved_links (organization_id, space_id, target_path);

-- Down Migration

DROP TABLE unresolved_links;
