import type { FastifyInstance } from 'fastify';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { isEmoji } from '../core/emoji.js';
import { findNodeByKey, nodeText, type JSONDocument } from '../model/content/document/index.js';
import type { Conversions } from '../model/content/document/conversions.js';
import type { Db } from '../db/database.js';
import type { CommentRow } from '../db/types.js';
import { MAX_BODY_CHARACTERS, type BodyInput } from './schemas.js';
import { currentTree, mayDelete, requireCommenter, type ThreadContext } from './threads.js';

/** How much of a commented block a comment shows. */
const PREVIEW_CHARACTERS = 200;

/** A body as stored: its markdown, and the JSON document made from it once, so no read parses it. */
interface StoredBody {
  body: string;
  body_document: string;
}

/** Reads a body on the conversion pool: markdown within the limit, and its document. */
async function readBody(conversions: Conversions, input: BodyInput, field: string): Promise<StoredBody> {
  const markdown = 'markdown' in input ? input.markdown : 'document' in input ? await conversions.toMarkdown(input.document as unknown as JSONDocument, field) : '';
  if (markdown.length > MAX_BODY_CHARACTERS) throw new BadRequestError(`${field} must NOT have more than ${MAX_BODY_CHARACTERS} characters of markdown`);
  return { body: markdown, body_document: await conversions.toDocumentJson(markdown, field) };
}

/** A reaction is one emoji character sequence (not code points in hex), of at most 16 bytes. */
function checkReactions(emojis: readonly string[] | undefined, field: string): void {
  for (const [index, emoji] of (emojis ?? []).entries()) {
    if (Buffer.byteLength(emoji) > 16 || /^[0-9a-f-]+$/i.test(emoji) || !isEmoji(emoji)) {
      throw new BadRequestError(`${field}/${index} must be one emoji of at most 16 bytes`);
    }
  }
}

interface TargetFields {
  page_id: string | null;
  page_version_id: string | null;
  page_path: string | null;
  node_id: string | null;
  node_preview: string | null;
}

/** The page and block a new comment is about: both must exist in the thread's current content. */
async function resolveTarget(app: FastifyInstance, context: ThreadContext, pageId: string | undefined, nodeId: string | undefined): Promise<TargetFields> {
  if (pageId === undefined) {
    if (nodeId !== undefined) throw new BadRequestError('body/node needs body/page, the page the block is on');
    return { page_id: null, page_version_id: null, page_path: null, node_id: null, node_preview: null };
  }
  const tree = await currentTree(app, context);
  const page = tree.pages.get(pageId);
  const where = context.changeRequest ? 'the change request' : 'the space';
  if (!page) throw new BadRequestError(`body/page: there is no page ${pageId} in ${where}’s content`);
  let preview: string | null = null;
  if (nodeId !== undefined) {
    const node = page.documentId ? findNodeByKey((await app.content.documentsOf(context.space.organization_id, [page]))(page), nodeId) : undefined;
    if (!node) throw new BadRequestError(`body/node: there is no block ${nodeId} on page ${pageId}`);
    preview = nodeText(node, PREVIEW_CHARACTERS);
  }
  return { page_id: page.pageId, page_version_id: page.versionId, page_path: tree.pathOf(page.pageId), node_id: nodeId ?? null, node_preview: preview };
}

/**
 * Moves the thread's counters: its open comments (the space's `comments`,
 * or the change request's) and all its comments.
 */
async function moveCounts(tx: Db, context: ThreadContext, open: -1 | 0 | 1, total: -1 | 0 | 1): Promise<void> {
  const { changeRequestId, spaceId } = context.thread;
  if (changeRequestId) {
    await tx
      .updateTable('change_requests')
      .set((eb) => ({ comments_count: eb('comments_count', '+', open), comments_total_count: eb('comments_total_count', '+', total) }))
      .where('id', '=', changeRequestId)
      .execute();
  } else {
    await tx
      .updateTable('spaces')
      .set((eb) => ({ comments_open_count: eb('comments_open_count', '+', open), comments_total_count: eb('comments_total_count', '+', total) }))
      .where('id', '=', spaceId)
      .execute();
  }
}

