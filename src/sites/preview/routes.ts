import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteParams } from '../schemas.js';
import { sitePreviewUrl } from './actions.js';
import { MAX_CLAIMS_LENGTH } from './rison.js';

const PreviewQuery = Type.Object(
  {
    siteSpace: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'The site space to open on; the default one if not' }),
    ),
    claims: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: MAX_CLAIMS_LENGTH,
        description: 'The visitor’s claims, as a flat Rison object such as (isBeta:!t,plan:pro)',
      }),
    ),
    draft: Type.Optional(Type.Boolean({ default: true, description: 'Whether draft items show; true if not given' })),
    target: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'An address of the site to open on (or a path under it)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Previews of a site as it would be published, through signed addresses of the published reader. */
export const previewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/preview',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSitePublishingPreviewById',
        tags: ['site-preview'],
        summary: 'A signed address, valid one hour, that previews the site as it would be published',
        description:
          'Members of the site. The address opens this site only, in the published reader, for one hour, ' +
          'published or not and whatever its visibility: with its draft items unless `draft=false`, as a ' +
          'visitor with `claims` sees it, at `siteSpace` or `target` (an address of the site). Whoever holds ' +
          'the address sees the preview, so share it as you would the site’s content.',
        params: SiteParams,
        querystring: PreviewQuery,
        response: { 200: Type.Object({ url: Type.String({ format: 'uri' }) }), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return sitePreviewUrl(app.context, callerOf(request).userId, organizationId, siteId, request.query);
    },
  );
};
