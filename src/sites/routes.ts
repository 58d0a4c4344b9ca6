import { siteSearchRoutes } from './search/routes.js';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent, sendJsonBytes } from '../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams, ref } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
import { createSite, editSite, getSite, listOrganizationSites, removeSite, setPublished } from './actions.js';
import { adaptiveSchemaRoutes } from './adaptive/routes.js';
import { publishedSiteJson, siteStructureJson } from './published-actions.js';
import { SiteCustomizationSettingsSchema } from './customization/schemas.js';
import { customizationRoutes } from './customization/routes.js';
import { groupRoutes } from './group-routes.js';
import { publishingRoutes } from './publishing/routes.js';
import {
  CreateSiteBody,
  ListSitesQuery,
  ShareKeyOnlyQuery,
  SiteParams,
  SiteSchema,
  SiteStructureItemSchema,
  SiteStructureSchema,
  SortStructureBody,
  UpdateSiteBody,
} from './schemas.js';
import { sectionRoutes } from './section-routes.js';
import { siteSpaceRoutes } from './site-space-routes.js';
import { sortStructure } from './sort-actions.js';

const Site = ref(SiteSchema);

const PublishedContentSite = Type.Object({
  object: Type.Literal('published-content-site'),
  site: Site,
  structure: SiteStructureSchema,
  customizations: Type.Object({
    site: Type.Ref(SiteCustomizationSettingsSchema),
    siteSpaces: Type.Record(Type.String(), Type.Ref(SiteCustomizationSettingsSchema)),
  }),
  scripts: Type.Array(Type.Object({ script: Type.String(), cookies: Type.Boolean() })),
});

/** Docs sites: the sites, their structure, what visitors see of them, and how they look. */
export const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites',
    {
      config: { scope: 'site:read', replayable: true },
      schema: {
        operationId: 'listSites',
        tags: ['sites'],
        summary: 'List the sites of an organization (members)',
        params: OrganizationParams,
        querystring: ListSitesQuery,
        response: { 200: ListEnvelope(Site), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationSites(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/sites',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'createSite',
        tags: ['sites'],
        summary: 'Create a site, publishing spaces of the organization or a new one (admins)',
        params: OrganizationParams,
        body: CreateSiteBody,
        response: { 201: Site, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const site = await createSite(app.context, callerOf(request).userId, organizationId, request.body);
      return reply.code(201).header('location', site.urls.location).send(site);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { scope: 'site:read', replayable: true },
      schema: {
        operationId: 'getSiteById',
        tags: ['sites'],
        summary: 'Get a site (members)',
        params: SiteParams,
        response: { 200: Site, ...errorResponses },
      },
    },
    async (request) =>
      getSite(app.context, callerOf(request).userId, request.params.organizationId, request.params.siteId),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteById',
        tags: ['sites'],
        summary: 'Change a site’s settings and defaults (admins)',
        params: SiteParams,
        body: UpdateSiteBody,
        response: { 200: Site, ...errorResponses },
      },
    },
    async (request) =>
      editSite(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
        request.body,
      ),
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteById',
        tags: ['sites'],
        summary: 'Delete a site with its structure (admins)',
        params: SiteParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeSite(app.context, callerOf(request).userId, request.params.organizationId, request.params.siteId);
      return noContent(reply, 205);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publish',
    {
      config: { scope: 'site:publish' },
      schema: {
        operationId: 'publishSite',
        tags: ['sites'],
        summary: 'Publish a site to the audience its visibility sets (admins)',
        params: SiteParams,
        response: { 200: Site, ...errorResponses },
      },
    },
    async (request) =>
      setPublished(app.context, callerOf(request).userId, request.params.organizationId, request.params.siteId, true),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/unpublish',
    {
      config: { scope: 'site:publish' },
      schema: {
        operationId: 'unpublishSite',
        tags: ['sites'],
        summary: 'Take a site offline (admins)',
        params: SiteParams,
        response: { 200: Site, ...errorResponses },
      },
    },
    async (request) =>
      setPublished(app.context, callerOf(request).userId, request.params.organizationId, request.params.siteId, false),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/published',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getPublishedContentSite',
        tags: ['sites'],
        summary: 'What the site’s audience is shown: the site, its published structure and customization',
        params: SiteParams,
        querystring: ShareKeyOnlyQuery,
        response: { 200: PublishedContentSite, ...errorResponses },
      },
    },
    // Sent as JSON text (cached a moment): the response schema's unions would make
    // the serializer validate the whole structure against each branch to pick one.
    async (request, reply) =>
      sendJsonBytes(
        reply,
        await publishedSiteJson(
          app.context,
          callerOf(request).userId,
          request.params.organizationId,
          request.params.siteId,
          request.query.shareKey,
        ),
      ),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/structure',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteStructure',
        tags: ['sites'],
        summary: 'The whole structure of a site: its sections and groups, or its site spaces (members)',
        params: SiteParams,
        querystring: ShareKeyOnlyQuery,
        response: { 200: SiteStructureSchema, ...errorResponses },
      },
    },
    // As for `published`: JSON text, cached a moment.
    async (request, reply) =>
      sendJsonBytes(
        reply,
        await siteStructureJson(
          app.context,
          callerOf(request).userId,
          request.params.organizationId,
          request.params.siteId,
          request.query.shareKey,
        ),
      ),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/structure/sort',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'sortSiteStructure',
        tags: ['sites'],
        summary: 'Move a site space, section or section group beside another (admins)',
        params: SiteParams,
        body: SortStructureBody,
        response: { 200: SiteStructureItemSchema, ...errorResponses },
      },
    },
    async (request) =>
      sortStructure(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
        request.body,
      ),
  );

  await app.register(sectionRoutes);
  await app.register(groupRoutes);
  await app.register(siteSpaceRoutes);
  await app.register(adaptiveSchemaRoutes);
  await app.register(customizationRoutes);
  await app.register(publishingRoutes);
  await app.register(siteSearchRoutes);
};