export async function postComment(
  app: FastifyInstance,
  context: ThreadContext,
  input: { page?: string; node?: string; body: BodyInput },
  userId: string,
): Promise<string> {
  requireCommenter(context, 'Commenting');
  const body = await readBody(app.conversions, input.body, 'body/body');
  const target = await resolveTarget(app, context, input.page, input.node);
  const id = newId();
  await app.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('comments')
      .values({
        id,
        organization_id: context.thread.organizationId,
        space_id: context.thread.spaceId,
        change_request_id: context.thread.changeRequestId,
        revision_id: context.revisionId,
        ...target,
        posted_by: userId,
        posted_at: app.clock.now(),
        ...body,
      })
      .execute();
    await moveCounts(tx, context, 1, 1);
  });
  return id;
}

/** Adds and removes one user's reactions to a comment (replyId null) or a reply; each user counts once per emoji. */
async function react(
  tx: Db,
  context: ThreadContext,
  target: { commentId: string; replyId: string | null },
  changes: { added?: readonly string[]; removed?: readonly string[] },
  userId: string,
  now: Date,
): Promise<void> {
  if (changes.added?.length) {
    await tx
      .insertInto('comment_reactions')
      .values(
        changes.added.map((emoji) => ({
          organization_id: context.thread.organizationId,
          space_id: context.thread.spaceId,
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
  if (changes.removed?.length) {
    let removal = tx
      .deleteFrom('comment_reactions')
      .where('comment_id', '=', target.commentId)
      .where('user_id', '=', userId)
      .where('emoji', 'in', [...changes.removed]);
    removal = target.replyId === null ? removal.where('reply_id', 'is', null) : removal.where('reply_id', '=', target.replyId);
    await removal.execute();
  }
}

export interface CommentUpdate {
  resolved?: boolean;
  body?: BodyInput;
  addedReactions?: string[];
  removedReactions?: string[];
}

/**
 * Applies an update to a comment in one transaction. A status change is a
 * conditional update, so that of two concurrent resolves only one moves the
 * counter. A comment deleted meanwhile is a 404.
 */
export async function updateComment(app: FastifyInstance, context: ThreadContext, comment: CommentRow, update: CommentUpdate, userId: string): Promise<void> {
  requireCommenter(context, 'Updating a comment');
  if (update.body !== undefined && comment.posted_by !== userId) throw new ForbiddenError('Only the author of a comment may change its body');
  checkReactions(update.addedReactions, 'body/addedReactions');
  checkReactions(update.removedReactions, 'body/removedReactions');
  const body = update.body === undefined ? undefined : await readBody(app.conversions, update.body, 'body/body');
  const now = app.clock.now();
  await app.db.transaction().execute(async (tx) => {
    const locked = await tx.selectFrom('comments').select(['id', 'status']).where('id', '=', comment.id).forUpdate().executeTakeFirst();
    if (!locked) throw new NotFoundError('No comment with this id in the thread');
    if (body !== undefined) await tx.updateTable('comments').set({ ...body, edited_at: now }).where('id', '=', comment.id).execute();
    if (update.resolved === true && locked.status === 'open') {
      await tx.updateTable('comments').set({ status: 'resolved', resolved_at: now, resolved_by: userId }).where('id', '=', comment.id).execute();
      await moveCounts(tx, context, -1, 0);
    } else if (update.resolved === false && locked.status === 'resolved') {
      await tx.updateTable('comments').set({ status: 'open', resolved_at: null, resolved_by: null }).where('id', '=', comment.id).execute();
      await moveCounts(tx, context, 1, 0);
    }
    await react(tx, context, { commentId: comment.id, replyId: null }, { added: update.addedReactions, removed: update.removedReactions }, userId, now);
  });
}

/** Deletes a comment with its replies and reactions; the author or an admin may. */
export async function deleteComment(app: FastifyInstance, context: ThreadContext, comment: CommentRow, userId: string): Promise<void> {
  if (!mayDelete(context, comment.posted_by === userId)) {
    throw new ForbiddenError('Only the author of a comment or an admin of the space may delete it');
  }
  requireCommenter(context, 'Deleting a comment');
  await app.db.transaction().execute(async (tx) => {
    const deleted = await tx.deleteFrom('comments').where('id', '=', comment.id).returning('status').executeTakeFirst();
    if (!deleted) throw new NotFoundError('No comment with this id in the thread');
    await moveCounts(tx, context, deleted.status === 'open' ? -1 : 0, -1);
  });
}

export async function postReply(app: FastifyInstance, context: ThreadContext, comment: CommentRow, input: { body: BodyInput }, userId: string): Promise<string> {
  requireCommenter(context, 'Replying');
  const body = await readBody(app.conversions, input.body, 'body/body');
  const id = newId();
  await app.db.transaction().execute(async (tx) => {
    // The row lock keeps the count exact against a concurrent delete of the comment.
    const locked = await tx.selectFrom('comments').select('id').where('id', '=', comment.id).forUpdate().executeTakeFirst();
    if (!locked) throw new NotFoundError('No comment with this id in the thread');
    await tx
      .insertInto('comment_replies')
      .values({
        id,
        organization_id: context.thread.organizationId,
        space_id: context.thread.spaceId,
        comment_id: comment.id,
        posted_by: userId,
        posted_at: app.clock.now(),
        ...body,
      })
      .execute();
    await tx.updateTable('comments').set((eb) => ({ replies_count: eb('replies_count', '+', 1) })).where('id', '=', comment.id).execute();
  });
  return id;
}

export interface ReplyUpdate {
  body?: BodyInput;
  addedReactions?: string[];
  removedReactions?: string[];
}

export async function updateReply(
  app: FastifyInstance,
  context: ThreadContext,
  reply: { id: string; comment_id: string; posted_by: string },
  update: ReplyUpdate,
  userId: string,
): Promise<void> {
  requireCommenter(context, 'Updating a reply');
  if (update.body !== undefined && reply.posted_by !== userId) throw new ForbiddenError('Only the author of a reply may change its body');
  checkReactions(update.addedReactions, 'body/addedReactions');
  checkReactions(update.removedReactions, 'body/removedReactions');
  const body = update.body === undefined ? undefined : await readBody(app.conversions, update.body, 'body/body');
  const now = app.clock.now();
  await app.db.transaction().execute(async (tx) => {
    // Comment, then reply: the order a delete of either takes, so the two never deadlock.
    await tx.selectFrom('comments').select('id').where('id', '=', reply.comment_id).forShare().execute();
    const locked = await tx.selectFrom('comment_replies').select('id').where('id', '=', reply.id).forUpdate().executeTakeFirst();
    if (!locked) throw new NotFoundError('No reply with this id to the comment');
    if (body !== undefined) await tx.updateTable('comment_replies').set({ ...body, edited_at: now }).where('id', '=', reply.id).execute();
    await react(tx, context, { commentId: reply.comment_id, replyId: reply.id }, { added: update.addedReactions, removed: update.removedReactions }, userId, now);
  });
}

export async function deleteReply(app: FastifyInstance, context: ThreadContext, reply: { id: string; comment_id: string; posted_by: string }, userId: string): Promise<void> {
  if (!mayDelete(context, reply.posted_by === userId)) {
    throw new ForbiddenError('Only the author of a reply or an admin of the space may delete it');
  }
  requireCommenter(context, 'Deleting a reply');
  await app.db.transaction().execute(async (tx) => {
    await tx.selectFrom('comments').select('id').where('id', '=', reply.comment_id).forUpdate().execute();
    const deleted = await tx.deleteFrom('comment_replies').where('id', '=', reply.id).returning('comment_id').executeTakeFirst();
    if (!deleted) throw new NotFoundError('No reply with this id to the comment');
    await tx.updateTable('comments').set((eb) => ({ replies_count: eb('replies_count', '-', 1) })).where('id', '=', reply.comment_id).execute();
  });
}
