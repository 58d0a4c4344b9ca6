-- Up Migration

-- Where a site's custom visitor-auth backend signs visitors out (0.202.0's
-- logoutURL): an absolute http(s) address, like the fallback beside it.
ALTER TABLE sites ADD COLUMN auth_logout_url text;
ALTER TABLE sites
  ADD CONSTRAINT sites_auth_logout_url_check
  CHECK (auth_logout_url IS NULL OR (char_length(auth_logout_url) <= 2048 AND auth_logout_url ~* '^https?://'));

-- Down Migration

ALTER TABLE sites DROP CONSTRAINT sites_auth_logout_url_check;
ALTER TABLE sites DROP COLUMN auth_logout_url;
