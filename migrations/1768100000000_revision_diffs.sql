-- Up Migration

-- What changed from one revision of a space to another (GitBook's semantic
-- changes), computed once per pair of revisions, off the event loop, and read
-- back by every later call: revisions never change, so neither does their
-- diff. from_revision_id NULL: the space's first revision, compared with
-- nothing. `changes` holds every change in order (files without their signed
-- download URLs, which are made when read).
CREATE TABLE revision_diffs (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  from_revision_id text,
  to_revision_id text NOT NULL,
  changes json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT revision_diffs_pkey PRIMARY KEY (id),
  CONSTRAINT revision_diffs_organization_id_id_key UNIQUE (organization_id, id),
  CONSTRAINT revision_diffs_pair_key UNIQUE NULLS NOT DISTINCT (organization_id, space_id, to_revision_id, from_revision_id),
  CONSTRAINT revision_diffs_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT revision_diffs_from_revision_fkey FOREIGN KEY (from_revision_id) REFERENCES revisions (id) ON DELETE CASCADE,
  CONSTRAINT revision_diffs_to_revision_fkey FOREIGN KEY (to_revision_id) REFERENCES revisions (id) ON DELETE CASCADE
);
-- The pair's lookup is the unique key; these serve a revision's removal (the foreign keys) and a space's purge.
CREATE INDEX revision_diffs_from_revision_idx ON revision_diffs (from_revision_id);
CREATE INDEX revision_diffs_to_revision_idx ON revision_diffs (to_revision_id);
CREATE INDEX revision_diffs_space_idx ON revision_diffs (space_id);

-- Each changed page's documents compared block by block, beside its pair's
-- changes: read one page at a time.
CREATE TABLE revision_page_diffs (
  organization_id text NOT NULL,
  diff_id text NOT NULL,
  page_id text NOT NULL,
  diff json NOT NULL,
  CONSTRAINT revision_page_diffs_pkey PRIMARY KEY (diff_id, page_id),
  CONSTRAINT revision_page_diffs_diff_fkey
    FOREIGN KEY (organization_id, diff_id) REFERENCES revision_diffs (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX revision_page_diffs_organization_idx ON revision_page_diffs (organization_id);

-- Down Migration

DROP TABLE revision_page_diffs;
DROP TABLE revision_diffs;
