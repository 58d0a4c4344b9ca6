import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ChangeRequestParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { listRequestedReviewers, removeRequestedReviewer, requestReviewers } from './actions.js';
import {
  ChangeRequestRequestedReviewerSchema,
  ListReviewersQuery,
  RequestReviewersBody,
  RequestReviewersResponse,
  ReviewerParams,
} from './schemas.js';

const tags = ['change-requests'];

export const reviewerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getRequestedReviewersByChangeRequestId',
        tags,
        summary: 'The users and teams asked to review a change request, oldest request first',
        description:
          'For members with a role on the space. Each request names its user or team, and who asked; requests ' +
          'go when the reviewer leaves the organization or the team is deleted.',
        params: ChangeRequestParams,
        querystring: ListReviewersQuery,
        response: { 200: ListEnvelope(ChangeRequestRequestedReviewerSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return listRequestedReviewers(app.context, callerOf(request).userId, spaceId, changeRequestId, request.query);
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'requestReviewersForChangeRequest',
        tags,
        summary:
          'Ask users with at least the review role, or teams of the organization, to review a change request, and optionally rename it',
        description:
          'Needs the `edit` role on an unlocked space, and a change request that is not merged or archived ' +
          '(409). Each user must be a member with at least the `review` role on the space, each team one of ' +
          'the organization (400). Asking a user or team already asked changes nothing: the first request is ' +
          'kept. All are recorded, or none.',
        params: ChangeRequestParams,
        body: RequestReviewersBody,
        response: { 200: RequestReviewersResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return requestReviewers(app.context, callerOf(request).userId, spaceId, changeRequestId, request.body);
    },
  );

  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'removeRequestedReviewerFromChangeRequest',
        tags,
        summary:
          'Withdraw a review request; editors may withdraw any, a requested user their own, a team member the team’s',
        description:
          'Members with the `edit` role withdraw any request; a member may withdraw their own, or their ' +
          'team’s, with any role. `userId` is the id of the user or the team asked; the space must not be ' +
          'locked, and the requests of a merged change request stay (409).',
        params: ReviewerParams,
        response: { 205: Type.Null({ description: 'Removed' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId, userId } = request.params;
      await removeRequestedReviewer(app.context, callerOf(request).userId, spaceId, changeRequestId, userId);
      return noContent(reply, 205);
    },
  );
};
