import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';

/**
 * A review request with what a response shows: the user or the team asked
 * (one of them), and the user who asked (gone: null).
 */
function reviewersWithPeople(db: Kysely<Database>, organizationId: string, changeRequestId: string) {
  return db
    .selectFrom('change_request_reviewers as r')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('teams as t', 't.id', 'r.team_id')
    .leftJoin('users as rb', 'rb.id', 'r.requested_by')
    .where('r.organization_id', '=', organizationId)
    .where('r.change_request_id', '=', changeRequestId)
    .select([
      'r.reviewer_id',
      'r.user_id',
      'r.team_id',
      'r.revision_id',
      'r.created_at',
      'u.email',
      'u.display_name',
      'u.photo_url',
      't.title as team_title',
      'rb.id as requester_id',
      'rb.email as requester_email',
      'rb.display_name as requester_display_name',
      'rb.photo_url as requester_photo_url',
    ]);
}

export type ReviewerFields = Awaited<ReturnType<ReturnType<typeof reviewersWithPeople>['execute']>>[number];

/** A page of a change request's review requests, oldest first, with their people and teams and the total count. */
export const listReviewers = pageQuery(
  { createdAt: 'r.created_at', id: 'r.reviewer_id' },
  (db, organizationId: string, changeRequestId: string) =>
    reviewersWithPeople(db, organizationId, changeRequestId).select(() =>
      db
        .selectFrom('change_request_reviewers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', organizationId)
        .where('change_request_id', '=', changeRequestId)
        .as(TOTAL_COUNT),
    ),
);

/** How many review requests the change request has, for pages that carry no rows. */
export async function countReviewers(db: Db, organizationId: string, changeRequestId: string): Promise<number> {
  const { n } = await db
    .selectFrom('change_request_reviewers')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('change_request_id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The review requests of the users and teams among `reviewerIds`, with their people, in one query. */
export async function findReviewers(
  db: Db,
  organizationId: string,
  changeRequestId: string,
  reviewerIds: readonly string[],
): Promise<ReviewerFields[]> {
  if (reviewerIds.length === 0) return [];
  return reviewersWithPeople(db, organizationId, changeRequestId)
    .where('r.reviewer_id', 'in', [...reviewerIds])
    .execute();
}

/** Whether the user is in the team, a team of the organization. */
export async function isTeamMember(db: Db, organizationId: string, teamId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewReviewers {
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  revisionId: string;
  requestedBy: string;
  createdAt: Date;
}

/**
 * Records the requests of users and of teams in one statement; one already
 * requested keeps its first request (when, by whom, at which revision).
 */
export async function addReviewers(
  db: Db,
  request: NewReviewers,
  asked: { users: readonly string[]; teams: readonly string[] },
): Promise<void> {
  const reviewers = [
    ...asked.users.map((userId) => ({ user_id: userId, team_id: null })),
    ...asked.teams.map((teamId) => ({ user_id: null, team_id: teamId })),
  ];
  if (reviewers.length === 0) return;
  await db
    .insertInto('change_request_reviewers')
    .values(
      reviewers.map((reviewer) => ({
        organization_id: request.organizationId,
        space_id: request.spaceId,
        change_request_id: request.changeRequestId,
        ...reviewer,
        requested_by: request.requestedBy,
        revision_id: request.revisionId,
        created_at: request.createdAt,
      })),
    )
    .onConflict((oc) => oc.columns(['change_request_id', 'reviewer_id']).doNothing())
    .execute();
}

/** Removes the request of one user or team; false when none was made. */
export async function removeReviewer(
  db: Db,
  organizationId: string,
  changeRequestId: string,
  reviewerId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('change_request_reviewers')
    .where('organization_id', '=', organizationId)
    .where('change_request_id', '=', changeRequestId)
    .where('reviewer_id', '=', reviewerId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
