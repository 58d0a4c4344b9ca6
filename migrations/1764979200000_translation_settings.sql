-- Up Migration

-- Translation settings: an organization's named sets of target languages.
CREATE TABLE translation_settings (
  id text NOT NULL,
  organization_id text NOT NULL,
  title text NOT NULL,
  -- Language codes of the GitBook spec's TranslationLanguage, distinct, in the order given.
  languages text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT translation_settings_pkey PRIMARY KEY (id),
  CONSTRAINT translation_settings_organization_fkey FOREIGN KEY (organization_id)
    REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT translation_settings_title_length CHECK (char_length(title) BETWEEN 1 AND 100),
  CONSTRAINT translation_settings_languages_count CHECK (cardinality(languages) <= 100)
);

CREATE INDEX translation_settings_organization_created_idx ON translation_settings (organization_id, created_at, id);

-- Down Migration

DROP TABLE translation_settings;
