import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ref } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteExternalLinkSchema, SiteParams } from '../schemas.js';
import { addExternalLink, editExternalLink, MAX_LINKS_PER_SITE, removeExternalLink } from './actions.js';
import { AddExternalLinkBody, ExternalLinkParams, PreferHeaders, UpdateExternalLinkBody } from './schemas.js';

const tags = ['site-external-links'];
const SiteExternalLink = ref(SiteExternalLinkSchema);

/** Links in a sectioned site's navigation to addresses outside it, ordered with its sections and groups. */
export const externalLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/external-links',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'addExternalLinkToSite',
        tags,
        summary: 'Add an external link to the site’s navigation (admins)',
        description:
          'Admins of the organization. At the end of the site’s root, or of the section group `parent`; a site ' +
          'without sections takes none (400). The address is absolute http or https. Draft links and links ' +
          'whose condition fails are left out of what visitors see; members see every link in ' +
          `getSiteStructure. A site holds at most ${MAX_LINKS_PER_SITE} (409). Reorder with sortSiteStructure.`,
        params: SiteParams,
        body: AddExternalLinkBody,
        response: { 201: SiteExternalLink, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const link = await addExternalLink(app.context, callerOf(request).userId, organizationId, siteId, request.body);
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'sites', siteId, 'external-links', link.id))
        .send(link);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/external-links/:siteExternalLinkId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'updateSiteExternalLinkById',
        tags,
        summary: 'Change an external link (admins)',
        description:
          'Admins of the organization. Only the fields given change; `parent` moves the link to the end of a ' +
          'section group, or of the root with null. `Prefer: return=minimal` answers 204.',
        params: ExternalLinkParams,
        headers: PreferHeaders,
        body: UpdateExternalLinkBody,
        response: {
          200: SiteExternalLink,
          204: Type.Null({ description: 'Changed, answered without the link (Prefer: return=minimal)' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteExternalLinkId } = request.params;
      const callerId = callerOf(request).userId;
      const link = await editExternalLink(
        app.context,
        callerId,
        organizationId,
        siteId,
        siteExternalLinkId,
        request.body,
      );
      if (request.headers.prefer === 'return=minimal') {
        return noContent(reply.header('preference-applied', 'return=minimal'), 204);
      }
      return link;
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/external-links/:siteExternalLinkId',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'deleteSiteExternalLinkById',
        tags,
        summary: 'Delete an external link (admins): 205 when deleted, 204 when there was none',
        description: 'Admins of the organization.',
        params: ExternalLinkParams,
        response: {
          204: Type.Null({ description: 'No such external link' }),
          205: Type.Null({ description: 'Deleted' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteExternalLinkId } = request.params;
      const callerId = callerOf(request).userId;
      const deleted = await removeExternalLink(app.context, callerId, organizationId, siteId, siteExternalLinkId);
      return noContent(reply, deleted ? 205 : 204);
    },
  );
};
