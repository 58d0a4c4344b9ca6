import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../model/access/auth.js';
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
