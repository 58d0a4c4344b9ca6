import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { CommentRepliesTable, CommentReplyRow } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import type { StoredBody } from './body-queries.js';
import type { Thread } from './queries.js';

const REPLY_COLUMNS = [
  'r.id',
  'r.organization_id',
  'r.space_id',
  'r.comment_id',
  'r.posted_by',
  'r.posted_at',
  'r.edited_at',
  'r.body',
] as const;

/** One reply of the comment, or undefined. */
export async function findReply(db: Db, commentId: string, replyId: string): Promise<CommentReplyRow | undefined> {
  return db
    .selectFrom('comment_replies as r')
    .select(REPLY_COLUMNS)
    .where('r.id', '=', replyId)
    .where('r.comment_id', '=', commentId)
    .executeTakeFirst();
}

/** A page of a comment's replies, oldest first, each row carrying the count. */
export const listReplies = pageQuery({ createdAt: 'r.posted_at', id: 'r.id' }, (db, commentId: string) =>
  db
    .selectFrom('comment_replies as r')
    .select(REPLY_COLUMNS)
    .select((eb) =>
      eb
        .selectFrom('comment_replies as all')
        .select(eb.fn.countAll<string>().as('n'))
        .where('all.comment_id', '=', commentId)
        .as(TOTAL_COUNT),
    )
    .where('r.comment_id', '=', commentId),
);

/**
 * The first `perComment` replies of each of the comments of the space, oldest
 * first, in one query: the replies a page's conversation shows.
 */
export async function firstRepliesOf(
  db: Db,
  spaceId: string,
  commentIds: readonly string[],
  perComment: number,
): Promise<CommentReplyRow[]> {
  if (commentIds.length === 0) return [];
  const ranked = db
    .selectFrom('comment_replies as r')
    .select(REPLY_COLUMNS)
    .select(sql<string>`row_number() over (partition by r.comment_id order by r.posted_at, r.id)`.as('place'))
    .where('r.space_id', '=', spaceId)
    .where('r.comment_id', 'in', commentIds)
    .as('ranked');
  return db
    .selectFrom(ranked)
    .select(['id', 'organization_id', 'space_id', 'comment_id', 'posted_by', 'posted_at', 'edited_at', 'body'])
    .where('place', '<=', String(perComment))
    .orderBy('comment_id')
    .orderBy('posted_at')
    .orderBy('id')
    .execute();
}

export type NewReply = Omit<Insertable<CommentRepliesTable>, 'organization_id' | 'space_id'>;

export async function insertReply(db: Db, thread: Thread, reply: NewReply): Promise<void> {
  await db
    .insertInto('comment_replies')
    .values({ ...reply, organization_id: thread.organizationId, space_id: thread.spaceId })
    .execute();
}

/** Locks a reply for an update; undefined when it is gone. */
export async function lockReply(db: Db, replyId: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('comment_replies').select('id').where('id', '=', replyId).forUpdate().executeTakeFirst();
}

export async function setReplyBody(db: Db, replyId: string, body: StoredBody, now: Date): Promise<void> {
  await db
    .updateTable('comment_replies')
    .set({ ...body, edited_at: now })
    .where('id', '=', replyId)
    .execute();
}

/** Deletes a reply (its reactions go with it); undefined when it was gone. */
export async function deleteReplyRow(
  db: Db,
  thread: { organizationId: string; spaceId: string },
  replyId: string,
): Promise<{ comment_id: string } | undefined> {
  return db
    .deleteFrom('comment_replies')
    .where('organization_id', '=', thread.organizationId)
    .where('space_id', '=', thread.spaceId)
    .where('id', '=', replyId)
    .returning('comment_id')
    .executeTakeFirst();
}

/** Moves the count of a comment's replies, kept with every reply posted or deleted. */
export async function moveRepliesCount(db: Db, commentId: string, by: -1 | 1): Promise<void> {
  await db
    .updateTable('comments')
    .set((eb) => ({ replies_count: eb('replies_count', by === 1 ? '+' : '-', 1) }))
    .where('id', '=', commentId)
    .execute();
}
