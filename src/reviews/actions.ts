import { ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate } from '../core/pagination.js';
import { roleAtLeast } from '../access/roles.js';
import type { SpaceWithAccess } from '../access/space-queries.js';
import { findSpaceAsMember } from '../access/spaces.js';
import { changeRequestIn } from '../content/change-request-access.js';
import type { ChangeRequestFields } from '../content/change-request-queries.js';
import { lockSpaceThenChangeRequest } from '../content/write-locks.js';
import type { ReviewFactsReader } from '../change-requests/merge-check.js';
import { showComments } from '../comments/actions.js';
import { readBody } from '../comments/documents.js';
import { findComments, insertComment, moveThreadCounts } from '../comments/queries.js';
import type { BodyFormat, Comment } from '../comments/schemas.js';
import { threadOf } from '../comments/threads.js';
import type { Role } from '../db/types.js';
import type { Context } from '../context.js';
import { emailVisibilityFor } from '../users/user-queries.js';
import { presentReview } from './present.js';
import {
  countReviews,
  currentReviews,
  findReview,
  insertReview,
  listReviews,
  takeAnsweredRequests,
  type ReviewFields,
} from './queries.js';
import type { ChangeRequestReview, ListReviewsInput, SubmitReviewInput } from './schemas.js';

/** Reviews are of work under way: a merged change request is done, an archived one set aside. */
function requireReviewable(status: string): void {
  if (status === 'merged') throw new ConflictError('The change request is merged; it can no longer be reviewed');
  if (status === 'archived') {
    throw new ConflictError('The change request is archived; set its status to open or draft to review it');
  }
}

/** Reviews as the caller sees them, each with its comment (in the form asked) where it has one. */
async function showReviews(
  context: Context,
  userId: string,
  viewing: { space: SpaceWithAccess; role: Role; changeRequest: ChangeRequestFields },
  rows: readonly ReviewFields[],
  format: BodyFormat,
): Promise<ChangeRequestReview[]> {
  const thread = threadOf(viewing.space, viewing.role, viewing.changeRequest);
  const commentIds = rows.flatMap((row) => (row.comment_id ? [row.comment_id] : []));
  const commentRows = await findComments(context.db, thread.ids, commentIds);
  // Each comment is shown with its repliers, as every comment is.
  const shown = commentRows.length > 0 ? await showComments(context, thread, commentRows, format, userId) : [];
  const people = rows.flatMap((row) => [row.reviewer_id, row.requester_id]);
  const emails = await emailVisibilityFor(context.db, userId, people, viewing.space.organization_id);
  const comments = new Map<string, Comment>(shown.map((comment: Comment) => [comment.id, comment]));
  return rows.map((row) =>
    presentReview(row, row.comment_id ? comments.get(row.comment_id) : undefined, context.urls, emails),
  );
}

async function openChangeRequest(context: Context, userId: string, spaceId: string, changeRequestId: string) {
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  return { space, role, changeRequest };
}

/** A page of the change request's reviews, newest first unless asked otherwise, current or outdated if asked. */
export async function listChangeRequestReviews(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  query: ListReviewsInput,
) {
  const viewing = await openChangeRequest(context, userId, spaceId, changeRequestId);
  const { space, changeRequest } = viewing;
  const onlyOutdated = query.outdated ?? null;
  const page = context.cursors.request(`reviews:${changeRequest.id}:${String(onlyOutdated)}`, query);
  const args = [space.organization_id, changeRequest.id, onlyOutdated] as const;
  const rows = await paginate(context.cursors, page, {
    rows: () => listReviews(context.db, page, ...args),
    count: () => countReviews(context.db, ...args),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  return { ...rows, items: await showReviews(context, userId, viewing, rows.items, query.format) };
}

/** One review of the change request. */
export async function getChangeRequestReview(
  context: Context,
  userId: string,
  target: { spaceId: string; changeRequestId: string; reviewId: string },
  format: BodyFormat,
): Promise<ChangeRequestReview> {
  const viewing = await openChangeRequest(context, userId, target.spaceId, target.changeRequestId);
  const row = await findReview(context.db, viewing.space.organization_id, viewing.changeRequest.id, target.reviewId);
  if (!row) throw new NotFoundError('No review with this id on the change request');
  return (await showReviews(context, userId, viewing, [row], format))[0]!;
}

/**
 * Records a review of the change request's current revision by a member with
 * at least the review role, with a comment in its thread if one is given; it
 * answers the review requests of the reviewer and of their teams. The author
 * may request changes on their own work but not approve it.
 */
export async function submitChangeRequestReview(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  input: SubmitReviewInput,
): Promise<ChangeRequestReview> {
  const viewing = await openChangeRequest(context, userId, spaceId, changeRequestId);
  const { space, role, changeRequest } = viewing;
  if (!roleAtLeast(role, 'review')) throw new ForbiddenError('Reviewing a change request needs the review role');
  if (space.edit_mode === 'locked') {
    throw new ForbiddenError('The space is locked: reviews are refused until it is set back to live');
  }
  if (input.status === 'approved' && changeRequest.author_id === userId) {
    throw new ForbiddenError('The author of a change request cannot approve it');
  }
  // Checked again under the lock; here too, so that a closed change request costs no conversion.
  requireReviewable(changeRequest.status);
  const comment = input.comment ? await readBody(context, input.comment, 'body/comment') : null;
  const id = newId();

  await context.db.transaction().execute(async (tx) => {
    // As a request of reviewers: a key-share lock on the space, and the change request's row, which a
    // merge takes too, so that a merge reads the reviews of the revision it merges.
    const { changeRequest: locked } = await lockSpaceThenChangeRequest(tx, space.id, changeRequest.id, 'key-share');
    requireReviewable(locked.status);
    const now = context.clock.now();
    const ids = { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest.id };
    const requestedBy = await takeAnsweredRequests(tx, ids.organizationId, ids.changeRequestId, userId);
    let commentId: string | null = null;
    if (comment !== null && comment.body.trim() !== '') {
      commentId = newId();
      const target = { page_id: null, page_version_id: null, page_path: null, node_id: null, node_preview: null };
      const row = { id: commentId, revision_id: locked.revision_id, ...target, posted_by: userId, posted_at: now };
      await insertComment(tx, ids, { ...row, ...comment });
      await moveThreadCounts(tx, ids, 1, 1);
    }
    await insertReview(tx, {
      id,
      organization_id: ids.organizationId,
      space_id: ids.spaceId,
      change_request_id: ids.changeRequestId,
      reviewer_id: userId,
      revision_id: locked.revision_id,
      status: input.status,
      requested_by: requestedBy,
      comment_id: commentId,
      created_at: now,
      updated_at: now,
    });
  });
  return getChangeRequestReview(
    context,
    userId,
    { spaceId: space.id, changeRequestId: changeRequest.id, reviewId: id },
    'markdown',
  );
}

/** What the merge rules read of a change request's reviews; set on Context by the app. */
export const readReviewFacts: ReviewFactsReader = async (db, target) => {
  const { reviews, pending } = await currentReviews(db, target);
  const approvedBy = new Set<string>();
  const changesRequestedBy = new Set<string>();
  for (const review of reviews)
    (review.status === 'approved' ? approvedBy : changesRequestedBy).add(review.reviewer_id);
  return { approvedBy, changesRequestedBy, pendingRequests: pending };
};
