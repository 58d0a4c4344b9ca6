import { LRUCache } from 'lru-cache';
import type { Insertable } from 'kysely';
import type { SiteInsightEvents } from '../../db/tables.generated.js';
import { browserTraits, dailyHash, sessionWindow, type DailySalt } from './visitors.js';

export type InsightRow = Insertable<SiteInsightEvents>;

/** The event types recorded here; the others are hosted AI, ads and API-client features this service does not have. */
export const RECORDED_EVENT_TYPES = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'link_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;
export type RecordedEventType = (typeof RECORDED_EVENT_TYPES)[number];

const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
const MAX_UTM_LENGTH = 256;

/** An address as kept: without its query and fragment (share keys and tokens travel there), its UTM parameters apart. */
export function addressParts(address: string): AddressParts {
  let parts = partsByAddress.get(address);
  if (!parts) {
    parts = readAddressParts(address);
    partsByAddress.set(address, parts);
  }
  return parts;
}

type AddressParts = ReturnType<typeof readAddressParts>;
/** The addresses last viewed, read once: a site's pages are viewed again and again. Rows copy the parts. */
const partsByAddress = new LRUCache<string, AddressParts>({ max: 2_000 });

function readAddressParts(address: string) {
  const url = new URL(address);
  const utm = Object.fromEntries(
    UTM_FIELDS.map((field) => [`utm_${field}`, url.searchParams.get(`utm_${field}`)?.slice(0, MAX_UTM_LENGTH) || null]),
  ) as Record<`utm_${(typeof UTM_FIELDS)[number]}`, string | null>;
  return { url: `${url.origin}${url.pathname}`.slice(0, 2048), url_path: url.pathname.slice(0, 2048), ...utm };
}

/** A referrer as kept: its origin and path, and its host; nothing for none or one that is not a web address. */
export function referrerParts(referrer: string | null | undefined) {
  if (!referrer || !URL.canParse(referrer)) return { referrer: null, referrer_domain: null };
  const url = new URL(referrer);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { referrer: null, referrer_domain: null };
  return { referrer: `${url.origin}${url.pathname}`.slice(0, 2048), referrer_domain: url.hostname };
}

/** A two-letter country from the operator's trusted header; unknown values (`XX`, `T1`) count as unknown. */
export function countryOf(value: string | undefined): string | null {
  if (!value || !/^[A-Za-z]{2}$/.test(value)) return null;
  const country = value.toUpperCase();
  return country === 'XX' ? null : country;
}

/** A language tag, as a browser names it (`en`, `pt-BR`); anything else is unknown. */
export function languageOf(value: string | null | undefined): string | null {
  const first = value?.split(',')[0]?.split(';')[0]?.trim() ?? '';
  return /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/.test(first) ? first : null;
}

/** Who did something, as far as insights know them: pseudonyms for the day, and what their browser says. */
export interface Visit {
  salt: DailySalt;
  /** Stands for the visitor within the day (hashed again with the salt before it is kept). */
  visitorKey: string;
  /** Stands for the session; the visitor's half hour when none is given. */
  sessionKey: string | undefined;
  userAgent: string;
  language: string | null;
  referrer: string | null;
  country: string | null;
  authenticated: boolean;
}

/** Where an event happened, as the spec's location names it. */
export interface EventPlace {
  url: string;
  displayContext: 'site' | 'server' | 'embed' | 'mcp';
  siteSection: string | null;
  siteSpace: string | null;
  siteShareKey: string | null;
  space: string | null;
  revision: string | null;
  page: string | null;
}

/** What one event type adds to the row. */
export type EventDetails = Partial<
  Pick<
    InsightRow,
    | 'search_query'
    | 'search_result_record_id'
    | 'feedback_rating'
    | 'feedback_comment'
    | 'link_position'
    | 'link_target_kind'
    | 'link_target_domain'
    | 'markdown_source'
    | 'llms_variant'
  >
>;

/** The row an event is kept as. */
export function insightRow(
  site: { organizationId: string; siteId: string },
  type: RecordedEventType,
  at: Date,
  visit: Visit,
  place: EventPlace,
  details: EventDetails,
): InsightRow {
  const traits = browserTraits(visit.userAgent);
  return {
    organization_id: site.organizationId,
    site_id: site.siteId,
    occurred_at: at,
    event_type: type,
    display_context: place.displayContext,
    ...addressParts(place.url),
    site_section_id: place.siteSection,
    site_space_id: place.siteSpace,
    site_share_key: place.siteShareKey,
    space_id: place.space,
    revision_id: place.revision,
    page_id: place.page,
    visitor_hash: dailyHash(visit.salt, site.siteId, 'visitor', visit.visitorKey),
    session_hash: dailyHash(
      visit.salt,
      site.siteId,
      'session',
      visit.sessionKey ?? `${visit.visitorKey}\u0000${sessionWindow(at)}`,
    ),
    authenticated: visit.authenticated,
    ...referrerParts(visit.referrer),
    country: visit.country,
    language: languageOf(visit.language),
    ...traits,
    ...details,
  };
}
