-- Up Migration

-- A site's redirects: a source path of the published site sent on to a place
-- of the site (a section, a site space, a page) or an address outside it. A
-- source is unique per site and state (one live and one draft at most), and
-- a trailing `*` makes it a prefix. The reader looks a path up in one
-- indexed query (site, draft, source = any of its prefixes).
CREATE TABLE site_redirects (
  id text NOT NULL,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  source text NOT NULL,
  draft boolean NOT NULL,
  capture_wildcard boolean NOT NULL,
  permanent boolean NOT NULL,
  destination_kind text NOT NULL,
  site_section_id text,
  site_space_id text,
  page_id text,
  url text,
  created_at timestamptz NOT NULL,
  -- Null until the redirect is changed; changed_at is it or created_at, what orderBy=updatedAt sorts on.
  updated_at timestamptz,
  changed_at timestamptz NOT NULL,
  CONSTRAINT site_redirects_pkey PRIMARY KEY (id),
  CONSTRAINT site_redirects_site_fkey FOREIGN KEY (organization_id, site_id)
    REFERENCES sites (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  -- A redirect to a section or site space goes with it: it would lead nowhere.
  CONSTRAINT site_redirects_section_fkey FOREIGN KEY (site_section_id) REFERENCES site_sections (id) ON DELETE CASCADE,
  CONSTRAINT site_redirects_site_space_fkey FOREIGN KEY (site_space_id) REFERENCES site_spaces (id) ON DELETE CASCADE,
  CONSTRAINT site_redirects_source_key UNIQUE (site_id, draft, source),
  CONSTRAINT site_redirects_source_length CHECK (char_length(source) BETWEEN 2 AND 512),
  CONSTRAINT site_redirects_url_length CHECK (char_length(url) <= 2048),
  CONSTRAINT site_redirects_destination_kind_enum
    CHECK (destination_kind IN ('site-section', 'site-space', 'site-page', 'external')),
  CONSTRAINT site_redirects_destination_fields CHECK (
    (destination_kind = 'site-section') = (site_section_id IS NOT NULL)
    AND (destination_kind IN ('site-space', 'site-page')) = (site_space_id IS NOT NULL)
    AND (destination_kind = 'site-page') = (page_id IS NOT NULL)
    AND (destination_kind = 'external') = (url IS NOT NULL)
  )
);
CREATE INDEX site_redirects_site_created_idx ON site_redirects (organization_id, site_id, draft, created_at, id);
CREATE INDEX site_redirects_site_changed_idx ON site_redirects (organization_id, site_id, draft, changed_at, id);
CREATE INDEX site_redirects_site_source_idx ON site_redirects (organization_id, site_id, draft, source);
CREATE INDEX site_redirects_section_idx ON site_redirects (site_section_id) WHERE site_section_id IS NOT NULL;
CREATE INDEX site_redirects_site_space_idx ON site_redirects (site_space_id) WHERE site_space_id IS NOT NULL;

-- Down Migration

DROP TABLE site_redirects;
