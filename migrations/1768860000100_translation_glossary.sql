-- Up Migration

-- An organization's translation glossary: each entry a term in several
-- languages ({"en": "workspace", "fr": "espace de travail"}), language codes
-- of the spec's TranslationLanguage, checked by the API.
CREATE TABLE translation_glossary_entries (
  id text NOT NULL,
  organization_id text NOT NULL,
  translations jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT translation_glossary_entries_pkey PRIMARY KEY (id),
  CONSTRAINT translation_glossary_entries_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT translation_glossary_entries_translations_object CHECK (jsonb_typeof(translations) = 'object')
);

CREATE INDEX translation_glossary_entries_organization_created_idx
  ON translation_glossary_entries (organization_id, created_at, id);

-- Down Migration

DROP TABLE translation_glossary_entries;
