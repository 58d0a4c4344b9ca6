-- Up Migration

-- The paths a space's pages were at before a write of the space's line moved
-- them (a new slug or parent, theirs or an ancestor's): the published reader
-- sends an old path on to the page's current one where nothing else answers
-- it. One page per path (the latest to leave it); a page keeps a bounded
-- number of old paths, and a deleted page loses all of them. Written in the
-- transaction of the revision that moved them.
CREATE TABLE page_path_history (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  path text NOT NULL,
  page_id text NOT NULL,
  -- The seq of the space revision that moved the page away from the path: the newest are kept.
  revision_seq integer NOT NULL,
  CONSTRAINT page_path_history_pkey PRIMARY KEY (organization_id, space_id, path),
  CONSTRAINT page_path_history_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT page_path_history_path_length CHECK (char_length(path) BETWEEN 1 AND 2048)
);
CREATE INDEX page_path_history_page_idx ON page_path_history (organization_id, space_id, page_id, revision_seq);

-- The `redirects` of a space's `.gitbook.yaml`, as its last Git Sync import
-- read them: a path of the space's published content (from its site space's
-- address) and the page file, from the content root, it leads to. Kept in
-- the file's order, so that an export writes them back as they were.
CREATE TABLE space_git_redirects (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  source text NOT NULL,
  target text NOT NULL,
  position integer NOT NULL,
  CONSTRAINT space_git_redirects_pkey PRIMARY KEY (organization_id, space_id, source),
  CONSTRAINT space_git_redirects_space_fkey FOREIGN KEY (organization_id, space_id)
    REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT space_git_redirects_source_length CHECK (char_length(source) BETWEEN 1 AND 1024),
  CONSTRAINT space_git_redirects_target_length CHECK (char_length(target) BETWEEN 1 AND 1024)
);

-- Down Migration

DROP TABLE space_git_redirects;
DROP TABLE page_path_history;
