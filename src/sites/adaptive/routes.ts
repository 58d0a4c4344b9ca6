import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
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
        description:
          'Members of any role. A draft-07 JSON schema of boolean claims: signed ones, vouched for by the ' +
          'visitor token, and `unsigned` ones the visitor sets. Conditions on sections and site spaces may ' +
          'name only these claims.',
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
        description:
          'Admins of the organization. The schema is replaced whole; at most 100 claims, signed and unsigned ' +
          'together (400). A claim dropped from it leaves the conditions that name it in place, and a visitor ' +
          'then counts as not having it.',
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
        description:
          'Members of any role: for each claim the schema declares, conditions ready to set on a section or ' +
          'site space, each with a sentence saying what it does.',
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
