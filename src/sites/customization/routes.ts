import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteParams } from '../schemas.js';
import { getCustomization, replaceCustomization } from './actions.js';
import {
  GetCustomizationQuery,
  SiteCustomizationSettingsBody as Settings,
  SiteCustomizationSettingsResponse as SettingsResponse,
} from './schemas.js';

export const customizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteCustomizationById',
        tags: ['sites'],
        summary: 'Get how a site looks: its stored customization settings, or the defaults',
        description:
          'Members of any role. A site whose admins never changed anything reads as the defaults, with the ' +
          'site’s own title.',
        params: SiteParams,
        querystring: GetCustomizationQuery,
        response: { 200: SettingsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return getCustomization(app.context, callerOf(request).userId, organizationId, siteId);
    },
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteCustomizationById',
        tags: ['sites'],
        summary: 'Replace a site’s customization settings (admins)',
        description:
          'Admins of the organization. The settings are replaced whole; parts left out read as their ' +
          'defaults. Link targets must be `http(s)`, `mailto:`, `tel:` or relative, and a header link’s ' +
          '`condition` may name only claims of the site’s adaptive schema (400). Both specs’ page menus are ' +
          'taken: 0.202.0’s ordered `pageActions.items`, which decides when given, or 0.143.2’s switches with ' +
          '`pdf` and `git`; the answer carries both. `socialAccounts` shown in the footer are linked there by ' +
          'the reader; `styling.codeTheme` is stored and answered (the reader’s code blocks keep its own colours).',
        params: SiteParams,
        body: Settings,
        response: { 200: SettingsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return replaceCustomization(app.context, callerOf(request).userId, organizationId, siteId, request.body);
    },
  );
};
