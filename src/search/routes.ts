import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
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
      config: { scope: 'space:read' },
      schema: {
        operationId: 'searchSpaceContent',
        tags: ['space-content'],
        summary: 'Pages of the space’s current content matching a query, best first, with their matching sections',
        params: SpaceSearchParams,
        querystring: SpaceSearchQuery,
        response: { 200: SpaceSearchResponse, ...errorResponses },
      },
    },
    async (request) => searchSpace(app.context, callerOf(request).userId, request.params.spaceId, request.query),
  );

  app.get(
    '/orgs/:organizationId/search',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'searchOrganizationContent',
        tags: ['organizations'],
        summary: 'Spaces of the organization with pages matching a query, grouped by space, best first',
        params: OrganizationSearchParams,
        querystring: OrganizationSearchQuery,
        response: { 200: OrganizationSearchResponse, ...errorResponses },
      },
    },
    async (request) =>
      searchOrganization(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );
};
