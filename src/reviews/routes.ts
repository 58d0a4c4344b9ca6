import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListEnvelope, ChangeRequestParams, ref } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { getChangeRequestReview, listChangeRequestReviews, submitChangeRequestReview } from './actions.js';
import { ChangeRequestReviewSchema, ListReviewsQuery, ReviewParams, ReviewQuery, SubmitReviewBody } from './schemas.js';

const tags = ['change-requests'];
const Review = ref(ChangeRequestReviewSchema);

export const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/reviews',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'submitChangeRequestReview',
        tags,
        summary: 'Approve a change request, or request changes, on its current revision, with an optional comment',
        description:
          'Needs the `review` role on an unlocked space (403), and a change request that is not merged or ' +
          'archived (409). Its author may request changes but not approve (403). The review is on the change ' +
          'request’s current revision and is `outdated` once it has a newer one; it answers the review ' +
          'requests of the reviewer and of their teams, which leave the requested reviewers. A `comment` is ' +
          'posted in the change request’s comments.',
        params: ChangeRequestParams,
        body: SubmitReviewBody,
        response: { 201: Review, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const body = await submitChangeRequestReview(
        app.context,
        callerOf(request).userId,
        spaceId,
        changeRequestId,
        request.body,
      );
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/reviews',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getReviewsByChangeRequestId',
        tags,
        summary: 'The reviews of a change request, newest first; `outdated` keeps the outdated or the current ones',
        description:
          'For members with a role on the space. `format` is the form of the reviews’ comments (markdown by ' +
          'default).',
        params: ChangeRequestParams,
        querystring: ListReviewsQuery,
        response: { 200: ListEnvelope(Review), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return listChangeRequestReviews(app.context, callerOf(request).userId, spaceId, changeRequestId, request.query);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/reviews/:reviewId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getChangeRequestReviewById',
        tags,
        summary: 'A review of a change request',
        description: 'For members with a role on the space.',
        params: ReviewParams,
        querystring: ReviewQuery,
        response: { 200: Review, ...errorResponses },
      },
    },
    async (request) =>
      getChangeRequestReview(app.context, callerOf(request).userId, request.params, request.query.format),
  );
};
