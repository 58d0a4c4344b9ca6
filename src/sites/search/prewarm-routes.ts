import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { ShareKeyOnlyQuery, SiteParams } from '../schemas.js';
import { prewarmSiteSearch } from './prewarm.js';

/** The hint a site's search box sends when it opens: see prewarm.ts for what it does here. */
export const siteSearchPrewarmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/search/prewarm',
    {
      config: { scope: 'site:search' },
      schema: {
        operationId: 'prewarmSiteSearch',
        tags: ['sites'],
        summary: 'Get the site’s search ready for searches to come',
        description:
          'For the site’s audience, as searchSiteContent (else 404). GitBook hints a search backend; here ' +
          'the instance that answers reads the site into its reader cache and brings the search rows of the ' +
          'site’s published spaces into the database’s memory, once a minute per site at most. Always 204.',
        params: SiteParams,
        querystring: ShareKeyOnlyQuery,
        response: { 204: Type.Null({ description: 'Search cache warmup accepted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const callerId = callerOf(request).userId;
      await prewarmSiteSearch(app.context, callerId, organizationId, siteId, request.query.shareKey);
      return noContent(reply, 204);
    },
  );
};
