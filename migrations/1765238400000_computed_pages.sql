-- Up Migration

-- Computed pages: a page whose content is made on read from a source (an
-- OpenAPI spec of the organization, named by slug), not written. `computed`
-- holds the source as GitBook's ComputedContentSourceRevision.
ALTER TABLE page_versions ADD COLUMN computed jsonb;
ALTER TABLE page_versions DROP CONSTRAINT page_versions_type_enum;
ALTER TABLE page_versions ADD CONSTRAINT page_versions_type_enum CHECK (type IN ('document', 'group', 'link', 'computed'));
ALTER TABLE page_versions ADD CONSTRAINT page_versions_computed_source
  CHECK ((type = 'computed') = (computed IS NOT NULL));

-- Down Migration

DELETE FROM page_versions WHERE type = 'computed';
ALTER TABLE page_versions DROP CONSTRAINT page_versions_computed_source;
ALTER TABLE page_versions DROP CONSTRAINT page_versions_type_enum;
ALTER TABLE page_versions ADD CONSTRAINT page_versions_type_enum CHECK (type IN ('document', 'group', 'link'));
ALTER TABLE page_versions DROP COLUMN computed;
