import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import type { Thread } from './queries.js';

/**
 * The users who posted a comment or a reply in the thread (`threadKey`: ''
 * for the space's own, else the change request), each with when they first
 * did, and whether they are still in the organization: people who left are
 * listed too, since their posts stay. First posters first.
 */
function commenterPage(db: Kysely<Database>, organizationId: string, spaceId: string, threadKey: string) {
  return db
    .with('posts', (qb) =>
      qb
        .selectFrom('comments as c')
        .select(['c.posted_by as user_id', 'c.posted_at'])
        .where('c.space_id', '=', spaceId)
        .where('c.thread_key', '=', threadKey)
        .unionAll(
          qb
            .selectFrom('comment_replies as r')
            .innerJoin('comments as c', 'c.id', 'r.comment_id')
            .select(['r.posted_by as user_id', 'r.posted_at'])
            .where('r.space_id', '=', spaceId)
            .where('c.thread_key', '=', threadKey),
        ),
    )
    .with('commenters', (qb) =>
      qb
        .selectFrom('posts')
        .select(['posts.user_id', sql<Date>`min(posts.posted_at)`.as('first_posted_at')])
        .groupBy('posts.user_id'),
    )
    .selectFrom('commenters as cm')
    .innerJoin('users as u', 'u.id', 'cm.user_id')
    .select([
      'cm.user_id',
      'cm.first_posted_at',
      'u.email',
      'u.display_name',
      'u.photo_url',
      sql<boolean>`exists (select 1 from organization_members m
        where m.organization_id = ${organizationId} and m.user_id = cm.user_id)`.as('is_member'),
    ])
    .select(sql<string>`(select count(*) from commenters)`.as(TOTAL_COUNT));
}

const byFirstPost = { createdAt: 'cm.first_posted_at', id: 'cm.user_id' };
const spaceCommenters = pageQuery(byFirstPost, (db, organizationId: string, spaceId: string) =>
  commenterPage(db, organizationId, spaceId, ''),
);
const changeRequestCommenters = pageQuery(
  byFirstPost,
  (db, organizationId: string, spaceId: string, changeRequestId: string) =>
    commenterPage(db, organizationId, spaceId, changeRequestId),
);

export type CommenterRow = Awaited<ReturnType<typeof spaceCommenters>>[number];

/**
 * A page of the users who commented or replied in the thread, in the order
 * they first did, with whether each is still a member of the organization.
 */
export function listCommenters(db: Db, request: PageRequest, thread: Thread): Promise<CommenterRow[]> {
  return thread.changeRequestId === null
    ? spaceCommenters(db, request, thread.organizationId, thread.spaceId)
    : changeRequestCommenters(db, request, thread.organizationId, thread.spaceId, thread.changeRequestId);
}

export async function countCommenters(db: Db, thread: Thread): Promise<number> {
  // The first row of a one-row page carries the count of the whole list.
  const [first] = await listCommenters(db, { list: '', order: 'asc', limit: 0, after: undefined }, thread);
  return Number(first?.[TOTAL_COUNT] ?? 0);
}
