-- Up Migration

-- A site space's customization overrides: the parts of the site's settings
-- that differ where the reader shows this site space (a partial settings
-- object, null when nothing is overridden). Kept on the row, so that the
-- structure the reader already loads carries them and they leave with it.
ALTER TABLE site_spaces ADD COLUMN customization jsonb;
ALTER TABLE site_spaces
  ADD CONSTRAINT site_spaces_customization_object_check
  CHECK (customization IS NULL OR jsonb_typeof(customization) = 'object');

-- Down Migration

ALTER TABLE site_spaces DROP CONSTRAINT site_spaces_customization_object_check;
ALTER TABLE site_spaces DROP COLUMN customization;
