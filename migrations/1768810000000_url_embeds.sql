-- Up Migration

-- What an outside address looks like as an embed (its oEmbed answer, or its
-- page's title and icon), kept until it expires so that a page with many
-- embeds does not fetch each one again. Only what was fetched without anyone's
-- credentials is kept, so one organization's answer is anyone's: the key is
-- the address alone (its SHA-256), not an organization.
CREATE TABLE url_embeds (
  url_sha256 bytea NOT NULL,
  url text NOT NULL,
  embed jsonb NOT NULL,
  fetched_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CONSTRAINT url_embeds_pkey PRIMARY KEY (url_sha256),
  CONSTRAINT url_embeds_url_length CHECK (char_length(url) <= 2048),
  CONSTRAINT url_embeds_sha256_length CHECK (octet_length(url_sha256) = 32),
  CONSTRAINT url_embeds_expiry CHECK (expires_at > fetched_at)
);

-- Expired entries are cleared a batch at a time, oldest expiry first.
CREATE INDEX url_embeds_expires_at_idx ON url_embeds (expires_at);

-- Down Migration

DROP TABLE url_embeds;
