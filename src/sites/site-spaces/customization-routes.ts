import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { GetCustomizationQuery, SiteCustomizationSettingsResponse as Settings } from '../customization/schemas.js';
import { SiteSpaceParams } from '../schemas.js';
import {
  getSiteSpaceCustomization,
  overrideSiteSpaceCustomization,
  removeSiteSpaceCustomization,
} from './customization-actions.js';
import { SiteSpaceCustomizationBody } from './customization-schemas.js';

export const siteSpaceCustomizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteSpaceCustomizationById',
        tags: ['sites'],
        summary: 'Get how a site space looks: the site’s customization with the site space’s overrides',
        description:
          'Members of any role. The settings the published reader applies to this site space’s pages: the ' +
          'site’s, with what the site space overrides over them.',
        params: SiteSpaceParams,
        querystring: GetCustomizationQuery,
        response: { 200: Settings, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return getSiteSpaceCustomization(app.context, callerOf(request).userId, organizationId, siteId, siteSpaceId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'overrideSiteSpaceCustomizationById',
        tags: ['sites'],
        summary: 'Override parts of the site’s customization for one site space (admins)',
        description:
          'Admins of the organization. A field left out keeps its override, null resets it to the site’s, ' +
          'any other value overrides it; colours, the favicon and lists of links are replaced whole. The ' +
          'limits are those of the site’s settings, and a header link’s `condition` may name only claims ' +
          'of the site’s adaptive schema (400). Answers the settings as the reader now applies them.',
        params: SiteSpaceParams,
        body: SiteSpaceCustomizationBody,
        response: { 200: Settings, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return overrideSiteSpaceCustomization(
        app.context,
        callerOf(request).userId,
        organizationId,
        siteId,
        siteSpaceId,
        request.body,
      );
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteSpaceCustomizationById',
        tags: ['sites'],
        summary: 'Remove a site space’s overrides: it looks as the site does again (admins)',
        description: 'Admins of the organization. 205 when there were overrides, 204 when there were none.',
        params: SiteSpaceParams,
        response: {
          204: Type.Null({ description: 'There were no overrides' }),
          205: Type.Null({ description: 'Overrides removed' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const existed = await removeSiteSpaceCustomization(
        app.context,
        callerOf(request).userId,
        organizationId,
        siteId,
        siteSpaceId,
      );
      return noContent(reply, existed ? 205 : 204);
    },
  );
};
