-- Up Migration

-- Group and link pages (GitBook's RevisionPageGroup and RevisionPageLink):
-- neither has a document of its own (a group's content is its subpages, a
-- link's is where it points; a computed page's is made by its source), and a
-- link page always has its target, a ContentRef.
ALTER TABLE page_versions ADD CONSTRAINT page_versions_document_on_document_pages
  CHECK (document_id IS NULL OR type = 'document');
ALTER TABLE page_versions ADD CONSTRAINT page_versions_target_on_link_pages
  CHECK ((type = 'link') = (target IS NOT NULL));

-- A duplicated space shares its original's documents instead of copying
-- them (src/model/content/copy.ts): its page versions point at documents that
-- another space of the organization holds. Every reference must stay inside
-- the organization (reads look documents up by organization) and alive (a
-- document removed takes the page versions that use it along). Two triggers
-- keep it so on every path that removes or moves a space, the purge and
-- cascades from a collection included:
--  - a space removed for good first hands the documents that other spaces
--    still use over to one of them;
--  - a space moving to another organization does the same, then takes its own
--    copy of each document it uses that another space holds: only there, where
--    the content leaves the organization, are the bytes copied.

-- A resource id made in SQL, as src/core/ids.ts makes one: 20 characters of
-- [A-Za-z0-9], from the server's strong random source. Base64 digits are
-- uniform; dropping `+`, `/` (and the padding) leaves the 62 others uniform.
CREATE FUNCTION quire_new_id() RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE
  RETURN substr(
    translate(encode(sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())), 'base64'), '+/=', ''),
    1, 20);

-- Hands the documents of a space that page versions of other spaces of its
-- organization use over to one of those spaces.
CREATE FUNCTION documents_hand_over(organization text, space text) RETURNS void LANGUAGE sql AS $$
  UPDATE documents SET space_id = heir.space_id
  FROM (
    SELECT DISTINCT ON (own.id) own.id, pv.space_id
    FROM documents own
      JOIN page_versions pv ON pv.document_id = own.id AND pv.space_id <> own.space_id
      -- Spaces of the organization as they are now: not one removed or moved
      -- away earlier in the same statement.
      JOIN spaces s ON s.id = pv.space_id AND s.organization_id = own.organization_id
    WHERE own.organization_id = organization AND own.space_id = space
    ORDER BY own.id, pv.space_id
  ) AS heir
  WHERE documents.id = heir.id;
$$;

CREATE FUNCTION spaces_hand_over_documents_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM documents_hand_over(OLD.organization_id, OLD.id);
  RETURN OLD;
END
$$;
CREATE TRIGGER spaces_shared_documents_on_delete
  BEFORE DELETE ON spaces
  FOR EACH ROW EXECUTE FUNCTION spaces_hand_over_documents_on_delete();

-- Runs before the row changes, so before its foreign keys carry its documents
-- and page versions to the new organization: the copies, made under the old
-- organization, go along with them.
CREATE FUNCTION spaces_unshare_documents_on_transfer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM documents_hand_over(OLD.organization_id, OLD.id);
  WITH used AS (
    SELECT DISTINCT pv.document_id AS id
    FROM page_versions pv JOIN documents d ON d.id = pv.document_id
    WHERE pv.organization_id = OLD.organization_id AND pv.space_id = OLD.id AND d.space_id <> OLD.id
  ), copies AS MATERIALIZED (
    SELECT id AS shared_id, quire_new_id() AS own_id FROM used
  ), copied AS (
    INSERT INTO documents (id, organization_id, space_id, markdown, document, outline, links, language, created_at)
    SELECT c.own_id, OLD.organization_id, OLD.id, d.markdown, d.document, d.outline, d.links, d.language, d.created_at
    FROM copies c JOIN documents d ON d.id = c.shared_id
  )
  UPDATE page_versions pv SET document_id = c.own_id
  FROM copies c
  WHERE pv.organization_id = OLD.organization_id AND pv.space_id = OLD.id AND pv.document_id = c.shared_id;
  RETURN NEW;
END
$$;
CREATE TRIGGER spaces_shared_documents_on_transfer
  BEFORE UPDATE OF organization_id ON spaces
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION spaces_unshare_documents_on_transfer();

-- Down Migration

DROP TRIGGER spaces_shared_documents_on_transfer ON spaces;
DROP FUNCTION spaces_unshare_documents_on_transfer();
DROP TRIGGER spaces_shared_documents_on_delete ON spaces;
DROP FUNCTION spaces_hand_over_documents_on_delete();
DROP FUNCTION documents_hand_over(text, text);
DROP FUNCTION quire_new_id();
ALTER TABLE page_versions DROP CONSTRAINT page_versions_target_on_link_pages;
ALTER TABLE page_versions DROP CONSTRAINT page_versions_document_on_document_pages;
