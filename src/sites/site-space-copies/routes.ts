import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ref } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteSpaceParams, SiteSpaceSchema } from '../schemas.js';
import { duplicateSiteSpace } from './actions.js';

const DuplicateSiteSpaceBody = Type.Object(
  {
    draft: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Whether the copy, and a new section made for it, are drafts: shown to members and in previews only',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ draft: false }] },
);

/** Copies of a site's spaces, published in the site beside the original. */
export const siteSpaceCopyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/duplicate',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'duplicateSiteSpace',
        tags: ['site-spaces'],
        summary: 'Copy the space of a site space and publish the copy in the site (admins)',
        description:
          'Admins of the site who may create a space where the original is (else 403). The copy has the ' +
          'space’s settings and current content, as duplicateSpace makes it. It is published in a new section ' +
          'after the original’s when the original is its section’s only site space, else at the end of the ' +
          'original’s list. With `draft`, they are drafts until made live.',
        params: SiteSpaceParams,
        body: Type.Optional(DuplicateSiteSpaceBody),
        response: { 201: ref(SiteSpaceSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const callerId = callerOf(request).userId;
      const copy = await duplicateSiteSpace(
        app.context,
        callerId,
        organizationId,
        siteId,
        siteSpaceId,
        request.body ?? {},
      );
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'sites', siteId, 'site-spaces', copy.id))
        .send(copy);
    },
  );
};
