import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, ListEnvelope, ListQuery } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { searchSite } from './actions.js';
import { SiteSearchBody, SiteSearchParams } from './schemas.js';
import { ShareKeyOnlyQuery } from '../schemas.js';
import { SearchSpaceResult } from '../../search/result-schemas.js';

const SiteSearchQuery = Type.Object(
  { ...ListQuery, shareKey: ShareKeyOnlyQuery.properties.shareKey },
  { additionalProperties: false },
);

/** Search of what a site publishes, for its audience: what the published reader's search box asks. */
export const siteSearchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/search',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'searchSiteContent',
        tags: ['sites'],
        summary: 'Pages of the site’s published spaces matching a query, grouped by space, best first',
        description:
          'For the site’s audience: its organization’s members, and visitors of a published site its ' +
          'visibility opens to them (`shareKey` for a share-link site); else 404. Only published site spaces ' +
          'are searched, in their spaces’ current content, with a space’s query language; `scope` picks the ' +
          'site spaces, and one outside the published structure is a 400; `restrictTo` narrows the default ' +
          'scope to `currentSiteSpace` alone, or to the rest of it without that site space.',
        params: SiteSearchParams,
        querystring: SiteSearchQuery,
        body: SiteSearchBody,
        response: { 200: ListEnvelope(SearchSpaceResult), ...errorResponses },
      },
    },
    async (request) => searchSite(app.context, callerOf(request).userId, request.params, request.body, request.query),
  );
};
