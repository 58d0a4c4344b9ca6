-- Up Migration

-- Spaces and collections order their siblings as pages do: by a fractional
-- key (the `fractional-indexing` scheme) compared byte by byte, so an item
-- can go between two others without renumbering them.

-- The key after `key` (null: the first key), as generateKeyBetween(key, null)
-- makes it: the integer part, incremented. New items go last through it in
-- the same statement that inserts them.
CREATE FUNCTION position_after(key text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  digits constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  head text := substr(key, 1, 1);
  -- The head's place among A-Z a-z tells the integer part's length: a is 2, b 3, …; Z is 2, Y 3, ….
  head_index integer := strpos(digits, substr(key, 1, 1)) - 11;
  int_length integer;
  next_length integer;
  zeros text := '';
  digit integer;
BEGIN
  IF key IS NULL THEN RETURN 'a0'; END IF;
  IF head_index < 0 THEN RAISE EXCEPTION 'invalid position key: %', key; END IF;
  int_length := CASE WHEN head_index < 26 THEN 27 - head_index ELSE head_index - 24 END;
  FOR i IN REVERSE int_length..2 LOOP
    -- strpos is the digit's value plus one: the value of the next digit.
    digit := strpos(digits, substr(key, i, 1));
    IF digit = 62 THEN
      zeros := '0' || zeros;
    ELSE
      RETURN head || substr(key, 2, i - 2) || substr(digits, digit + 1, 1) || zeros;
    END IF;
  END LOOP;
  IF head = 'z' THEN RAISE EXCEPTION 'no position key after %', key; END IF;
  head_index := head_index + 1;
  next_length := CASE WHEN head_index < 26 THEN 27 - head_index ELSE head_index - 24 END;
  RETURN substr(digits, head_index + 11, 1) || CASE
    WHEN next_length > int_length THEN zeros || '0'
    WHEN next_length < int_length THEN substr(zeros, 2)
    ELSE zeros
  END;
END
$$;

-- The n-th key (from 0) of the sequence a0, a1, …, az, b00, …: existing rows
-- keep their order, ties broken by id as the order by (position, id) broke them.
CREATE FUNCTION pg_temp.position_at(n bigint) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  digits constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  width integer := 1;
  capacity bigint := 62;
  rest bigint := n;
  key text := '';
BEGIN
  WHILE rest >= capacity LOOP
    rest := rest - capacity;
    width := width + 1;
    capacity := capacity * 62;
  END LOOP;
  FOR i IN 1..width LOOP
    key := substr(digits, (rest % 62)::integer + 1, 1) || key;
    rest := rest / 62;
  END LOOP;
  RETURN chr(ascii('a') + width - 1) || key;
END
$$;

CREATE TEMPORARY TABLE sibling_keys AS
SELECT kind, id,
  pg_temp.position_at(row_number() OVER (PARTITION BY organization_id, parent_id ORDER BY position, id) - 1) AS key
FROM (
  SELECT 'space' AS kind, id, organization_id, parent_id, position FROM spaces
  UNION ALL
  SELECT 'collection', id, organization_id, parent_id, position FROM collections
) AS siblings;

DROP INDEX spaces_siblings_idx;
DROP INDEX collections_siblings_idx;
ALTER TABLE collections ALTER COLUMN position DROP DEFAULT;
ALTER TABLE spaces ALTER COLUMN position DROP DEFAULT;
ALTER TABLE collections ALTER COLUMN position TYPE text COLLATE "C" USING '';
ALTER TABLE spaces ALTER COLUMN position TYPE text COLLATE "C" USING '';
UPDATE collections SET position = sibling_keys.key FROM sibling_keys
WHERE sibling_keys.kind = 'collection' AND sibling_keys.id = collections.id;
UPDATE spaces SET position = sibling_keys.key FROM sibling_keys
WHERE sibling_keys.kind = 'space' AND sibling_keys.id = spaces.id;
DROP TABLE sibling_keys;
ALTER TABLE collections ALTER COLUMN position SET DEFAULT 'a0';
ALTER TABLE spaces ALTER COLUMN position SET DEFAULT 'a0';

CREATE INDEX collections_siblings_idx ON collections (organization_id, parent_id, position);
CREATE INDEX spaces_siblings_idx ON spaces (organization_id, parent_id, position) WHERE deleted_at IS NULL;

-- Down Migration

CREATE TEMPORARY TABLE sibling_numbers AS
SELECT kind, id, row_number() OVER (PARTITION BY organization_id, parent_id ORDER BY position, id) AS n
FROM (
  SELECT 'space' AS kind, id, organization_id, parent_id, position FROM spaces
  UNION ALL
  SELECT 'collection', id, organization_id, parent_id, position FROM collections
) AS siblings;

DROP INDEX spaces_siblings_idx;
DROP INDEX collections_siblings_idx;
ALTER TABLE collections ALTER COLUMN position DROP DEFAULT;
ALTER TABLE spaces ALTER COLUMN position DROP DEFAULT;
ALTER TABLE collections ALTER COLUMN position TYPE double precision USING 0;
ALTER TABLE spaces ALTER COLUMN position TYPE double precision USING 0;
UPDATE collections SET position = sibling_numbers.n FROM sibling_numbers
WHERE sibling_numbers.kind = 'collection' AND sibling_numbers.id = collections.id;
UPDATE spaces SET position = sibling_numbers.n FROM sibling_numbers
WHERE sibling_numbers.kind = 'space' AND sibling_numbers.id = spaces.id;
DROP TABLE sibling_numbers;
ALTER TABLE collections ALTER COLUMN position SET DEFAULT 0;
ALTER TABLE spaces ALTER COLUMN position SET DEFAULT 0;

CREATE INDEX collections_siblings_idx ON collections (organization_id, parent_id, position);
CREATE INDEX spaces_siblings_idx ON spaces (organization_id, parent_id, position) WHERE deleted_at IS NULL;

DROP FUNCTION position_after(text);
