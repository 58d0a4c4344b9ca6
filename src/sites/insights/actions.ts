import { BadRequestError } from '../../core/errors.js';
import type { Page } from '../../core/pagination.js';
import type { Context } from '../../context.js';
import { findSiteAsAdmin, findSiteAsMember } from '../access.js';
import { aggregateEvents, rangeOf } from './aggregate.js';
import {
  insightRow,
  RECORDED_EVENT_TYPES,
  type EventDetails,
  type InsightRow,
  type RecordedEventType,
} from './events.js';
import { countVisitorsBySignIn, insertInsightEvents } from './queries.js';
import type {
  AggregateEventsBody,
  AggregationResult,
  TrackedEvent,
  TrackEventsBody,
  VisitorSegment,
} from './schemas.js';
import { todaysSalt } from './visitors.js';

/** How far an event's own timestamp may be from now, as the spec says. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;
const SEGMENT_DAYS = 30;
const DAY_MS = 86_400_000;

const isRecorded = (type: string): type is RecordedEventType =>
  (RECORDED_EVENT_TYPES as readonly string[]).includes(type);

/**
 * Events an admin reports for the site's visitors (from a server or proxy of
 * their own), written at once, all or none: a write to the site's data, as
 * its other settings are. Visitors and sessions are kept as
 * the day's salted hashes of the ids given; the IP address, cookies, user
 * agent and claims given are not kept.
 */
export async function trackSiteEvents(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  body: TrackEventsBody,
): Promise<void> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Tracking events');
  const now = context.clock.now();
  // Every event is checked before the day's salt is read, which may write it: a refused call changes nothing.
  const checked = body.events.map((event, index) => {
    const path = `body/events/${index}`;
    if (!isRecorded(event.type))
      throw new BadRequestError(
        `${path}/type ${event.type} events are not recorded here: only ${RECORDED_EVENT_TYPES.join(', ')}`,
      );
    const at = event.timestamp ? new Date(event.timestamp) : now;
    if (Math.abs(at.getTime() - now.getTime()) > MAX_CLOCK_SKEW_MS)
      throw new BadRequestError(`${path}/timestamp must be within 5 minutes of the current time`);
    if (!/^https?:/i.test(event.location.url))
      throw new BadRequestError(`${path}/location/url must be an http(s) address`);
    return { event, type: event.type, at, details: detailsOf(event, event.type, path) };
  });
  const salt = await todaysSalt(context);
  const rows: InsightRow[] = checked.map(({ event, type, at, details }) => {
    const { session, location } = event;
    const claims = session.visitorAuthClaims ?? {};
    return insightRow(
      { organizationId, siteId },
      type,
      at,
      {
        salt,
        visitorKey: `api\u0000${session.visitorId}`,
        sessionKey: `api\u0000${session.sessionId}`,
        userAgent: session.userAgent,
        language: session.language,
        referrer: session.referrer,
        // No address is read for a country: that needs a GeoIP database, and the address is the visitor's.
        country: null,
        authenticated: Object.keys(claims).length > 0 || Boolean(session.visitorAuthToken),
      },
      {
        url: location.url,
        displayContext: location.displayContext ?? 'site',
        siteSection: location.siteSection,
        siteSpace: location.siteSpace,
        siteShareKey: location.siteShareKey,
        space: location.space,
        revision: location.revision,
        page: location.page,
      },
      details,
    );
  });
  await insertInsightEvents(context.db, rows);
}

/** What the event's type requires of it, kept as the row's details. */
function detailsOf(event: TrackedEvent, type: RecordedEventType, path: string): EventDetails {
  const required = <T>(value: T | undefined, field: string): T => {
    if (value === undefined) throw new BadRequestError(`${path} must have required property '${field}'`);
    return value;
  };
  switch (type) {
    case 'search_type_query':
      return { search_query: required(event.query, 'query') };
    case 'search_open_result': {
      const result = required(event.result, 'result');
      return {
        search_query: required(event.query, 'query'),
        search_result_record_id: 'recordId' in result ? result.recordId : null,
      };
    }
    case 'page_post_feedback':
      return { feedback_rating: required(event.feedback, 'feedback').rating };
    case 'page_post_feedback_comment': {
      const feedback = required(event.feedback, 'feedback');
      return { feedback_rating: feedback.rating, feedback_comment: required(feedback.comment, 'feedback/comment') };
    }
    case 'link_click': {
      const link = required(event.link, 'link');
      const target = link.target.url && URL.canParse(link.target.url) ? new URL(link.target.url).hostname : null;
      return { link_position: link.position, link_target_kind: link.target.kind, link_target_domain: target };
    }
    case 'page_markdown_request':
      return { markdown_source: event.markdownSource ?? null };
    case 'llms_request':
      return { llms_variant: required(event.llmsVariant, 'llmsVariant') };
    default:
      return {};
  }
}

/** The spec's aggregation of the site's events, for members of its organization. */
export async function aggregateSiteEvents(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  body: AggregateEventsBody,
): Promise<AggregationResult> {
  await findSiteAsMember(context, organizationId, siteId, callerId);
  return aggregateEvents(context.db, organizationId, siteId, body, rangeOf(body.range, context.clock.now()));
}

/**
 * Visitors grouped as far as insights know them without claims: signed in or
 * not, over the last 30 days; a group without events is left out.
 */
export async function listSiteVisitorSegments(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
): Promise<Page<VisitorSegment>> {
  await findSiteAsMember(context, organizationId, siteId, callerId);
  const from = new Date(context.clock.now().getTime() - SEGMENT_DAYS * DAY_MS);
  const rows = await countVisitorsBySignIn(context.db, organizationId, siteId, from);
  const items = rows.map((row) => ({
    title: row.authenticated ? 'Signed-in visitors' : 'Anonymous visitors',
    claims: {},
    events: row.events,
    visitors: row.visitors,
    sessions: row.sessions,
  }));
  return { count: items.length, items };
}
