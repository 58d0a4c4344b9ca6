import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { perContext, type Context } from '../../context.js';
import { spaceContent } from '../../reader/page-content.js';
import type { OpenSite, ReaderAnswer } from '../reader/site-reader.js';
import { allSiteSpaces } from '../structure/tree.js';
import { countryOf, insightRow, type EventDetails, type EventPlace, type RecordedEventType } from './events.js';
import { insightsRecorder } from './recorder.js';
import type { ViewedPlace } from './page-parts.js';
import { dailyHash, todaysSalt, todaysSaltIfRead, type DailySalt } from './visitors.js';

const NOWHERE = { siteSection: null, siteSpace: null, space: null, revision: null, page: null };

/** The address the visitor asked for, on the host they asked (the site's own hostname, or the service's). */
function askedAddress(context: Context, request: FastifyRequest): string {
  return `${context.urls.protocol}//${request.host}${request.originalUrl}`;
}

/**
 * Records what a visitor of the published reader did, after the answer: the
 * visitor is the day's hash of their address and browser, never kept as
 * such; the site's own pages are no referrer. Never throws, never waits.
 */
export function recordReaderEvent(
  context: Context,
  request: FastifyRequest,
  open: OpenSite,
  type: RecordedEventType,
  viewed: ViewedPlace | undefined,
  details: EventDetails = {},
): void {
  const userAgent = request.headers['user-agent'] ?? '';
  const referrer = request.headers.referer;
  const header = context.config.insights.countryHeader?.toLowerCase();
  const country = header ? countryOf(String(request.headers[header] ?? '')) : null;
  const claims = open.visitor.claims;
  const visit = {
    visitorKey: `reader\u0000${request.ip}\u0000${userAgent.slice(0, 512)}`,
    sessionKey: undefined,
    userAgent,
    language: request.headers['accept-language']?.slice(0, 256) ?? null,
    referrer: referrer && URL.canParse(referrer) && new URL(referrer).host !== request.host ? referrer : null,
    country,
    authenticated: Object.keys(claims.signed).length + Object.keys(claims.unsigned).length > 0,
  };
  const place: EventPlace = {
    url: askedAddress(context, request),
    displayContext: 'site',
    siteShareKey: null,
    ...NOWHERE,
    ...viewed,
  };
  const at = context.clock.now();
  const site = { organizationId: open.site.organization_id, siteId: open.site.id };
  const row = (salt: DailySalt) => insightRow(site, type, at, { ...visit, salt }, place, details);
  // Most views come once the day's salt is read: they are made at once, without a promise each.
  const salt = todaysSaltIfRead(context);
  if (salt) insightsRecorder(context).recordMade(() => row(salt));
  else insightsRecorder(context).recordWhenMade(todaysSalt(context).then(row));
}

/** Feedback a visitor (the day's hash of address and browser) may send in a window, per instance. */
const FEEDBACK_PER_WINDOW = 10;
const FEEDBACK_WINDOW_MS = 10 * 60_000;
const feedbackCounts = perContext(
  () => new LRUCache<string, { count: number }>({ max: 100_000, ttl: FEEDBACK_WINDOW_MS }),
);

export interface FeedbackForm {
  space: string;
  page: string;
  rating: 'good' | 'ok' | 'bad';
  comment?: string | undefined;
}

/**
 * Whether a form post came from a page of this site: its browser names the
 * origin it was sent from (or says it is same-origin). A page elsewhere cannot
 * post feedback in a visitor's name.
 */
export function postedFromSite(context: Context, request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  if (origin === undefined) return site !== undefined;
  // The service's own address, or the site's hostname the form was read on.
  const { urls } = context;
  return origin === urls.origin || origin === `${urls.protocol}//${request.host}`;
}

/**
 * Records a visitor's feedback on a page of a site space they can see: false
 * when that page is not one of them, 'limited' past the visitor's rate.
 */
export async function recordFeedback(
  context: Context,
  request: FastifyRequest,
  open: OpenSite,
  form: FeedbackForm,
): Promise<'recorded' | 'not-found' | 'limited'> {
  const siteSpace = allSiteSpaces(open.structure).find((candidate) => candidate.space.id === form.space);
  const content = siteSpace && (await spaceContent(context, siteSpace.space));
  if (!siteSpace || !content?.tree.pages.get(form.page)) return 'not-found';
  const salt = await todaysSalt(context);
  const key = dailyHash(salt, open.site.id, 'feedback', request.ip);
  const counts = feedbackCounts(context);
  const seen = counts.get(key) ?? { count: 0 };
  if (seen.count >= FEEDBACK_PER_WINDOW) return 'limited';
  if (seen.count === 0) counts.set(key, seen);
  seen.count += 1;
  const comment = form.comment?.trim();
  recordReaderEvent(
    context,
    request,
    open,
    comment ? 'page_post_feedback_comment' : 'page_post_feedback',
    {
      siteSection: siteSpace.section_id ?? null,
      siteSpace: siteSpace.id,
      space: siteSpace.space.id,
      revision: content.point.id,
      page: form.page,
    },
    { feedback_rating: form.rating, ...(comment ? { feedback_comment: comment } : {}) },
  );
  return 'recorded';
}

/** Records a reader page's view (a 404 too, with no page) and hands the answer on. */
export function recordPageView(context: Context, request: FastifyRequest, open: OpenSite) {
  return (answer: ReaderAnswer): ReaderAnswer => {
    if (answer.kind === 'page') recordReaderEvent(context, request, open, 'page_view', answer.viewed);
    return answer;
  };
}
