import type { Db } from '../db/database.js';
import { anyOf, type Thread } from './queries.js';

/** What a reaction is to: a comment (replyId null) or one of its replies. */
export interface ReactionTarget {
  commentId: string;
  replyId: string | null;
}

/** Adds one user's reactions; each user counts once per emoji. */
export async function addReactions(
  db: Db,
  thread: Thread,
  target: ReactionTarget,
  emojis: readonly string[],
  userId: string,
  now: Date,
): Promise<void> {
  if (emojis.length === 0) return;
  await db
    .insertInto('comment_reactions')
    .values(
      emojis.map((emoji) => ({
        organization_id: thread.organizationId,
        space_id: thread.spaceId,
        comment_id: target.commentId,
        reply_id: target.replyId,
        emoji,
        user_id: userId,
        reacted_at: now,
      })),
    )
    // A second reaction with the same emoji is the same reaction; concurrent ones cannot overwrite each other.
    .onConflict((oc) => oc.columns(['comment_id', 'reply_id', 'emoji', 'user_id']).doNothing())
    .execute();
}

/** Removes one user's reactions. */
export async function removeReactions(
  db: Db,
  target: ReactionTarget,
  emojis: readonly string[],
  userId: string,
): Promise<void> {
  if (emojis.length === 0) return;
  let removal = db
    .deleteFrom('comment_reactions')
    .where('comment_id', '=', target.commentId)
    .where('user_id', '=', userId)
    .where('emoji', 'in', [...emojis]);
  removal =
    target.replyId === null ? removal.where('reply_id', 'is', null) : removal.where('reply_id', '=', target.replyId);
  await removal.execute();
}

export interface ReactionRecord {
  comment_id: string;
  reply_id: string | null;
  emoji: string;
  user_id: string;
  reacted_at: Date;
}

export async function reactionsToReplies(db: Db, replyIds: readonly string[]): Promise<ReactionRecord[]> {
  if (replyIds.length === 0) return [];
  return db
    .selectFrom('comment_reactions')
    .select(['comment_id', 'reply_id', 'emoji', 'user_id', 'reacted_at'])
    .where(anyOf('reply_id', replyIds))
    .orderBy('reacted_at')
    .orderBy('emoji')
    .orderBy('user_id')
    .execute();
}
