import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { callerOf } from '../access/auth.js';
import { errorResponses, SpaceParams } from '../core/schemas.js';
import { SiteParams } from '../sites/schemas.js';
import { applyTemplateToSite, applyTemplateToSpace } from './actions.js';
import { SITE_TEMPLATE_ID, SPACE_TEMPLATES } from './catalog.js';
import { ApplySpaceTemplateBody } from './schemas.js';

/** The spec answers both with a status and no body; the typed reply wants one, hence the widening. */
const emptyAnswer = (reply: unknown, status: 200 | 201) => (reply as FastifyReply).code(status).send();

const TEMPLATE_LIST = SPACE_TEMPLATES.map((template) => `\`${template.id}\` (${template.title})`).join(', ');

/** The built-in starter templates, written into a space or a new site as any content write is. */
export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/content/template',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'applyTemplateToSpace',
        tags: ['space-content'],
        summary: 'Apply a content template to populate a space with initial pages',
        description:
          `The edit role on a live space. Writes the pages of a built-in template (${TEMPLATE_LIST}) after the ` +
          'space’s pages, as one new revision of it, or into the open change request `changeRequestId` names. ' +
          '`params` is accepted for GitBook’s clients; the built-in templates reference no content.',
        params: SpaceParams,
        body: ApplySpaceTemplateBody,
        response: { 201: Type.Null({ description: 'Template applied to space.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await applyTemplateToSpace(app.context, callerOf(request).userId, request.params.spaceId, request.body);
      return emptyAnswer(reply, 201);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/template',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'applyTemplateToSite',
        tags: ['sites'],
        summary: 'Apply the default documentation template to a site (admins)',
        description:
          `Admins of the site. A new private space with the \`${SITE_TEMPLATE_ID}\` template’s pages becomes a ` +
          'site space of it (in its default section when it has sections), and a header without links gets ' +
          'one to the quickstart. Meant for a site just created without spaces; on another, the space is added ' +
          'beside its own.',
        params: SiteParams,
        response: { 200: Type.Null({ description: 'Template applied to site.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await applyTemplateToSite(app.context, callerOf(request).userId, organizationId, siteId);
      return emptyAnswer(reply, 200);
    },
  );
};
