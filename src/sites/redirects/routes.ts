import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteParams } from '../schemas.js';
import {
  createSiteRedirect,
  deleteSiteRedirect,
  getSiteRedirectBySource,
  listSiteRedirects,
  MAX_REDIRECTS_PER_SITE,
  updateSiteRedirect,
} from './actions.js';
import { bulkUpsertSiteRedirects } from './bulk.js';
import {
  BulkRedirectsBody,
  BulkRedirectsResponse,
  CreateRedirectBody,
  ListRedirectsQuery,
  MAX_BULK_REDIRECTS,
  RedirectBySourceQuery,
  RedirectParams,
  ResolvedRedirect,
  SiteRedirectSchema as SiteRedirect,
  UpdateRedirectBody,
} from './schemas.js';

const tags = ['sites'];

/** A site's redirects: paths of the published site sent on elsewhere when no page answers them. */
export const redirectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteRedirects',
        tags,
        summary: 'List a site’s live (or draft) redirects',
        description:
          'Members of the organization. Newest first (`orderBy=createdAt` or `updatedAt`) or by source; ' +
          '`search` keeps the sources that contain it, in any case.',
        params: SiteParams,
        querystring: ListRedirectsQuery,
        response: { 200: ListEnvelope(SiteRedirect), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return listSiteRedirects(app.context, callerOf(request).userId, organizationId, siteId, request.query);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'createSiteRedirect',
        tags,
        summary: 'Create a redirect (admins)',
        description:
          'Admins of the organization. A source is unique per site among live redirects, and among drafts ' +
          `(409); a site has at most ${MAX_REDIRECTS_PER_SITE} redirects (409). The destination is a section, ` +
          'site space or page of the site (400 if not), a page by its path in a published space, or an ' +
          'absolute http(s) address.',
        params: SiteParams,
        body: CreateRedirectBody,
        response: { 201: SiteRedirect, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const redirect = await createSiteRedirect(
        app.context,
        callerOf(request).userId,
        organizationId,
        siteId,
        request.body,
      );
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'sites', siteId, 'redirects', redirect.id))
        .send(redirect);
    },
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/redirects',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'bulkUpsertSiteRedirects',
        tags,
        summary: 'Create, change, delete or publish redirects in bulk (admins)',
        description:
          `Admins of the organization. Up to ${MAX_BULK_REDIRECTS} items, done in order in one transaction; ` +
          'each is answered on its own, an item that cannot be done with `error` (and no change). A null ' +
          'destination deletes; `intent: publish` makes the draft from the source live.',
        params: SiteParams,
        body: BulkRedirectsBody,
        response: { 200: BulkRedirectsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return bulkUpsertSiteRedirects(app.context, callerOf(request).userId, organizationId, siteId, request.body);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteRedirectById',
        tags,
        summary: 'Change a redirect (admins)',
        description: 'Admins of the organization. Only the fields given change; a source already taken is a 409.',
        params: RedirectParams,
        body: UpdateRedirectBody,
        response: { 200: SiteRedirect, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      const callerId = callerOf(request).userId;
      return updateSiteRedirect(app.context, callerId, organizationId, siteId, siteRedirectId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/redirects/:siteRedirectId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteRedirectById',
        tags,
        summary: 'Delete a redirect (admins): 205 when deleted, 204 when there was none',
        description: 'Admins of the organization.',
        params: RedirectParams,
        response: {
          204: Type.Null({ description: 'No such redirect' }),
          205: Type.Null({ description: 'Deleted' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      const callerId = callerOf(request).userId;
      const deleted = await deleteSiteRedirect(app.context, callerId, organizationId, siteId, siteRedirectId);
      return noContent(reply, deleted ? 205 : 204);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/redirect',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getSiteRedirectBySource',
        tags,
        summary: 'Find the redirect from a source and where it leads',
        description:
          'Members of the organization. The live redirect from exactly this source, else the draft, with the ' +
          'address it sends visitors to (`target`).',
        params: SiteParams,
        querystring: RedirectBySourceQuery,
        response: { 200: ResolvedRedirect, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const callerId = callerOf(request).userId;
      return getSiteRedirectBySource(app.context, callerId, organizationId, siteId, request.query.source);
    },
  );
};
