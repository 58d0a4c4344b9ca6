import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
import {
  AddSectionBody,
  ListStructureQuery,
  MoveSectionBody,
  SectionParams,
  SiteParams,
  SiteSectionSchema,
  UpdateSectionBody,
} from './schemas.js';
import { addSection, editSection, listSections, moveSection, removeSection } from './section-actions.js';

const SiteSection = ref(SiteSectionSchema);

export const sectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteSections',
        tags: ['sites'],
        summary: 'List the sections of a site in structure order (members)',
        params: SiteParams,
        querystring: ListStructureQuery,
        response: { 200: ListEnvelope(SiteSection), ...errorResponses },
      },
    },
    async (request) =>
      listSections(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
        request.query,
      ),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSectionToSite',
        tags: ['sites'],
        summary: 'Add a section publishing a space (admins)',
        params: SiteParams,
        body: AddSectionBody,
        response: { 201: SiteSection, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const section = await addSection(app.context, callerOf(request).userId, organizationId, siteId, request.body);
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'sites', siteId, 'sections', section.id))
        .send(section);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteSectionById',
        tags: ['sites'],
        summary: 'Change a section (admins)',
        params: SectionParams,
        body: UpdateSectionBody,
        response: { 200: SiteSection, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      return editSection(app.context, callerOf(request).userId, organizationId, siteId, siteSectionId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteSectionById',
        tags: ['sites'],
        summary: 'Delete a section and the site spaces in it (admins)',
        params: SectionParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      await removeSection(app.context, callerOf(request).userId, organizationId, siteId, siteSectionId);
      return noContent(reply, 205);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'moveSiteSection',
        tags: ['sites'],
        deprecated: true,
        summary: 'Move a section beside another (admins; use the structure sort)',
        params: SectionParams,
        body: MoveSectionBody,
        response: { 200: SiteSection, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      return moveSection(app.context, callerOf(request).userId, organizationId, siteId, siteSectionId, request.body);
    },
  );
};
