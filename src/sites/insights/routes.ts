import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteParams } from '../schemas.js';
import { aggregateSiteEvents, listSiteVisitorSegments, trackSiteEvents } from './actions.js';
import { RECORDED_EVENT_TYPES } from './events.js';
import { insightsRecorder } from './recorder.js';
import {
  AggregateEventsBody,
  AggregationResult,
  MAX_EVENTS_PER_CALL,
  TrackEventsBody,
  VisitorSegmentSchema,
} from './schemas.js';

const tags = ['site-insights'];

/**
 * A site's insights: what its visitors did, counted without tracking people.
 * The published reader records page views, searches and feedback itself; no
 * cookie is set and no address is kept (see visitors.ts).
 */
export const siteInsightsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // What the reader queued is written before the database closes.
  app.addHook('onClose', async () => insightsRecorder(app.context).close());

  app.post(
    '/orgs/:organizationId/sites/:siteId/insights/events',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'trackEventsInSiteById',
        tags,
        summary: 'Record events of the site’s visitors, from a server of your own (admins)',
        description:
          `Admins of the organization; at most ${MAX_EVENTS_PER_CALL} events, all written or none. Recorded ` +
          `types: ${RECORDED_EVENT_TYPES.join(', ')}; the others (hosted AI, ads, the API client) are a 400. ` +
          'A `timestamp` must be within 5 minutes of now. Without tracking people: `visitorId` and `sessionId` ' +
          'are kept as hashes under a salt that changes daily and is then deleted; `ip`, `cookies`, the user ' +
          'agent (read for browser, system, device and bot) and claims (only whether there are any) are not ' +
          'kept, nor an address’s query but its `utm_*` parameters. No country is derived from an address here.',
        params: SiteParams,
        body: TrackEventsBody,
        response: { 204: Type.Null({ description: 'Events have been tracked.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await trackSiteEvents(app.context, callerOf(request).userId, organizationId, siteId, request.body);
      return noContent(reply, 204);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/insights/events/aggregate',
    {
      config: { scope: 'site:insights:read' },
      schema: {
        operationId: 'aggregateSiteEvents',
        tags,
        summary: 'Count a site’s events, grouped and filtered over a time range (members)',
        description:
          'Members of the organization. Each grouped column, then each selected one (`eventsCount` when none ' +
          'is), comes back as a column of values, a row per group. A 404 is a `page_view` whose `page` is null. ' +
          'Visitors are counted per day (their pseudonym changes daily) and sessions per half hour of a visitor ' +
          'for the reader. Columns of what is not recorded here (geolocation points, claims, hosted AI, ads, ' +
          'API client, link target values) are a 400 naming why; `eventPageNotFoundType` is always null, and ' +
          '`visitorGeoCountry` is known only where the operator names a trusted header (INSIGHTS_COUNTRY_HEADER).',
        params: SiteParams,
        body: AggregateEventsBody,
        response: { 200: AggregationResult, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return aggregateSiteEvents(app.context, callerOf(request).userId, organizationId, siteId, request.body);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/insights/visitor-segments',
    {
      config: { scope: 'site:insights:read' },
      schema: {
        operationId: 'listSiteVisitorSegments',
        tags,
        summary: 'List the site’s visitors by segment over the last 30 days (members)',
        description:
          'Members of the organization. Claims are not kept, so the segments are what is known without them: ' +
          'anonymous visitors and signed-in ones (with `claims` empty), each with its events, visitors and ' +
          'sessions; a segment without events is left out.',
        params: SiteParams,
        response: { 200: ListEnvelope(VisitorSegmentSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return listSiteVisitorSegments(app.context, callerOf(request).userId, organizationId, siteId);
    },
  );
};
