import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../model/access/auth.js';
import { getAdaptiveSchema, listTemplateConditions, updateAdaptiveSchema } from './actions.js';
import {
  SiteAdaptiveSchema,
  SiteAdaptiveTemplateConditions,
  SiteParams,
  UpdateSiteAdaptiveSchemaBody,
} from './schemas.js';

/** The visitor claims a site's adaptive content may test, and conditions made from them. */
export const adaptiveSchemaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteAdaptiveSchema',
        tags: ['sites'],
        summary: 'Get the JSON schema of the claims an adaptive-content site expects of its visitors',
        params: SiteParams,
        response: { 200: SiteAdaptiveSchema, ...errorResponses },
      },
    },
    async (request) =>
      getAdaptiveSchema(app.context, callerOf(request).userId, request.params.organizationId, request.params.siteId),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteAdaptiveSchema',
        tags: ['sites'],
        summary: 'Replace the JSON schema of the visitor claims (admins)',
        params: SiteParams,
        body: UpdateSiteAdaptiveSchemaBody,
        response: { 200: SiteAdaptiveSchema, ...errorResponses },
      },
    },
    async (request) =>
      updateAdaptiveSchema(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
        request.body,
      ),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteAdaptiveTemplateConditions',
        tags: ['sites'],
        summary: 'List ready-made conditions for the claims of the site’s adaptive schema',
        params: SiteParams,
        response: { 200: SiteAdaptiveTemplateConditions, ...errorResponses },
      },
    },
    async (request) =>
      listTemplateConditions(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
      ),
  );
};
