import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { effectiveRole } from '../model/access/membership.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { noContent } from '../core/replies.js';
import { roleAtLeast } from '../model/access/roles.js';
import { errorResponses, ListEnvelope, ChangeRequestParams } from '../core/schemas.js';
import { changeRequestIn } from '../model/change-requests/access.js';
import { findEditableSpace, findSpaceAsMember } from '../model/access/spaces.js';
import { emailVisibilityFor } from '../model/people/user-queries.js';
import { presentReviewer } from './present.js';
import { activeMemberRoles, addReviewers, countReviewers, findReviewers, listReviewers, removeReviewer, type ReviewerFields } from './queries.js';
import {
  ChangeRequestRequestedReviewerSchema,
  ListReviewersQuery,
  RequestReviewersBody,
  RequestReviewersResponse,
  ReviewerParams,
} from './schemas.js';
import { lockChangeRequest } from '../model/change-requests/queries.js';
import { callerOf } from '../model/access/auth.js';

const tags = ['change-requests'];

/**
 * Reviews are asked for on work under way: not once merged, and not while
 * archived (asking people to review work set aside would only mislead them).
 */
function requireRequestable(status: string): void {
  if (status === 'merged') throw new ConflictError('The change request is merged; reviews can no longer be requested on it');
  if (status === 'archived') throw new ConflictError('The change request is archived; set its status to open or draft to request reviews');
}

/** The users a page of reviewers shows: the ones asked and the ones who asked. */
function peopleOf(rows: readonly ReviewerFields[]): (string | null)[] {
  return rows.flatMap((row) => [row.user_id, row.requester_id]);
}

export const reviewerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getRequestedReviewersByChangeRequestId',
        tags,
        summary: 'The users asked to review a change request, oldest request first',
        params: ChangeRequestParams,
        querystring: ListReviewersQuery,
        response: { 200: ListEnvelope(ChangeRequestRequestedReviewerSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { space } = await findSpaceAsMember(app.context, request.params.spaceId, callerOf(request).userId);
      const changeRequest = await changeRequestIn(app.context, space.id, request.params.changeRequestId);
      // Always oldest first: the spec offers no order for this list.
      const page = app.cursors.request(`reviewers:${changeRequest.id}`, { ...request.query, order: 'asc' });
      const rows = await paginate(app.cursors, page, {
        rows: () => listReviewers(app.db, page, space.organization_id, changeRequest.id),
        count: () => countReviewers(app.db, space.organization_id, changeRequest.id),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.user_id }),
        toItem: (row) => row,
      });
      const emails = await emailVisibilityFor(app.db, callerOf(request).userId, peopleOf(rows.items), space.organization_id);
      return { ...rows, items: rows.items.map((row) => presentReviewer(row, app.urls, emails)) };
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'requestReviewersForChangeRequest',
        tags,
        summary: 'Ask users with at least the review role to review a change request, and optionally rename it',
        description: 'Asking a user already asked changes nothing: their first request is kept. All users are recorded, or none.',
        params: ChangeRequestParams,
        body: RequestReviewersBody,
        response: { 200: RequestReviewersResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { space } = await findEditableSpace(app.context, request.params.spaceId, callerOf(request).userId, 'Requesting reviewers');
      const changeRequest = await changeRequestIn(app.context, space.id, request.params.changeRequestId);
      // Checked again under the lock; here too, so that a closed change request costs no transaction.
      requireRequestable(changeRequest.status);
      const { users, subject } = request.body;
      // The same for every user: the space's and its collections' default levels, as read with the space.
      const levels = [space.default_level, ...(space.chain_levels ?? [])];

      const rows = await app.db.transaction().execute(async (tx) => {
        // Space first, then change request: the order merges take, so the two never deadlock.
        // A key-share lock is enough (the rows inserted below take one anyway) and leaves other change requests of the space free.
        const { organization_id: organizationId } = await tx
          .selectFrom('spaces')
          .select('organization_id')
          .where('id', '=', space.id)
          .forKeyShare()
          .executeTakeFirstOrThrow();
        const locked = await lockChangeRequest(tx, changeRequest.id);
        requireRequestable(locked.status);

        const roles = await activeMemberRoles(tx, organizationId, users);
        const refused = users.filter((userId) => !roleAtLeast(effectiveRole(roles.get(userId), levels), 'review'));
        if (refused.length > 0) {
          throw new BadRequestError(
            `body/users names users who cannot review this change request: ${refused.join(', ')}; a reviewer must be an active member of the organization with at least the review role on the space`,
          );
        }

        const now = app.clock.now();
        if (subject !== undefined) await tx.updateTable('change_requests').set({ subject, updated_at: now }).where('id', '=', changeRequest.id).execute();
        const target = { organizationId, spaceId: space.id, changeRequestId: changeRequest.id };
        await addReviewers(tx, { ...target, revisionId: locked.revision_id, requestedBy: callerOf(request).userId, createdAt: now }, users);
        return findReviewers(tx, organizationId, changeRequest.id, users);
      });

      const byUser = new Map(rows.map((row) => [row.user_id, row]));
      const emails = await emailVisibilityFor(app.db, callerOf(request).userId, peopleOf(rows), space.organization_id);
      return { users: users.map((userId) => presentReviewer(byUser.get(userId)!, app.urls, emails)) };
    },
  );

  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/requested-reviewers/:userId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'removeRequestedReviewerFromChangeRequest',
        tags,
        summary: 'Withdraw a review request; editors may withdraw any, a requested user their own',
        params: ReviewerParams,
        response: { 205: Type.Null({ description: 'Removed' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { space, role } = await findSpaceAsMember(app.context, request.params.spaceId, callerOf(request).userId);
      const changeRequest = await changeRequestIn(app.context, space.id, request.params.changeRequestId);
      const { userId } = request.params;
      // Reading the space is enough to step down as one's own reviewer.
      if (userId !== callerOf(request).userId && !roleAtLeast(role, 'edit')) {
        throw new ForbiddenError('Removing a requested reviewer needs the edit role on the space; others may only remove themselves');
      }
      if (space.edit_mode === 'locked') throw new ForbiddenError('The space is locked: removing a requested reviewer is refused until it is set back to live');

      await app.db.transaction().execute(async (tx) => {
        const locked = await lockChangeRequest(tx, changeRequest.id);
        // A merged change request keeps the record of who was asked to review it.
        if (locked.status === 'merged') throw new ConflictError('The change request is merged; its requested reviewers can no longer change');
        if (!(await removeReviewer(tx, space.organization_id, changeRequest.id, userId))) {
          throw new NotFoundError('No review was requested from this user on the change request');
        }
      });
      return noContent(reply, 205);
    },
  );
};
