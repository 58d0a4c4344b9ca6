import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteParams } from '../schemas.js';
import { getPublishingAuth, regenerateSitePublishingAuth, updateSitePublishingAuth } from './auth-actions.js';
import {
  CreateShareLinkBody,
  ListShareLinksQuery,
  ShareLinkParams,
  ShareLinkSchema as ShareLink,
  SitePublishingAuthSchema as SitePublishingAuth,
  SitePublishingAuthUpdate,
  UpdateShareLinkBody,
} from './schemas.js';
import {
  createSiteShareLink,
  deleteSiteShareLink,
  listSiteShareLinks,
  updateSiteShareLink,
} from './share-link-actions.js';

/** A site's share links and how its visitors are authenticated. */
export const publishingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteShareLinks',
        tags: ['sites'],
        summary: 'List a site’s share links, newest first (admins: their addresses carry their keys)',
        description:
          'Admins of the organization only, even for reading: each link’s address carries its key. Newest ' +
          'first unless `order=asc`; `search` keeps the links whose name holds it (any case) or whose key it is.',
        params: SiteParams,
        querystring: ListShareLinksQuery,
        response: { 200: ListEnvelope(ShareLink), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return listSiteShareLinks(app.context, callerOf(request).userId, organizationId, siteId, request.query);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/share-links',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'createSiteShareLink',
        tags: ['sites'],
        summary: 'Create a share link (admins); it opens the site while its visibility is share-link',
        description:
          'Admins of the organization, whatever the site’s visibility; the link opens the site only while it ' +
          'is `share-link`. Its key (24 random characters) is kept hashed and sealed, and shown in the link’s ' +
          'address. At most 100 links per site (409).',
        params: SiteParams,
        body: CreateShareLinkBody,
        response: { 201: ShareLink, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const link = await createSiteShareLink(
        app.context,
        callerOf(request).userId,
        organizationId,
        siteId,
        request.body,
      );
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'sites', siteId, 'share-links', link.id))
        .send(link);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteShareLinkById',
        tags: ['sites'],
        summary: 'Rename a share link or turn it on or off (admins)',
        description:
          'Admins of the organization. An inactive link keeps its key but opens nothing until it is turned on ' +
          'again.',
        params: ShareLinkParams,
        body: UpdateShareLinkBody,
        response: { 200: ShareLink, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      return updateSiteShareLink(
        app.context,
        callerOf(request).userId,
        organizationId,
        siteId,
        shareLinkId,
        request.body,
      );
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteShareLinkById',
        tags: ['sites'],
        summary: 'Delete a share link (admins); its address no longer opens the site',
        description: 'Admins of the organization. Visitors who came with its key no longer see the site.',
        params: ShareLinkParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      await deleteSiteShareLink(app.context, callerOf(request).userId, organizationId, siteId, shareLinkId);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { scope: 'site:auth:read' },
      schema: {
        operationId: 'getSitePublishingAuthById',
        tags: ['sites'],
        summary: 'Get how a site’s visitors are authenticated, with the key that signs their tokens (admins)',
        description:
          'Admins of the organization. The answer holds `privateKey`, the HS256 key that signs the visitor ' +
          'tokens of a visitor-auth site: keep it secret.',
        params: SiteParams,
        response: { 200: SitePublishingAuth, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return getPublishingAuth(app.context, callerOf(request).userId, organizationId, siteId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { scope: 'site:auth:write' },
      schema: {
        operationId: 'updateSitePublishingAuthById',
        tags: ['sites'],
        summary: 'Set a site’s visitor authentication backend and fallback address (admins)',
        description:
          'Admins of the organization. `fallbackURL` is where visitors who fail authentication are sent: an ' +
          'absolute http(s) address; null removes it, and leaving it out keeps it.',
        params: SiteParams,
        body: SitePublishingAuthUpdate,
        response: { 200: SitePublishingAuth, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return updateSitePublishingAuth(app.context, callerOf(request).userId, organizationId, siteId, request.body);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
    {
      config: { scope: 'site:auth:write' },
      schema: {
        operationId: 'regenerateSitePublishingAuthById',
        tags: ['sites'],
        summary: 'Replace the key that signs a site’s visitor tokens (admins); the old key stops working',
        description:
          'Admins of the organization. A new key is made and sealed at rest; visitor tokens signed with the ' +
          'old one are refused from now on.',
        params: SiteParams,
        response: { 200: SitePublishingAuth, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return regenerateSitePublishingAuth(app.context, callerOf(request).userId, organizationId, siteId);
    },
  );
};
