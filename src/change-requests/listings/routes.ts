import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListEnvelope, ref, ChangeRequestParams, OrganizationParams } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { ChangeRequestSchema } from '../../content/change-request-schemas.js';
import { listChangeRequestContributors, listOrganizationChangeRequests } from './actions.js';
import { ChangeRequestContributorSchema, OrganizationChangeRequestsQuery } from './schemas.js';

const tags = ['change-requests'];

export const changeRequestListingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/change-requests',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listChangeRequestsForOrganization',
        tags,
        summary: 'The change requests of the organization’s spaces the caller reads, newest first',
        description:
          'For members (to anyone else, 404); a guest sees those of the spaces granted to them. `status` keeps ' +
          'one or more statuses (open by default); `creator`, `contributor` and `requestedReviewer` keep those ' +
          'a user opened, wrote in, or is asked to review (`requestedReviewer` set to oneself: what waits for ' +
          'one’s review); `space` keeps one space’s; `orderBy` is `updatedAt` (default) or `createdAt`. ' +
          '`site`, `topic` and `styleguideRun` name what this service links no change request to: the list is empty.',
        params: OrganizationParams,
        querystring: OrganizationChangeRequestsQuery,
        response: { 200: ListEnvelope(ref(ChangeRequestSchema)), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationChangeRequests(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.query,
      ),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/contributors',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getContributorsByChangeRequestId',
        tags,
        summary: 'Who wrote in a change request, how often and when last, most recent first',
        description:
          'For members with a role on the space. Each contributor made `count` revisions of edits of the change ' +
          'request, the last at `updatedAt`; the first 1,000 are shown, and `count` of the list says how many there are.',
        params: ChangeRequestParams,
        response: { 200: ListEnvelope(ChangeRequestContributorSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return listChangeRequestContributors(app.context, callerOf(request).userId, spaceId, changeRequestId);
    },
  );
};
