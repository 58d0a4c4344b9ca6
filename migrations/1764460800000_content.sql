-- Up Migration

-- Content tables reference their space by (organization_id, space_id), so that
-- a transfer moves them with ON UPDATE CASCADE and a purge removes them with
-- ON DELETE CASCADE.
ALTER TABLE spaces ADD CONSTRAINT spaces_organization_id_id_key UNIQUE (organization_id, id);

-- Change requests come first: revisions on a change request's line point at it.
CREATE TABLE change_requests (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  -- Counts from 1 per space; taken from the space's change_requests_count in the creating transaction.
  number integer NOT NULL,
  subject text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'draft',
  created_by text,
  -- Its newest revision, the space revision it was opened on, and the merge's result.
  revision_id text NOT NULL,
  revision_initial_id text NOT NULL,
  revision_merged_id text,
  comments_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  merged_at timestamptz,
  CONSTRAINT change_requests_pkey PRIMARY KEY (id),
  CONSTRAINT change_requests_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT change_requests_created_by_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT change_requests_number_key UNIQUE (space_id, number),
  CONSTRAINT change_requests_subject_length CHECK (char_length(subject) <= 100),
  CONSTRAINT change_requests_status_enum CHECK (status IN ('draft', 'open', 'archived', 'merged')),
  CONSTRAINT change_requests_number_positive CHECK (number > 0)
);
-- A space's change requests by status, newest first (the list and its filter).
CREATE INDEX change_requests_space_status_idx ON change_requests (space_id, status, created_at, id);
CREATE INDEX change_requests_space_created_idx ON change_requests (space_id, created_at, id);
CREATE INDEX change_requests_organization_idx ON change_requests (organization_id);

-- A revision never changes once written. A space has one line of revisions
-- (change_request_id NULL, seq 0, 1, 2 ...: its initial revision, then one per
-- merge); each change request has its own line (seq 1, 2 ...) that starts from
-- the space revision at base_seq.
CREATE TABLE revisions (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  change_request_id text,
  seq integer NOT NULL,
  -- On a change request's line: the space's seq its content starts from.
  base_seq integer,
  type text NOT NULL DEFAULT 'edits',
  parents text[] NOT NULL DEFAULT '{}',
  variables jsonb NOT NULL DEFAULT '{}',
  merged_from text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT revisions_pkey PRIMARY KEY (id),
  CONSTRAINT revisions_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT revisions_change_request_fkey FOREIGN KEY (change_request_id) REFERENCES change_requests (id) ON DELETE CASCADE,
  CONSTRAINT revisions_merged_from_fkey FOREIGN KEY (merged_from) REFERENCES change_requests (id) ON DELETE SET NULL,
  CONSTRAINT revisions_created_by_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT revisions_line_seq_key UNIQUE NULLS NOT DISTINCT (space_id, change_request_id, seq),
  CONSTRAINT revisions_type_enum CHECK (type IN ('edits', 'merge', 'rollback', 'update', 'computed')),
  CONSTRAINT revisions_base_on_change_requests CHECK ((change_request_id IS NULL) = (base_seq IS NULL))
);
CREATE INDEX revisions_organization_idx ON revisions (organization_id);
CREATE INDEX revisions_change_request_idx ON revisions (change_request_id) WHERE change_request_id IS NOT NULL;

-- Every existing space gets its initial, empty revision (the id it already shows).
INSERT INTO revisions (id, organization_id, space_id, seq, created_at)
SELECT revision_id, organization_id, id, 0, created_at FROM spaces;

