import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope, ref } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import {
  addGroup,
  addSectionToGroup,
  editGroup,
  listGroups,
  moveGroup,
  removeGroup,
  removeSectionFromGroup,
} from './actions.js';
import {
  AddGroupBody,
  AddSectionToGroupBody,
  GroupParams,
  GroupSectionParams,
  ListStructureQuery,
  MoveGroupBody,
  SiteParams,
  SiteSectionGroupSchema,
  UpdateGroupBody,
} from '../schemas.js';

const SiteSectionGroup = ref(SiteSectionGroupSchema);

export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/section-groups',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteSectionGroups',
        tags: ['sites'],
        summary: 'List the section groups of a site in structure order (members)',
        description:
          'Members of any role, in the order a reader meets them, a nested group right after its parent’s ' +
          'earlier children.',
        params: SiteParams,
        querystring: ListStructureQuery,
        response: { 200: ListEnvelope(SiteSectionGroup), ...errorResponses },
      },
    },
    async (request) =>
      listGroups(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
        request.query,
      ),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSectionGroupToSite',
        tags: ['sites'],
        summary: 'Add a section group, optionally taking sections into it (admins)',
        description:
          'Admins of the organization. The group goes at the end of the site, or of `parent` (groups nest one ' +
          'level deep), and takes the named `sections` into it in order, out of any other group. A site ' +
          'without sections has no groups (400); at most 50 groups (409). `draft` adds it as a draft: it and ' +
          'all it holds are shown to members and in previews, never to visitors; it may not hold the site’s ' +
          'default section (400).',
        params: SiteParams,
        body: AddGroupBody,
        response: { 201: SiteSectionGroup, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const group = await addGroup(app.context, callerOf(request).userId, organizationId, siteId, request.body);
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'sites', siteId, 'section-groups', group.id))
        .send(group);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteSectionGroupById',
        tags: ['sites'],
        summary: 'Change a section group (admins)',
        description:
          'Admins of the organization: its title and icon; null removes the icon. `draft` true makes it and ' +
          'all it holds drafts (members and previews only), unless it holds the site’s default section (400); ' +
          'false makes it live.',
        params: GroupParams,
        body: UpdateGroupBody,
        response: { 200: SiteSectionGroup, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      return editGroup(app.context, callerOf(request).userId, organizationId, siteId, siteSectionGroupId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteSectionGroupById',
        tags: ['sites'],
        summary: 'Delete a section group; its sections stay in the site where it was (admins)',
        description: 'Admins of the organization. What the group held stays in the site, in the group’s place.',
        params: GroupParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      await removeGroup(app.context, callerOf(request).userId, organizationId, siteId, siteSectionGroupId);
      return noContent(reply, 205);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSectionToGroup',
        tags: ['sites'],
        summary: 'Put a section at the end of a group, out of any other (admins)',
        description: 'Admins of the organization. A section is in at most one group: it leaves the one it was in.',
        params: GroupParams,
        body: AddSectionToGroupBody,
        response: { 201: SiteSectionGroup, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const group = await addSectionToGroup(
        app.context,
        callerOf(request).userId,
        organizationId,
        siteId,
        siteSectionGroupId,
        request.body.sectionId,
      );
      return reply.code(201).send(group);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'removeSectionFromGroup',
        tags: ['sites'],
        summary: 'Take a section out of a group, to right after it (admins)',
        description: 'Admins of the organization. The section stays in the site, right after the group.',
        params: GroupSectionParams,
        response: {
          204: Type.Null({ description: 'The section was not in the group' }),
          205: Type.Null({ description: 'Removed from the group' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      const removed = await removeSectionFromGroup(
        app.context,
        callerOf(request).userId,
        organizationId,
        siteId,
        siteSectionGroupId,
        siteSectionId,
      );
      return noContent(reply, removed ? 205 : 204);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'moveSiteSectionGroup',
        tags: ['sites'],
        deprecated: true,
        summary: 'Move a section group beside a section or group (admins; use the structure sort)',
        description:
          'Admins of the organization. Deprecated in favour of the structure sort, which shares its order; ' +
          'moved beside an item inside a group, the group nests in that group.',
        params: GroupParams,
        body: MoveGroupBody,
        response: { 200: SiteSectionGroup, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      return moveGroup(app.context, callerOf(request).userId, organizationId, siteId, siteSectionGroupId, request.body);
    },
  );
};
