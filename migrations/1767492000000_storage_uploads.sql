-- Up Migration

-- A file uploaded to an organization's storage (GitBook's generateStorageUploadURL):
-- announced first, with its name, type and size, for a signed upload URL; its bytes
-- are then PUT to that URL once, and a later content write names the upload to make
-- it a file of a space. The bytes go to blobs when the upload completes (sha256, size
-- and, for an image, its dimensions are set then); until expires_at the upload can be
-- completed, and for a day after it was completed, used.
CREATE TABLE storage_uploads (
  id text NOT NULL,
  organization_id text NOT NULL,
  kind text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  declared_size integer NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  sha256 text,
  size integer,
  width integer,
  height integer,
  uploaded_at timestamptz,
  CONSTRAINT storage_uploads_pkey PRIMARY KEY (id),
  CONSTRAINT storage_uploads_organization_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT storage_uploads_user_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT storage_uploads_kind_check CHECK (kind IN ('customization_font', 'import_file', 'organization_file')),
  CONSTRAINT storage_uploads_name_length CHECK (char_length(name) BETWEEN 1 AND 256),
  CONSTRAINT storage_uploads_declared_size_check CHECK (declared_size >= 0),
  CONSTRAINT storage_uploads_completed_check CHECK ((sha256 IS NULL) = (uploaded_at IS NULL) AND (sha256 IS NULL) = (size IS NULL))
);
CREATE INDEX storage_uploads_organization_expires_idx ON storage_uploads (organization_id, expires_at);
CREATE INDEX storage_uploads_user_idx ON storage_uploads (created_by);

-- An upload's bytes while its PUT streams in, a part at a time, inside the PUT's
-- transaction: joined into one blob when the upload completes and deleted then, or
-- rolled back with the transaction when the upload is refused.
CREATE TABLE storage_upload_parts (
  upload_id text NOT NULL,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  CONSTRAINT storage_upload_parts_pkey PRIMARY KEY (upload_id, seq),
  CONSTRAINT storage_upload_parts_upload_fkey FOREIGN KEY (upload_id) REFERENCES storage_uploads (id) ON DELETE CASCADE
);

-- Down Migration

DROP TABLE storage_upload_parts;
DROP TABLE storage_uploads;