-- A page's markdown, the stored source of its content. Page versions that
-- change only metadata share their document.
CREATE TABLE documents (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  markdown text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT documents_pkey PRIMARY KEY (id),
  CONSTRAINT documents_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX documents_space_idx ON documents (organization_id, space_id);

-- One state of one page: written once, shared by every revision it belongs to.
CREATE TABLE page_versions (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  page_id text NOT NULL,
  parent_page_id text,
  -- Order among siblings: a fractional key compared byte by byte, so a page
  -- can go between two others without renumbering (and so changing) them.
  position text COLLATE "C" NOT NULL,
  type text NOT NULL DEFAULT 'document',
  title text NOT NULL,
  slug text NOT NULL,
  emoji text,
  icon text,
  description text,
  document_id text,
  layout jsonb,
  cover jsonb,
  variables jsonb NOT NULL DEFAULT '{}',
  hidden boolean NOT NULL DEFAULT false,
  no_index boolean NOT NULL DEFAULT false,
  no_robots_index boolean NOT NULL DEFAULT false,
  -- Link pages: where they point.
  target jsonb,
  href text,
  -- When the page itself was first created, and when this version was.
  page_created_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT page_versions_pkey PRIMARY KEY (id),
  CONSTRAINT page_versions_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT page_versions_document_fkey FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE,
  CONSTRAINT page_versions_type_enum CHECK (type IN ('document', 'group', 'link')),
  CONSTRAINT page_versions_title_length CHECK (char_length(title) BETWEEN 1 AND 255),
  CONSTRAINT page_versions_slug_length CHECK (char_length(slug) <= 100),
  CONSTRAINT page_versions_description_length CHECK (char_length(description) <= 1000)
);
CREATE INDEX page_versions_space_idx ON page_versions (organization_id, space_id);
CREATE INDEX page_versions_document_idx ON page_versions (document_id);

-- File bytes, stored once per content hash across the service. Not tenant
-- data on its own: bytes are reached only through a file version, which is.
-- That also lets a transfer move files without copying bytes. The purge
-- removes bytes no file version references any more.
CREATE TABLE blobs (
  sha256 text NOT NULL,
  size integer NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT blobs_pkey PRIMARY KEY (sha256)
);

-- One state of one file, like page_versions.
CREATE TABLE file_versions (
  id text NOT NULL,
  organization_id text NOT NULL,
  space_id text NOT NULL,
  file_id text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  sha256 text NOT NULL,
  size integer NOT NULL,
  width integer,
  height integer,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT file_versions_pkey PRIMARY KEY (id),
  CONSTRAINT file_versions_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT file_versions_blob_fkey FOREIGN KEY (sha256) REFERENCES blobs (sha256),
  CONSTRAINT file_versions_name_length CHECK (char_length(name) BETWEEN 1 AND 256)
);
CREATE INDEX file_versions_space_idx ON file_versions (organization_id, space_id);
CREATE INDEX file_versions_blob_idx ON file_versions (sha256);

-- Which version of each page and file a line holds, and from when to when:
-- the entry is in force for the line's seqs from_seq <= s < to_seq (to_seq
-- NULL: still in force). A write adds entries only for what it changes, so a
-- one-page merge adds one row whatever the size of the space. On a change
-- request's line an entry overrides the base; version_id NULL removes the item.
CREATE TABLE tree_entries (
  organization_id text NOT NULL,
  space_id text NOT NULL,
  change_request_id text,
  kind text NOT NULL,
  item_id text NOT NULL,
  version_id text,
  from_seq integer NOT NULL,
  to_seq integer,
  CONSTRAINT tree_entries_space_fkey
    FOREIGN KEY (organization_id, space_id) REFERENCES spaces (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT tree_entries_change_request_fkey FOREIGN KEY (change_request_id) REFERENCES change_requests (id) ON DELETE CASCADE,
  CONSTRAINT tree_entries_kind_enum CHECK (kind IN ('page', 'file')),
  CONSTRAINT tree_entries_range CHECK (to_seq IS NULL OR to_seq > from_seq),
  CONSTRAINT tree_entries_space_line_has_versions CHECK (change_request_id IS NOT NULL OR version_id IS NOT NULL)
);
-- The current content of a space, and of a change request: one entry per item.
CREATE UNIQUE INDEX tree_entries_space_current_key ON tree_entries (space_id, kind, item_id)
  WHERE change_request_id IS NULL AND to_seq IS NULL;
CREATE UNIQUE INDEX tree_entries_change_request_current_key ON tree_entries (change_request_id, kind, item_id)
  WHERE change_request_id IS NOT NULL AND to_seq IS NULL;
-- Older revisions, and the merge's check of what changed in the space since a base.
CREATE INDEX tree_entries_space_history_idx ON tree_entries (space_id, kind, item_id, from_seq)
  WHERE change_request_id IS NULL;
CREATE INDEX tree_entries_change_request_history_idx ON tree_entries (change_request_id, kind, from_seq)
  WHERE change_request_id IS NOT NULL;
CREATE INDEX tree_entries_organization_idx ON tree_entries (organization_id);

-- Down Migration

DROP TABLE tree_entries;
DROP TABLE file_versions;
DROP TABLE blobs;
DROP TABLE page_versions;
DROP TABLE documents;
DROP TABLE revisions;
DROP TABLE change_requests;
ALTER TABLE spaces DROP CONSTRAINT spaces_organization_id_id_key;
