import { siteSearchRoutes } from './search/routes.js';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent, sendJsonBytes } from '../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams, ref } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { createSite, editSite, getSite, listOrganizationSites, removeSite, setPublished } from './actions.js';
import { adaptiveSchemaRoutes } from './adaptive/routes.js';
import { publishedSiteJson, siteStructureJson } from './published-actions.js';
import { SiteCustomizationSettingsSchema } from './customization/schemas.js';
import { customizationRoutes } from './customization/routes.js';
import { groupRoutes } from './groups/routes.js';
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
import { redirectRoutes } from './redirects/routes.js';
import { sitePermissionRoutes } from './permissions/routes.js';
import { externalLinkRoutes } from './external-links/routes.js';
import { previewRoutes } from './preview/routes.js';
import { siteSearchPrewarmRoutes } from './search/prewarm-routes.js';
import { siteSpaceCopyRoutes } from './site-space-copies/routes.js';
import { siteInsightsRoutes } from './insights/routes.js';
import { sectionRoutes } from './sections/routes.js';
import { siteSpaceRoutes } from './site-spaces/routes.js';
import { siteSpaceCustomizationRoutes } from './site-spaces/customization-routes.js';
import { sortStructure } from './structure/actions.js';
import { versionOf } from '../cache-versions.js';

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
      config: { scope: 'site:read', cache: versionOf.organization },
      schema: {
        operationId: 'listSites',
        tags: ['sites'],
        summary: 'List the sites of an organization (members)',
        description:
          'Members of any role, newest first; guests see sites only through their published side. Filter by ' +
          '`space` (the sites publishing it), `title`, `published` or `type`.',
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
        description:
          'Admins of the organization. `spaces` are spaces of the organization, published at the site’s root ' +
          'in the order given; `"empty"` (or `"sample"`, which writes no sample content) makes a new private ' +
          'space for it. The site starts unpublished.',
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
      config: { scope: 'site:read', cache: versionOf.organization },
      schema: {
        operationId: 'getSiteById',
        tags: ['sites'],
        summary: 'Get a site (members)',
        description: 'Members of any role; to guests and anyone else, 404.',
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
        description:
          'Admins of the organization; fields left out stay as they are. A `basename` names one site across ' +
          'the service (409 when taken, or once another organization’s address) and may not look like a site ' +
          'id (400); the name it replaces stays the organization’s and leads to the site. ' +
          '`defaultSiteSection` must be a section of the site, and `defaultSiteSpace` a site space at its root ' +
          'or in its default section (400).',
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
        description:
          'Admins of the organization. The sections, groups, site spaces, share links and integration ' +
          'installations go with it; the spaces themselves stay.',
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
        description:
          'Admins of the organization, with the `site:publish` scope. Once published, a public or unlisted ' +
          'site is open to anyone, a share-link site to holders of an active link’s key, and a visitor-auth ' +
          'site to visitors with signed tokens in the web reader.',
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
        description:
          'Admins of the organization, with the `site:publish` scope. Its members still see its published ' +
          'side, as a preview; visitors no longer do.',
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
      config: { scope: 'site:read', cache: versionOf.siteStructure },
      schema: {
        operationId: 'getPublishedContentSite',
        tags: ['sites'],
        summary: 'What the site’s audience is shown: the site, its published structure and customization',
        description:
          'Members see it whatever the site’s state, as a preview. Anyone else only once it is published: a ' +
          'public or unlisted site to all, a share-link site with an active link’s `shareKey`; a visitor-auth ' +
          'site opens only in the web reader. Otherwise 404. Kept by each instance until the organization ' +
          'changes for a caller with a token and no `shareKey`, else for SITE_CACHE_TTL_MS.',
        params: SiteParams,
        querystring: ShareKeyOnlyQuery,
        response: { 200: PublishedContentSite, ...errorResponses },
      },
    },
    // Sent as JSON text: the response schema's unions would make the serializer validate
    // the whole structure against each branch to pick one. Kept under the organization's
    // version for a caller with a token; else from the short-lived cache (cachedJson).
    async (request, reply) =>
      sendJsonBytes(
        reply,
        await publishedSiteJson(
          app.context,
          callerOf(request).userId,
          request.params.organizationId,
          request.params.siteId,
          request.query.shareKey,
          request.answerKept,
        ),
      ),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/structure',
    {
      config: { scope: 'site:read', cache: versionOf.siteStructure },
      schema: {
        operationId: 'getSiteStructure',
        tags: ['sites'],
        summary: 'The whole structure of a site: its sections and groups, or its site spaces (members)',
        description:
          'Members of any role, each space with their role on it. Kept by each instance until the ' +
          'organization changes; with a `shareKey`, for SITE_CACHE_TTL_MS, and dropped at once when this ' +
          'instance changes the site.',
        params: SiteParams,
        querystring: ShareKeyOnlyQuery,
        response: { 200: SiteStructureSchema, ...errorResponses },
      },
    },
    // As for `published`: JSON text, kept or cached a moment.
    async (request, reply) =>
      sendJsonBytes(
        reply,
        await siteStructureJson(
          app.context,
          callerOf(request).userId,
          request.params.organizationId,
          request.params.siteId,
          request.query.shareKey,
          request.answerKept,
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
        summary: 'Move a site space, section, section group or external link beside another (admins)',
        description:
          'Admins of the organization. `after` and `before` name siblings; the item lands right after `after` ' +
          '(with both, `after` first), and with neither goes to the end of its list. A section, group or link ' +
          'moved beside an item in a group joins that group; a site space moved beside one of another section ' +
          'moves there.',
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
  await app.register(siteSpaceCustomizationRoutes);
  await app.register(adaptiveSchemaRoutes);
  await app.register(customizationRoutes);
  await app.register(publishingRoutes);
  await app.register(siteSearchRoutes);
  await app.register(redirectRoutes);
  await app.register(sitePermissionRoutes);
  await app.register(externalLinkRoutes);
  await app.register(previewRoutes);
  await app.register(siteSearchPrewarmRoutes);
  await app.register(siteSpaceCopyRoutes);
  await app.register(siteInsightsRoutes);
};
