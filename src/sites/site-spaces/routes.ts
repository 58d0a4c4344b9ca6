import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope, ref } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import {
  AddSiteSpaceBody,
  ListSiteSpacesQuery,
  MoveSiteSpaceBody,
  SiteParams,
  SiteSpaceParams,
  SiteSpaceSchema,
  UpdateSiteSpaceBody,
} from '../schemas.js';
import { addSiteSpace, editSiteSpace, listSiteSpaces, moveSiteSpace, removeSiteSpace } from './actions.js';

const SiteSpace = ref(SiteSpaceSchema);

export const siteSpaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteSpaces',
        tags: ['sites'],
        summary: 'List the site spaces of a site in structure order (members)',
        description:
          'Members of any role, in structure order, section by section; a space in the trash is left out ' +
          'until it is restored.',
        params: SiteParams,
        querystring: ListSiteSpacesQuery,
        response: { 200: ListEnvelope(SiteSpace), ...errorResponses },
      },
    },
    async (request) =>
      listSiteSpaces(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
        request.query,
      ),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addSpaceToSite',
        tags: ['sites'],
        summary: 'Publish a space in a section, or in the default section or at the root (admins)',
        description:
          'Admins of the organization. The space must be of the organization and not in the trash (400); ' +
          'without `sectionId` it goes to the default section, or to the root when the site has no sections. ' +
          'Its path is made from its title, unique among its siblings. `draft` adds it as a draft: shown to ' +
          'members and in previews, never to visitors; the site space the site opens on is live (400). At most ' +
          '100 site spaces in a list and 500 in a site (409).',
        params: SiteParams,
        body: AddSiteSpaceBody,
        response: { 201: SiteSpace, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const siteSpace = await addSiteSpace(app.context, callerOf(request).userId, organizationId, siteId, request.body);
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'sites', siteId, 'site-spaces', siteSpace.id))
        .send(siteSpace);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteSpaceById',
        tags: ['sites'],
        summary: 'Change a site space’s path, condition or space (admins)',
        description:
          'Admins of the organization. `path` is one address segment, unique among its siblings (409); ' +
          '`condition` may name only claims of the site’s adaptive schema (400), and null removes it; ' +
          '`spaceId` publishes another space of the organization in its place. `draft` true makes it a draft ' +
          '(members and previews only), false live; the site space the site opens on stays live (400). `hidden` ' +
          'true leaves it out of the reader’s navigation, still reached by its address.',
        params: SiteSpaceParams,
        body: UpdateSiteSpaceBody,
        response: { 200: SiteSpace, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return editSiteSpace(app.context, callerOf(request).userId, organizationId, siteId, siteSpaceId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteSpaceById',
        tags: ['sites'],
        summary: 'Stop publishing a space on the site (admins)',
        description:
          'Admins of the organization. The space itself stays; another site space of its list becomes the ' +
          'default when this one was.',
        params: SiteSpaceParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      await removeSiteSpace(app.context, callerOf(request).userId, organizationId, siteId, siteSpaceId);
      return noContent(reply, 205);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'moveSiteSpace',
        tags: ['sites'],
        deprecated: true,
        summary: 'Move a site space beside another (admins; use the structure sort)',
        description:
          'Admins of the organization. Deprecated in favour of the structure sort, which shares its order; ' +
          'moved beside a site space of another section, it moves there, and a taken path gets a `-2` suffix.',
        params: SiteSpaceParams,
        body: MoveSiteSpaceBody,
        response: { 200: SiteSpace, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return moveSiteSpace(app.context, callerOf(request).userId, organizationId, siteId, siteSpaceId, request.body);
    },
  );
};
