-- Up Migration

-- Docs sites: a site publishes spaces (its site spaces), at its root or
-- arranged in sections, and sections in section groups. Every write to a
-- site's structure first locks the site's row, so ordering and defaults are
-- worked out by one writer at a time; positions are plain integers, renumbered
-- within their list on every move.
CREATE TABLE sites (
  id text NOT NULL,
  organization_id text NOT NULL,
  type text NOT NULL DEFAULT 'basic',
  title text NOT NULL,
  visibility text NOT NULL DEFAULT 'public',
  published boolean NOT NULL DEFAULT false,
  basename text,
  proxy text,
  agents_context text NOT NULL DEFAULT 'included',
  adaptive_enabled boolean NOT NULL DEFAULT false,
  -- The visitor claims a condition may name; null until an admin sets one.
  adaptive_schema jsonb,
  adaptive_schema_updated_at timestamptz,
  -- SiteCustomizationSettings as last written; null: every default.
  customization jsonb,
  -- Visitor authentication: the key that signs visitor tokens, encrypted
  -- (AES-256-GCM under a key derived from the service secret).
  auth_backend text NOT NULL DEFAULT 'custom',
  auth_fallback_url text,
  auth_private_key_encrypted text NOT NULL,
  -- Null: the first section in structure order is the default.
  default_section_id text,
  -- Null: the first site space at the root is the default (a site without sections).
  default_site_space_id text,
  -- Site spaces whose space is not in the trash: kept by the triggers below, so lists need not count.
  site_spaces_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT sites_pkey PRIMARY KEY (id),
  CONSTRAINT sites_organization_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
  CONSTRAINT sites_type_enum CHECK (type IN ('basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium')),
  CONSTRAINT sites_visibility_enum CHECK (visibility IN ('public', 'unlisted', 'share-link', 'visitor-auth')),
  CONSTRAINT sites_agents_context_enum CHECK (agents_context IN ('excluded', 'included')),
  CONSTRAINT sites_auth_backend_enum CHECK (auth_backend IN ('custom', 'integration'))
);
CREATE INDEX sites_organization_created_idx ON sites (organization_id, created_at, id);
CREATE INDEX sites_organization_published_created_idx ON sites (organization_id, published, created_at, id);
CREATE INDEX sites_default_section_idx ON sites (default_section_id) WHERE default_section_id IS NOT NULL;
CREATE INDEX sites_default_site_space_idx ON sites (default_site_space_id) WHERE default_site_space_id IS NOT NULL;
CREATE INDEX sites_title_trgm_idx ON sites USING gin (lower(title) gin_trgm_ops);
-- A basename names the site in its published address (/s/{basename}): one site per basename.
CREATE UNIQUE INDEX sites_basename_key ON sites (lower(basename)) WHERE basename IS NOT NULL;

