-- Up Migration

-- What visitors did on a published site, one row per event, without tracking
-- people: no cookie, no IP address, no user agent and no claims are kept.
-- visitor_hash and session_hash are salted hashes whose salt lives one day in
-- site_insight_salts (and never in this table), so yesterday's visitors
-- cannot be linked to today's nor traced back. Addresses are kept without
-- their query (share keys and tokens travel there), UTM parameters apart.
-- Rows older than INSIGHTS_RETENTION_DAYS are removed by the purge.
CREATE TABLE site_insight_events (
  id bigint GENERATED ALWAYS AS IDENTITY,
  organization_id text NOT NULL,
  site_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  event_type text NOT NULL,
  display_context text NOT NULL,
  url text NOT NULL,
  url_path text NOT NULL,
  site_section_id text,
  site_space_id text,
  site_share_key text,
  space_id text,
  revision_id text,
  page_id text,
  visitor_hash text NOT NULL,
  session_hash text NOT NULL,
  authenticated boolean NOT NULL,
  referrer text,
  referrer_domain text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  utm_term text,
  utm_content text,
  country text,
  language text,
  browser text NOT NULL,
  os text NOT NULL,
  device text NOT NULL,
  bot text,
  search_query text,
  search_result_record_id text,
  feedback_rating text,
  feedback_comment text,
  link_position text,
  link_target_kind text,
  link_target_domain text,
  markdown_source text,
  llms_variant text,
  CONSTRAINT site_insight_events_pkey PRIMARY KEY (id),
  CONSTRAINT site_insight_events_site_fkey FOREIGN KEY (organization_id, site_id)
    REFERENCES sites (organization_id, id) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT site_insight_events_type_enum CHECK (event_type IN (
    'page_view', 'page_markdown_request', 'search_open', 'search_type_query', 'search_open_result',
    'page_post_feedback', 'page_post_feedback_comment', 'link_click', 'llms_request', 'mcp_request', 'rss_request'
  )),
  CONSTRAINT site_insight_events_context_enum CHECK (display_context IN ('site', 'server', 'embed', 'mcp')),
  CONSTRAINT site_insight_events_url_length CHECK (char_length(url) <= 2048 AND char_length(url_path) <= 2048),
  CONSTRAINT site_insight_events_rating_enum CHECK (feedback_rating IN ('bad', 'ok', 'good')),
  CONSTRAINT site_insight_events_comment_length CHECK (char_length(feedback_comment) BETWEEN 1 AND 512),
  CONSTRAINT site_insight_events_query_length CHECK (char_length(search_query) <= 512),
  CONSTRAINT site_insight_events_country_format CHECK (country ~ '^[A-Z]{2}$')
);
-- Every aggregation reads one site over a time range.
CREATE INDEX site_insight_events_site_time_idx ON site_insight_events (organization_id, site_id, occurred_at);
-- The purge removes the oldest rows of every site.
CREATE INDEX site_insight_events_time_idx ON site_insight_events (occurred_at);

-- The day's salt of the visitor and session hashes, shared by every instance;
-- a day's row is deleted once the day is over.
CREATE TABLE site_insight_salts (
  day date NOT NULL,
  salt bytea NOT NULL,
  CONSTRAINT site_insight_salts_pkey PRIMARY KEY (day),
  CONSTRAINT site_insight_salts_length CHECK (octet_length(salt) = 32)
);

-- Down Migration

DROP TABLE site_insight_salts;
DROP TABLE site_insight_events;
