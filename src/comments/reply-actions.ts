import { ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import type { CommentReplyRow } from '../db/types.js';
import type { Context } from '../context.js';
import { emailVisibilityFor } from '../users/user-queries.js';
import { bodyDocuments, readBody } from './documents.js';
import { presentReplies } from './present.js';
import { lockComment, shareLockComment, usersByIds } from './queries.js';
import { addReactions, reactionsToReplies, removeReactions } from './reaction-queries.js';
import {
  deleteReplyRow,
  firstRepliesOf,
  insertReply,
  listReplies,
  lockReply,
  moveRepliesCount,
  setReplyBody,
} from './reply-queries.js';
import type {
  BodyFormat,
  CommentReply,
  ListRepliesQuery,
  PostReplyBody,
  ReplyLocator,
  CommentLocator,
  UpdateReplyBody,
} from './schemas.js';
import {
  checkReactions,
  commentIn,
  mayDelete,
  openThread,
  replyIn,
  requireCommenter,
  type OpenThread,
} from './threads.js';

/**
 * Replies as one caller sees them, with their reactions, their users and
 * whose e-mails the caller may see, read for the whole batch at once; and,
 * where the format asks for them, the bodies' documents.
 */
async function showReplies(
  context: Context,
  thread: OpenThread,
  rows: readonly CommentReplyRow[],
  format: BodyFormat,
  userId: string,
): Promise<CommentReply[]> {
  const reactions = await reactionsToReplies(
    context.db,
    rows.map((row) => row.id),
  );
  const users = await usersByIds(context.db, [
    ...rows.map((row) => row.posted_by),
    ...reactions.map((reaction) => reaction.user_id),
  ]);
  const emails = await emailVisibilityFor(context.db, userId, [...users.keys()], thread.space.organization_id);
  const documents = format === 'document' ? await bodyDocuments(context, 'comment_replies', rows) : null;
  return presentReplies(rows, reactions, users, { thread, userId, urls: context.urls, emails, documents });
}

async function showReply(
  context: Context,
  thread: OpenThread,
  commentId: string,
  replyId: string,
  format: BodyFormat,
  userId: string,
): Promise<CommentReply> {
  const reply = await replyIn(context, thread, commentId, replyId);
  return (await showReplies(context, thread, [reply], format, userId))[0]!;
}

/** The replies to a comment, oldest first. */
export async function listCommentReplies(
  context: Context,
  userId: string,
  locator: CommentLocator,
  query: ListRepliesQuery,
): Promise<Page<CommentReply>> {
  const thread = await openThread(context, locator, userId);
  const comment = await commentIn(context, thread, locator.commentId);
  const page = context.cursors.request(`replies:${comment.id}`, { ...query, order: 'asc' });
  const rows = await paginate(context.cursors, page, {
    rows: () => listReplies(context.db, page, comment.id),
    count: async () => comment.replies_count,
    keyOf: (row) => ({ createdAt: row.posted_at, id: row.id }),
    toItem: (row) => row,
  });
  return { ...rows, items: await showReplies(context, thread, rows.items, query.format, userId) };
}

/**
 * The first `perComment` replies of each of the thread's comments named, as
 * `listCommentReplies` shows them (markdown bodies), read in one batch for a
 * page's conversation, of a thread the caller has opened; by comment id.
 */
export async function firstRepliesOfComments(
  context: Context,
  userId: string,
  thread: OpenThread,
  commentIds: readonly string[],
  perComment: number,
): Promise<Map<string, CommentReply[]>> {
  if (commentIds.length === 0) return new Map();
  const rows = await firstRepliesOf(context.db, thread.space.id, commentIds, perComment);
  const shown = await showReplies(context, thread, rows, 'markdown', userId);
  const byComment = new Map<string, CommentReply[]>();
  rows.forEach((row, index) => {
    const replies = byComment.get(row.comment_id) ?? [];
    replies.push(shown[index]!);
    byComment.set(row.comment_id, replies);
  });
  return byComment;
}

export async function getReply(
  context: Context,
  userId: string,
  locator: ReplyLocator,
  format: BodyFormat,
): Promise<CommentReply> {
  const thread = await openThread(context, locator, userId);
  return showReply(context, thread, locator.commentId, locator.commentReplyId, format, userId);
}

/** Replies to a comment, and counts the reply with it. */
export async function postReply(
  context: Context,
  userId: string,
  locator: CommentLocator,
  input: PostReplyBody,
  format: BodyFormat,
): Promise<CommentReply> {
  const thread = await openThread(context, locator, userId);
  const comment = await commentIn(context, thread, locator.commentId);
  requireCommenter(thread, 'Replying');
  const body = await readBody(context, input.body, 'body/body');
  const id = newId();
  await context.db.transaction().execute(async (tx) => {
    // The row lock keeps the count exact against a concurrent delete of the comment.
    const locked = await lockComment(tx, comment.id);
    if (!locked) throw new NotFoundError('No comment with this id in the thread');
    await insertReply(tx, thread.ids, {
      id,
      comment_id: comment.id,
      posted_by: userId,
      posted_at: context.clock.now(),
      ...body,
    });
    await moveRepliesCount(tx, comment.id, 1);
  });
  return showReply(context, thread, comment.id, id, format, userId);
}

/** Changes a reply's body (its author) or the caller's reactions to it, in one transaction. */
export async function updateReply(
  context: Context,
  userId: string,
  locator: ReplyLocator,
  update: UpdateReplyBody,
): Promise<CommentReply> {
  const thread = await openThread(context, locator, userId);
  const reply = await replyIn(context, thread, locator.commentId, locator.commentReplyId);
  requireCommenter(thread, 'Updating a reply');
  if (update.body !== undefined && reply.posted_by !== userId)
    throw new ForbiddenError('Only the author of a reply may change its body');
  checkReactions(update.addedReactions, 'body/addedReactions');
  checkReactions(update.removedReactions, 'body/removedReactions');
  const body = update.body === undefined ? undefined : await readBody(context, update.body, 'body/body');
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    // Comment, then reply: the order a delete of either takes, so the two never deadlock.
    await shareLockComment(tx, reply.comment_id);
    const locked = await lockReply(tx, reply.id);
    if (!locked) throw new NotFoundError('No reply with this id to the comment');
    if (body !== undefined) await setReplyBody(tx, reply.id, body, now);
    const target = { commentId: reply.comment_id, replyId: reply.id };
    await addReactions(tx, thread.ids, target, update.addedReactions ?? [], userId, now);
    await removeReactions(tx, target, update.removedReactions ?? [], userId);
  });
  return showReply(context, thread, reply.comment_id, reply.id, 'markdown', userId);
}

/** Deletes a reply and uncounts it; its author or an admin may. */
export async function deleteReply(context: Context, userId: string, locator: ReplyLocator): Promise<void> {
  const thread = await openThread(context, locator, userId);
  const reply = await replyIn(context, thread, locator.commentId, locator.commentReplyId);
  if (!mayDelete(thread, reply.posted_by === userId)) {
    throw new ForbiddenError('Only the author of a reply or an admin of the space may delete it');
  }
  requireCommenter(thread, 'Deleting a reply');
  await context.db.transaction().execute(async (tx) => {
    // Comment, then reply, as every change to a reply locks them, so that none deadlock.
    await lockComment(tx, reply.comment_id);
    const deleted = await deleteReplyRow(tx, thread.ids, reply.id);
    if (!deleted) throw new NotFoundError('No reply with this id to the comment');
    await moveRepliesCount(tx, reply.comment_id, -1);
  });
}
