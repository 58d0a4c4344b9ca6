import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { lagTolerant } from '../context.js';
import { versionOf } from '../cache-versions.js';
import { searchOrganization, searchSpace } from './actions.js';
import {
  OrganizationSearchParams,
  OrganizationSearchQuery,
  OrganizationSearchResponse,
  SpaceSearchParams,
  SpaceSearchQuery,
  SpaceSearchResponse,
} from './schemas.js';

/** Full-text search of a space's current content, and of every space of an organization the caller may read. */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/search',
    {
      // Merges index their pages in their own transaction, which ticks the space's organization's clock.
      config: { scope: 'space:read', lagTolerant: 'caller', cache: versionOf.spaceContent },
      schema: {
        operationId: 'searchSpaceContent',
        tags: ['space-content'],
        summary: 'Pages of the space’s current content matching a query, best first, with their matching sections',
        description:
          'Open to whoever may read the space’s published side: members, anyone for a public or unlisted ' +
          'space, and holders of a share-link space’s `shareKey`. Only merged content is searched. All words ' +
          'must be in a page; `"quoted phrases"` match in order, `config*` matches words that begin so, ' +
          '`-word` leaves pages out and `or` takes either word; accents do not matter, and each page is ' +
          'matched in its own language.',
        params: SpaceSearchParams,
        querystring: SpaceSearchQuery,
        response: { 200: SpaceSearchResponse, ...errorResponses },
      },
    },
    async (request) =>
      searchSpace(lagTolerant(app.context, request), callerOf(request).userId, request.params.spaceId, request.query),
  );

  app.get(
    '/orgs/:organizationId/search',
    {
      config: { scope: 'space:read', lagTolerant: 'caller', cache: versionOf.organization },
      schema: {
        operationId: 'searchOrganizationContent',
        tags: ['organizations'],
        summary: 'Spaces of the organization with pages matching a query, grouped by space, best first',
        description:
          'Every space of the organization for its members, and only public spaces for guests; anyone else ' +
          'gets 404. The same query language as a space’s search; pages are ranked by their titles and ' +
          'headings, and each space shows its five best pages.',
        params: OrganizationSearchParams,
        querystring: OrganizationSearchQuery,
        response: { 200: OrganizationSearchResponse, ...errorResponses },
      },
    },
    async (request) =>
      searchOrganization(
        lagTolerant(app.context, request),
        callerOf(request).userId,
        request.params.organizationId,
        request.query,
      ),
  );
};
