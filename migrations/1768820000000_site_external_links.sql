-- Up Migration

-- A site's external links: entries of a sectioned site's navigation that open
-- an outside address. They sit at the root or in a section group, ordered
-- with the sections and groups beside them (position), and are read with the
-- rest of the structure in one indexed query per site.
CREATE TABLE site_external_links (
  id text NOT NULL,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  group_id text,
  title text NOT NULL,
  localized_title jsonb,
  description text,
  localized_description jsonb,
  icon text,
  url text NOT NULL,
  draft boolean NOT NULL,
  condition text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz,
  CONSTRAINT site_external_links_pkey PRIMARY KEY (id),
  CONSTRAINT site_external_links_site_fkey FOREIGN KEY (organization_id, site_id)
    REFERENCES sites (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  -- As a section does: a link whose group goes moves to the root.
  CONSTRAINT site_external_links_group_fkey FOREIGN KEY (group_id)
    REFERENCES site_section_groups (id) ON DELETE SET NULL,
  CONSTRAINT site_external_links_title_length CHECK (char_length(title) BETWEEN 2 AND 128),
  CONSTRAINT site_external_links_description_length CHECK (char_length(description) <= 256),
  CONSTRAINT site_external_links_icon_length CHECK (char_length(icon) <= 50),
  CONSTRAINT site_external_links_url_length CHECK (char_length(url) <= 2048),
  CONSTRAINT site_external_links_condition_length CHECK (char_length(condition) <= 1024)
);
CREATE INDEX site_external_links_site_idx ON site_external_links (organization_id, site_id);
CREATE INDEX site_external_links_group_idx ON site_external_links (group_id) WHERE group_id IS NOT NULL;

-- Down Migration

DROP TABLE site_external_links;
