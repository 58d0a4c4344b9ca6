-- Up Migration

-- An organization's own font (GitBook's custom fonts): a family name and its faces,
-- one per weight, each a checked WOFF2 file whose bytes are in blobs. The sites of
-- the organization name it in their customization; no other organization can.
CREATE TABLE custom_fonts (
  id text NOT NULL,
  organization_id text NOT NULL,
  font_family text NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT custom_fonts_pkey PRIMARY KEY (id),
  CONSTRAINT custom_fonts_organization_id_key UNIQUE (organization_id, id),
  CONSTRAINT custom_fonts_organization_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT custom_fonts_user_fkey FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT custom_fonts_family_length CHECK (char_length(font_family) BETWEEN 1 AND 50)
);
CREATE INDEX custom_fonts_organization_created_idx ON custom_fonts (organization_id, created_at, id);
CREATE INDEX custom_fonts_user_idx ON custom_fonts (created_by);

-- One weight of a font. The blob is referenced so that the sweep of unreferenced
-- bytes (spaces/purge.ts) keeps it while the face exists.
CREATE TABLE custom_font_faces (
  organization_id text NOT NULL,
  font_id text NOT NULL,
  weight integer NOT NULL,
  sha256 text NOT NULL,
  size integer NOT NULL,
  CONSTRAINT custom_font_faces_pkey PRIMARY KEY (font_id, weight),
  CONSTRAINT custom_font_faces_font_fkey
    FOREIGN KEY (organization_id, font_id) REFERENCES custom_fonts (organization_id, id) ON DELETE CASCADE,
  CONSTRAINT custom_font_faces_blob_fkey FOREIGN KEY (sha256) REFERENCES blobs (sha256),
  CONSTRAINT custom_font_faces_weight_check CHECK (weight BETWEEN 1 AND 1000),
  CONSTRAINT custom_font_faces_size_check CHECK (size > 0)
);
CREATE INDEX custom_font_faces_organization_idx ON custom_font_faces (organization_id, font_id);
CREATE INDEX custom_font_faces_blob_idx ON custom_font_faces (sha256);

-- Down Migration

DROP TABLE custom_font_faces;
DROP TABLE custom_fonts;
