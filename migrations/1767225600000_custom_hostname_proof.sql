-- Up Migration

-- A site's hostname is a claim until a DNS TXT record proves it: setting it
-- issues a token, and the hostname routes only once
-- `_quire-challenge.<hostname>` holds that token (hostname_verified_at).
-- Several sites may claim one hostname; at most one holds it live.
ALTER TABLE sites
  ADD COLUMN hostname_token text,
  ADD COLUMN hostname_status text,
  ADD COLUMN hostname_checked_at timestamptz,
  ADD COLUMN hostname_verified_at timestamptz,
  ADD CONSTRAINT sites_hostname_claim_check CHECK (
    (hostname IS NULL AND hostname_token IS NULL AND hostname_status IS NULL AND hostname_verified_at IS NULL)
    OR (hostname IS NOT NULL AND hostname_token IS NOT NULL AND hostname_status IS NOT NULL)
  ),
  ADD CONSTRAINT sites_hostname_status_check CHECK (
    hostname_status IN ('pending', 'live', 'missing', 'mismatch', 'contested', 'dns-error')
  ),
  ADD CONSTRAINT sites_hostname_live_check CHECK ((hostname_status = 'live') = (hostname_verified_at IS NOT NULL));

-- Hostnames set before were never proven: each becomes a pending claim, in
-- the normal form (lower case, no trailing dot), with a token of its own.
UPDATE sites
  SET hostname = rtrim(lower(hostname), '.'),
      hostname_token = replace(gen_random_uuid()::text, '-', ''),
      hostname_status = 'pending'
  WHERE hostname IS NOT NULL;

DROP INDEX sites_hostname_key;
-- One live site per hostname; pending claims of it may be many.
CREATE UNIQUE INDEX sites_live_hostname_key ON sites (hostname) WHERE hostname_verified_at IS NOT NULL;
CREATE INDEX sites_hostname_idx ON sites (hostname) WHERE hostname IS NOT NULL;
-- The periodic check takes the claims checked longest ago first.
CREATE INDEX sites_hostname_checked_idx ON sites (hostname_checked_at NULLS FIRST) WHERE hostname IS NOT NULL;

-- Down Migration

DROP INDEX sites_hostname_checked_idx;
DROP INDEX sites_hostname_idx;
DROP INDEX sites_live_hostname_key;
-- Only proven hostnames survive the way back: the old column knew no claims.
UPDATE sites SET hostname = NULL WHERE hostname_verified_at IS NULL;
CREATE UNIQUE INDEX sites_hostname_key ON sites (lower(hostname)) WHERE hostname IS NOT NULL;
ALTER TABLE sites
  DROP CONSTRAINT sites_hostname_live_check,
  DROP CONSTRAINT sites_hostname_status_check,
  DROP CONSTRAINT sites_hostname_claim_check,
  DROP COLUMN hostname_verified_at,
  DROP COLUMN hostname_checked_at,
  DROP COLUMN hostname_status,
  DROP COLUMN hostname_token;