CREATE TABLE site_section_groups (
  id text NOT NULL,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  -- A group may sit in another group (one level of nesting).
  parent_id text,
  title text NOT NULL,
  icon text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT site_section_groups_pkey PRIMARY KEY (id),
  CONSTRAINT site_section_groups_site_fkey FOREIGN KEY (site_id) REFERENCES sites (id) ON DELETE CASCADE,
  CONSTRAINT site_section_groups_parent_fkey FOREIGN KEY (parent_id) REFERENCES site_section_groups (id) ON DELETE SET NULL
);
CREATE INDEX site_section_groups_site_idx ON site_section_groups (site_id, position);
CREATE INDEX site_section_groups_organization_idx ON site_section_groups (organization_id);
CREATE INDEX site_section_groups_parent_idx ON site_section_groups (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE site_sections (
  id text NOT NULL,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  group_id text,
  title text NOT NULL,
  description text,
  path text NOT NULL,
  condition text,
  icon text,
  position integer NOT NULL,
  -- Null: the first site space of the section is its default.
  default_site_space_id text,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT site_sections_pkey PRIMARY KEY (id),
  CONSTRAINT site_sections_site_fkey FOREIGN KEY (site_id) REFERENCES sites (id) ON DELETE CASCADE,
  CONSTRAINT site_sections_group_fkey FOREIGN KEY (group_id) REFERENCES site_section_groups (id) ON DELETE SET NULL,
  CONSTRAINT site_sections_path_key UNIQUE (site_id, path)
);
CREATE INDEX site_sections_site_idx ON site_sections (site_id, position);
CREATE INDEX site_sections_organization_idx ON site_sections (organization_id);
CREATE INDEX site_sections_default_site_space_idx ON site_sections (default_site_space_id) WHERE default_site_space_id IS NOT NULL;
CREATE INDEX site_sections_group_idx ON site_sections (group_id) WHERE group_id IS NOT NULL;

CREATE TABLE site_spaces (
  id text NOT NULL,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  -- Null: at the site's root (a site without sections).
  section_id text,
  space_id text NOT NULL,
  path text NOT NULL,
  condition text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT site_spaces_pkey PRIMARY KEY (id),
  CONSTRAINT site_spaces_site_fkey FOREIGN KEY (site_id) REFERENCES sites (id) ON DELETE CASCADE,
  CONSTRAINT site_spaces_section_fkey FOREIGN KEY (section_id) REFERENCES site_sections (id) ON DELETE CASCADE,
  -- The purge of a space removes it from every site.
  CONSTRAINT site_spaces_space_fkey FOREIGN KEY (space_id) REFERENCES spaces (id) ON DELETE CASCADE,
  CONSTRAINT site_spaces_path_key UNIQUE NULLS NOT DISTINCT (site_id, section_id, path),
  CONSTRAINT site_spaces_space_key UNIQUE NULLS NOT DISTINCT (site_id, section_id, space_id)
);
CREATE INDEX site_spaces_site_idx ON site_spaces (site_id, position);
CREATE INDEX site_spaces_section_idx ON site_spaces (section_id) WHERE section_id IS NOT NULL;
CREATE INDEX site_spaces_space_idx ON site_spaces (space_id);
CREATE INDEX site_spaces_organization_space_idx ON site_spaces (organization_id, space_id, site_id);

-- A space transferred to another organization (by itself, or with its
-- collection through the ON UPDATE CASCADE of spaces' parent key) leaves the
-- sites of the organization it left: a site holds only its own organization's spaces.
CREATE FUNCTION site_spaces_leave_with_space() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM site_spaces WHERE space_id = NEW.id AND organization_id <> NEW.organization_id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER site_spaces_leave_on_transfer
  AFTER UPDATE OF organization_id ON spaces
  FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION site_spaces_leave_with_space();

-- sites.site_spaces_count follows the site spaces added, removed or pointed
-- at another space, and the trash state of their spaces. (A site deleted with
-- its site spaces has no count left to keep; a purged space was already out
-- of the count.)
CREATE FUNCTION site_spaces_keep_site_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE sites SET site_spaces_count = site_spaces_count - 1
      WHERE id = OLD.site_id AND EXISTS (SELECT 1 FROM spaces WHERE id = OLD.space_id AND deleted_at IS NULL);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE sites SET site_spaces_count = site_spaces_count + 1
      WHERE id = NEW.site_id AND EXISTS (SELECT 1 FROM spaces WHERE id = NEW.space_id AND deleted_at IS NULL);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER site_spaces_count_on_change
  AFTER INSERT OR DELETE OR UPDATE OF site_id, space_id ON site_spaces
  FOR EACH ROW EXECUTE FUNCTION site_spaces_keep_site_count();

CREATE FUNCTION site_spaces_count_on_trash() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sites SET site_spaces_count = site_spaces_count + CASE WHEN NEW.deleted_at IS NULL THEN c.n ELSE -c.n END
    FROM (SELECT site_id, count(*)::integer AS n FROM site_spaces WHERE space_id = NEW.id GROUP BY site_id) AS c
    WHERE sites.id = c.site_id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER site_spaces_count_on_space_trash
  AFTER UPDATE OF deleted_at ON spaces
  FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION site_spaces_count_on_trash();

-- Share links of a `share-link` site. The key is a secret that is shown in
-- the link's URL: kept encrypted for showing, and hashed for lookup.
CREATE TABLE site_share_links (
  id text NOT NULL,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  name text NOT NULL DEFAULT '',
  active boolean NOT NULL DEFAULT true,
  key_hash bytea NOT NULL,
  key_encrypted text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  CONSTRAINT site_share_links_pkey PRIMARY KEY (id),
  CONSTRAINT site_share_links_site_fkey FOREIGN KEY (site_id) REFERENCES sites (id) ON DELETE CASCADE,
  CONSTRAINT site_share_links_key_hash_key UNIQUE (key_hash)
);
CREATE INDEX site_share_links_site_created_idx ON site_share_links (site_id, created_at, id);
CREATE INDEX site_share_links_organization_idx ON site_share_links (organization_id);

-- Defaults name a section or site space of the site; removing it falls back to the first.
ALTER TABLE sites ADD CONSTRAINT sites_default_section_fkey
  FOREIGN KEY (default_section_id) REFERENCES site_sections (id) ON DELETE SET NULL;
ALTER TABLE sites ADD CONSTRAINT sites_default_site_space_fkey
  FOREIGN KEY (default_site_space_id) REFERENCES site_spaces (id) ON DELETE SET NULL;
ALTER TABLE site_sections ADD CONSTRAINT site_sections_default_site_space_fkey
  FOREIGN KEY (default_site_space_id) REFERENCES site_spaces (id) ON DELETE SET NULL;

-- The organization's default content may now name one of its sites.
UPDATE organizations SET default_content_site_id = NULL WHERE default_content_site_id IS NOT NULL;
ALTER TABLE organizations ADD CONSTRAINT organizations_default_content_site_fkey
  FOREIGN KEY (default_content_site_id) REFERENCES sites (id) ON DELETE SET NULL;

-- Down Migration

ALTER TABLE organizations DROP CONSTRAINT organizations_default_content_site_fkey;
ALTER TABLE sites DROP CONSTRAINT sites_default_section_fkey;
ALTER TABLE sites DROP CONSTRAINT sites_default_site_space_fkey;
ALTER TABLE site_sections DROP CONSTRAINT site_sections_default_site_space_fkey;
DROP TABLE site_share_links;
DROP TRIGGER site_spaces_leave_on_transfer ON spaces;
DROP TRIGGER site_spaces_count_on_space_trash ON spaces;
DROP FUNCTION site_spaces_count_on_trash();
DROP FUNCTION site_spaces_leave_with_space();
DROP TABLE site_spaces;
DROP FUNCTION site_spaces_keep_site_count();
DROP TABLE site_sections;
DROP TABLE site_section_groups;
DROP TABLE sites;
