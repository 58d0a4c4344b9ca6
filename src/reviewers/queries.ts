import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, Role } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';

/** A requested reviewer with both users a response shows: the one asked, and the one who asked (gone: null). */
function reviewersWithUsers(db: Kysely<Database>, organizationId: string, changeRequestId: string) {
  return db
    .selectFrom('change_request_reviewers as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('users as rb', 'rb.id', 'r.requested_by')
    .where('r.organization_id', '=', organizationId)
    .where('r.change_request_id', '=', changeRequestId)
    .select([
      'r.user_id',
      'r.revision_id',
      'r.created_at',
      'u.email',
      'u.display_name',
      'u.photo_url',
      'rb.id as requester_id',
      'rb.email as requester_email',
      'rb.display_name as requester_display_name',
      'rb.photo_url as requester_photo_url',
    ]);
}

export type ReviewerFields = Awaited<ReturnType<ReturnType<typeof reviewersWithUsers>['execute']>>[number];

/** A page of a change request's requested reviewers, oldest first, with their users and the total count. */
export const listReviewers = pageQuery(
  { createdAt: 'r.created_at', id: 'r.user_id' },
  (db, organizationId: string, changeRequestId: string) =>
    reviewersWithUsers(db, organizationId, changeRequestId).select(() =>
      db
        .selectFrom('change_request_reviewers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', organizationId)
        .where('change_request_id', '=', changeRequestId)
        .as(TOTAL_COUNT),
    ),
);

/** How many reviewers the change request has, for pages that carry no rows. */
export async function countReviewers(db: Db, organizationId: string, changeRequestId: string): Promise<number> {
  const { n } = await db
    .selectFrom('change_request_reviewers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('change_request_id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The requested reviewers among `userIds`, with their users, in one query. */
export async function findReviewers(
  db: Db,
  organizationId: string,
  changeRequestId: string,
  userIds: readonly string[],
): Promise<ReviewerFields[]> {
  if (userIds.length === 0) return [];
  return reviewersWithUsers(db, organizationId, changeRequestId)
    .where('r.user_id', 'in', [...userIds])
    .execute();
}

/** The organization roles of those of `userIds` who are active members (null: a guest); others are absent. */
export async function activeMemberRoles(
  db: Db,
  organizationId: string,
  userIds: readonly string[],
): Promise<Map<string, Role | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('organization_members')
    .select(['user_id', 'role'])
    .where('organization_id', '=', organizationId)
    .where('user_id', 'in', [...userIds])
    .where('disabled', '=', false)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.role]));
}

export interface NewReviewers {
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  revisionId: string;
  requestedBy: string;
  createdAt: Date;
}

/** Records the requests; a user already requested keeps their first request (when, by whom, at which revision). */
export async function addReviewers(db: Db, request: NewReviewers, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('change_request_reviewers')
    .values(
      userIds.map((userId) => ({
        organization_id: request.organizationId,
        space_id: request.spaceId,
        change_request_id: request.changeRequestId,
        user_id: userId,
        requested_by: request.requestedBy,
        revision_id: request.revisionId,
        created_at: request.createdAt,
      })),
    )
    .onConflict((oc) => oc.columns(['change_request_id', 'user_id']).doNothing())
    .execute();
}

/** Removes one requested reviewer; false when the user was not requested. */
export async function removeReviewer(
  db: Db,
  organizationId: string,
  changeRequestId: string,
  userId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('change_request_reviewers')
    .where('organization_id', '=', organizationId)
    .where('change_request_id', '=', changeRequestId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
