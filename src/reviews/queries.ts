import { sql, type Insertable, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { ChangeRequestReviewsTable, Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';

/**
 * Whether the review `rv` is superseded (SQL): its change request has a newer
 * revision, its reviewer a newer review, or their review was asked for again
 * since (a review takes its request away, so a request of them now is newer).
 */
const outdated = sql<boolean>`(rv.revision_id <> cr.revision_id
  or exists (select 1 from change_request_reviews n where n.change_request_id = rv.change_request_id
    and n.reviewer_id = rv.reviewer_id and (n.created_at, n.id) > (rv.created_at, rv.id))
  or exists (select 1 from change_request_reviewers q where q.change_request_id = rv.change_request_id
    and q.user_id = rv.reviewer_id and q.created_at >= rv.created_at))`;

/** A change request's reviews with their people, filtered on `outdated` unless it is null. */
function reviewsWithPeople(
  db: Kysely<Database>,
  organizationId: string,
  changeRequestId: string,
  onlyOutdated: boolean | null,
) {
  return db
    .selectFrom('change_request_reviews as rv')
    .innerJoin('change_requests as cr', 'cr.id', 'rv.change_request_id')
    .innerJoin('users as u', 'u.id', 'rv.reviewer_id')
    .leftJoin('users as rb', 'rb.id', 'rv.requested_by')
    .where('rv.organization_id', '=', organizationId)
    .where('rv.change_request_id', '=', changeRequestId)
    .where(sql<boolean>`(${onlyOutdated}::boolean is null or ${outdated} = ${onlyOutdated}::boolean)`)
    .select([
      'rv.id',
      'rv.space_id',
      'rv.change_request_id',
      'rv.revision_id',
      'rv.status',
      'rv.comment_id',
      'rv.created_at',
      'rv.updated_at',
      'u.id as reviewer_id',
      'u.email as reviewer_email',
      'u.display_name as reviewer_display_name',
      'u.photo_url as reviewer_photo_url',
      'rb.id as requester_id',
      'rb.email as requester_email',
      'rb.display_name as requester_display_name',
      'rb.photo_url as requester_photo_url',
      outdated.as('outdated'),
    ]);
}

export type ReviewFields = Awaited<ReturnType<ReturnType<typeof reviewsWithPeople>['execute']>>[number];

/** A page of a change request's reviews, with the count of the whole (filtered) list on each row. */
export const listReviews = pageQuery(
  { createdAt: 'rv.created_at', id: 'rv.id' },
  (db, organizationId: string, changeRequestId: string, onlyOutdated: boolean | null) =>
    reviewsWithPeople(db, organizationId, changeRequestId, onlyOutdated).select(() =>
      db
        .selectFrom('change_request_reviews as rv')
        .innerJoin('change_requests as cr', 'cr.id', 'rv.change_request_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('rv.organization_id', '=', organizationId)
        .where('rv.change_request_id', '=', changeRequestId)
        .where(sql<boolean>`(${onlyOutdated}::boolean is null or ${outdated} = ${onlyOutdated}::boolean)`)
        .as(TOTAL_COUNT),
    ),
);

/** How many reviews the list has, for pages that carry no rows. */
export async function countReviews(
  db: Db,
  organizationId: string,
  changeRequestId: string,
  onlyOutdated: boolean | null,
): Promise<number> {
  const { n } = await db
    .selectFrom('change_request_reviews as rv')
    .innerJoin('change_requests as cr', 'cr.id', 'rv.change_request_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('rv.organization_id', '=', organizationId)
    .where('rv.change_request_id', '=', changeRequestId)
    .where(sql<boolean>`(${onlyOutdated}::boolean is null or ${outdated} = ${onlyOutdated}::boolean)`)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function findReview(
  db: Db,
  organizationId: string,
  changeRequestId: string,
  reviewId: string,
): Promise<ReviewFields | undefined> {
  return reviewsWithPeople(db, organizationId, changeRequestId, null).where('rv.id', '=', reviewId).executeTakeFirst();
}

export async function insertReview(db: Db, row: Insertable<ChangeRequestReviewsTable>): Promise<void> {
  await db.insertInto('change_request_reviews').values(row).execute();
}

/**
 * Takes away the review requests a review by `userId` answers: their own, and
 * those of the teams they are in. Gives who asked: for their own request
 * first, else for the earliest of their teams'.
 */
export async function takeAnsweredRequests(
  db: Db,
  organizationId: string,
  changeRequestId: string,
  userId: string,
): Promise<string | null> {
  const taken = await db
    .deleteFrom('change_request_reviewers')
    .where('organization_id', '=', organizationId)
    .where('change_request_id', '=', changeRequestId)
    .where((eb) =>
      eb.or([
        eb('user_id', '=', userId),
        eb(
          'team_id',
          'in',
          eb
            .selectFrom('team_members')
            .select('team_id')
            .where('organization_id', '=', organizationId)
            .where('user_id', '=', userId),
        ),
      ]),
    )
    .returning(['user_id', 'requested_by', 'created_at'])
    .execute();
  const own = taken.find((row) => row.user_id === userId);
  const first = own ?? [...taken].sort((a, b) => a.created_at.getTime() - b.created_at.getTime())[0];
  return first?.requested_by ?? null;
}

/**
 * The latest review of each reviewer whose review is current on `revisionId`
 * (not superseded), and how many review requests are unanswered: what the
 * merge rules read.
 */
export async function currentReviews(
  db: Db,
  target: { organizationId: string; changeRequestId: string; revisionId: string },
) {
  const [reviews, pending] = await Promise.all([
    db
      .selectFrom('change_request_reviews as rv')
      .innerJoin('change_requests as cr', 'cr.id', 'rv.change_request_id')
      .select(['rv.reviewer_id', 'rv.status'])
      .where('rv.organization_id', '=', target.organizationId)
      .where('rv.change_request_id', '=', target.changeRequestId)
      .where('rv.revision_id', '=', target.revisionId)
      .where(sql<boolean>`not ${outdated}`)
      .execute(),
    db
      .selectFrom('change_request_reviewers')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', target.organizationId)
      .where('change_request_id', '=', target.changeRequestId)
      .executeTakeFirstOrThrow(),
  ]);
  return { reviews, pending: Number(pending.n) };
}
