-- Up Migration

-- 0.202.0's draft and hidden items of a site's structure. A draft section,
-- section group or site space is shown to the site's members and in previews,
-- never to visitors; a hidden site space is reached by its address but left
-- out of the navigation. Every existing item stays live and listed. The
-- structure is read whole per site, so no index filters on these.
ALTER TABLE site_sections ADD COLUMN draft boolean NOT NULL DEFAULT false;
ALTER TABLE site_section_groups ADD COLUMN draft boolean NOT NULL DEFAULT false;
ALTER TABLE site_spaces ADD COLUMN draft boolean NOT NULL DEFAULT false;
ALTER TABLE site_spaces ADD COLUMN hidden boolean NOT NULL DEFAULT false;

-- Down Migration

ALTER TABLE site_spaces DROP COLUMN hidden;
ALTER TABLE site_spaces DROP COLUMN draft;
ALTER TABLE site_section_groups DROP COLUMN draft;
ALTER TABLE site_sections DROP COLUMN draft;
