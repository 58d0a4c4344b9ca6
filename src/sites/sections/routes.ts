import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope, ref } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import {
  AddSectionBody,
  ListStructureQuery,
  MoveSectionBody,
  SectionParams,
  SiteParams,
  SiteSectionSchema,
  UpdateSectionBody,
} from '../schemas.js';
import { addSection, editSection, listSections, moveSection, removeSection } from './actions.js';

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
        description:
          'Members of any role, in the order a reader meets them: sections and groups share one order at the ' +
          'site’s root and in each group.',
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
        description:
          'Admins of the organization. The section publishes the space, titled after it unless `title` is ' +
          'given, at the end of the site. The first section of a site whose spaces were at its root gathers ' +
          'them first into a section of their own, the default, so nothing stops being published; ' +
          '`siteSectionGroupId` puts it at the end of that group instead (400 when the site has no such group). ' +
          '`draft` adds it as a draft: shown to members and in previews, never to visitors; a site’s first ' +
          'section is its default and is live (400). At most 100 sections (409).',
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
        description:
          'Admins of the organization. `path` is one address segment, unique among the site’s sections (409); ' +
          '`condition` may name only claims of the site’s adaptive schema (400), and null removes it; ' +
          '`defaultSiteSpace` must be one of the section’s site spaces; `siteSectionGroupId` moves the section to ' +
          'the end of that group, null to the end of the site’s root. `draft` true makes it a draft (members and ' +
          'previews only), false makes it live; the site’s default section stays live (400).',
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
        description:
          'Admins of the organization. The spaces stay; the site’s next section becomes the default when this ' +
          'one was, and deleting the last section deletes the site’s (empty) groups.',
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
        description:
          'Admins of the organization. Deprecated in favour of the structure sort, which shares its order: ' +
          'the section lands right after `after`, or before `before`, and with neither at the end.',
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
