import { createHash } from 'node:crypto';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page, type PageRequest } from '../core/pagination.js';
import { blockQuoting, findNodeByKey, nodeText } from '../document/index.js';
import { recordEvent } from '../events/record.js';
import type { Context } from '../context.js';
import { findMembers } from '../members/member-queries.js';
import { presentMember } from '../members/members.js';
import type { Member } from '../members/member-schemas.js';
import { emailVisibilityFor } from '../users/user-queries.js';
import { countCommenters, listCommenters, type CommenterRow } from './commenter-queries.js';
import { bodyDocuments, readBody } from './documents.js';
import { goneVersionIds, presentComments, presentFormerMember, usersOfComments } from './present.js';
import {
  countComments,
  countedByCounters,
  deleteCommentRow,
  insertComment,
  listComments,
  findComment,
  lockComment,
  moveThreadCounts,
  pageVersionsByIds,
  reopenComment,
  resolveComment,
  setCommentBody,
  type CommentFilters,
  type CommentRecord,
} from './queries.js';
import { addReactions, removeReactions } from './reaction-queries.js';
import type {
  BodyFormat,
  Comment,
  CommentersQuery,
  ListCommentsQuery,
  PostCommentBody,
  ThreadLocator,
  CommentLocator,
  UpdateCommentBody,
} from './schemas.js';
import {
  checkReactions,
  commentIn,
  currentTree,
  mayDelete,
  openThread,
  commentNotFound,
  requireCommenter,
  type OpenThread,
} from './threads.js';

/** How much of a commented block a comment shows. */
const PREVIEW_CHARACTERS = 200;

/**
 * Comments as one caller sees them. Each record carries its users and
 * reactions; only the stored states of pages gone from the content are read
 * here, for the whole batch at once, with whose e-mails the caller may see
 * and, where the format asks for them, the bodies' documents.
 */
export async function showComments(
  context: Context,
  thread: OpenThread,
  rows: readonly CommentRecord[],
  format: BodyFormat,
  userId: string,
): Promise<Comment[]> {
  const tree = await currentTree(context, thread);
  const versions = await pageVersionsByIds(context.db, goneVersionIds(rows, tree));
  const users = usersOfComments(rows);
  const members = rows.flatMap((row) => [
    ...(row.member_ids ?? []),
    ...(row.reactions ?? []).flatMap(([, reactor, , , , , member]) => (member ? [reactor] : [])),
    ...(row.repliers ?? []).flatMap(([replier, , , , , , member]) => (member ? [replier] : [])),
  ]);
  const emails = await emailVisibilityFor(context.db, userId, [...users.keys()], thread.space.organization_id, members);
  const documents = format === 'document' ? await bodyDocuments(context, 'comments', rows) : null;
  return presentComments(rows, tree, versions, users, { thread, userId, urls: context.urls, emails, documents });
}

async function showComment(
  context: Context,
  thread: OpenThread,
  commentId: string,
  format: BodyFormat,
  userId: string,
): Promise<Comment> {
  const comment = await commentIn(context, thread, commentId);
  return (await showComments(context, thread, [comment], format, userId))[0]!;
}

/**
 * The count of a thread's list filtered by status at most, from the counters
 * kept with every post, resolve, reopen and delete: counting a large thread's
 * rows on every request would cost more than the page.
 */
function countFromCounters(thread: OpenThread, status: 'open' | 'resolved' | undefined): number {
  const counts = thread.changeRequest
    ? { open: thread.changeRequest.comments_count, total: thread.changeRequest.comments_total_count }
    : { open: thread.space.comments_open_count, total: thread.space.comments_total_count };
  return status === 'open' ? counts.open : status === 'resolved' ? counts.total - counts.open : counts.total;
}

/** A short, stable name for a list's filters, so that a cursor is only accepted by the list that made it. */
function filtersKey(filters: CommentFilters): string {
  const text = JSON.stringify([filters.status ?? '', [...(filters.authors ?? [])].sort(), filters.pageId ?? '']);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/** The thread's comments, newest first unless asked otherwise, filtered by status, authors or page. */
export async function listThreadComments(
  context: Context,
  userId: string,
  locator: ThreadLocator,
  query: ListCommentsQuery,
): Promise<Page<Comment>> {
  const filters = filtersOf(query);
  // The cursor is read before the thread is opened: a bad one is a 400 without a query.
  const page = commentsPage(context, locator, filters, query);
  return commentsOf(context, userId, await openThread(context, locator, userId), query, filters, page);
}

/** `listThreadComments` of a thread the caller has opened already (the app's page conversation). */
export async function listOpenThreadComments(
  context: Context,
  userId: string,
  thread: OpenThread,
  query: ListCommentsQuery,
): Promise<Page<Comment>> {
  const filters = filtersOf(query);
  return commentsOf(context, userId, thread, query, filters, commentsPage(context, thread.ids, filters, query));
}

function filtersOf(query: ListCommentsQuery): CommentFilters {
  return {
    status: query.status === 'all' ? undefined : query.status,
    authors: query.authors ? [...new Set(query.authors)] : undefined,
    pageId: query.targetPage,
  };
}

function commentsPage(
  context: Context,
  locator: { spaceId: string; changeRequestId?: string | null },
  filters: CommentFilters,
  query: ListCommentsQuery,
): PageRequest {
  const list = `comments:${locator.spaceId}:${locator.changeRequestId ?? ''}:${filtersKey(filters)}`;
  return context.cursors.request(list, query);
}

async function commentsOf(
  context: Context,
  userId: string,
  thread: OpenThread,
  query: ListCommentsQuery,
  filters: CommentFilters,
  page: PageRequest,
): Promise<Page<Comment>> {
  const rows = await paginate(context.cursors, page, {
    rows: () => listComments(context.db, page, thread.ids, filters),
    count: async () =>
      countedByCounters(filters)
        ? countFromCounters(thread, filters.status)
        : countComments(context.db, thread.ids, filters),
    keyOf: (row) => ({ createdAt: row.posted_at, id: row.id }),
    toItem: (row) => row,
  });
  return { ...rows, items: await showComments(context, thread, rows.items, query.format, userId) };
}

export async function getComment(
  context: Context,
  userId: string,
  locator: CommentLocator,
  format: BodyFormat,
): Promise<Comment> {
  const thread = await openThread(context, locator, userId);
  const row = await findComment(context.db, thread.ids, locator.commentId);
  if (!row) throw commentNotFound(thread);
  return (await showComments(context, thread, [row], format, userId))[0]!;
}

interface TargetFields {
  page_id: string | null;
  page_version_id: string | null;
  page_path: string | null;
  node_id: string | null;
  node_preview: string | null;
}

/** The page and block a new comment is about: both must exist in the thread's current content. */
async function resolveTarget(
  context: Context,
  thread: OpenThread,
  pageId: string | undefined,
  nodeId: string | undefined,
): Promise<TargetFields> {
  if (pageId === undefined) {
    if (nodeId !== undefined) throw new BadRequestError('body/node needs body/page, the page the block is on');
    return { page_id: null, page_version_id: null, page_path: null, node_id: null, node_preview: null };
  }
  const tree = await currentTree(context, thread);
  const page = tree.pages.get(pageId);
  const where = thread.changeRequest ? 'the change request' : 'the space';
  if (!page) throw new BadRequestError(`body/page: there is no page ${pageId} in ${where}’s content`);
  let preview: string | null = null;
  if (nodeId !== undefined) {
    const node = page.documentId
      ? findNodeByKey((await context.content.documentsOf(thread.space.organization_id, [page]))(page), nodeId)
      : undefined;
    if (!node) throw new BadRequestError(`body/node: there is no block ${nodeId} on page ${pageId}`);
    preview = nodeText(node, PREVIEW_CHARACTERS);
  }
  return {
    page_id: page.pageId,
    page_version_id: page.versionId,
    page_path: tree.pathOf(page.pageId),
    node_id: nodeId ?? null,
    node_preview: preview,
  };
}

/**
 * The block of a page of the thread's content that holds text a reader
 * selected: the node a comment on the selection is about.
 */
export async function quotedBlock(
  context: Context,
  userId: string,
  locator: ThreadLocator,
  pageId: string,
  quote: string,
): Promise<string> {
  const thread = await openThread(context, locator, userId);
  const tree = await currentTree(context, thread);
  const page = tree.pages.get(pageId);
  const document = page?.documentId
    ? (await context.content.documentsOf(thread.space.organization_id, [page]))(page)
    : undefined;
  const key = document && blockQuoting(document, quote);
  if (!key) {
    throw new BadRequestError(
      'The text you selected is not on this page as it is now: select it again, or comment on the whole page',
    );
  }
  return key;
}

/** Posts a comment, on the thread's content or on one page or block of it, and moves the thread's counters. */
export async function postComment(
  context: Context,
  userId: string,
  locator: ThreadLocator,
  input: PostCommentBody,
): Promise<Comment> {
  const thread = await openThread(context, locator, userId);
  requireCommenter(thread, 'Commenting');
  const body = await readBody(context, input.body, 'body/body');
  const target = await resolveTarget(context, thread, input.page, input.node);
  const id = newId();
  await context.db.transaction().execute(async (tx) => {
    const comment = {
      id,
      revision_id: thread.revisionId,
      ...target,
      posted_by: userId,
      posted_at: context.clock.now(),
      ...body,
    };
    await insertComment(tx, thread.ids, comment);
    await moveThreadCounts(tx, thread.ids, 1, 1);
    const { organizationId, spaceId, changeRequestId } = thread.ids;
    await recordEvent(tx, {
      organizationId,
      type: 'comment_posted',
      spaceId,
      fields: { commentId: id, ...(changeRequestId ? { changeRequestId } : {}), postedBy: { id: userId } },
      at: comment.posted_at,
    });
  });
  return showComment(context, thread, id, 'markdown', userId);
}

/**
 * Applies an update to a comment in one transaction: resolve or reopen, a
 * new body (its author), reactions. A status change is a conditional update,
 * so that of two concurrent resolves only one moves the counter. A comment
 * deleted meanwhile is a 404.
 */
export async function updateComment(
  context: Context,
  userId: string,
  locator: CommentLocator,
  update: UpdateCommentBody,
): Promise<Comment> {
  const thread = await openThread(context, locator, userId);
  const comment = await commentIn(context, thread, locator.commentId);
  requireCommenter(thread, 'Updating a comment');
  if (update.body !== undefined && comment.posted_by !== userId)
    throw new ForbiddenError('Only the author of a comment may change its body');
  checkReactions(update.addedReactions, 'body/addedReactions');
  checkReactions(update.removedReactions, 'body/removedReactions');
  const body = update.body === undefined ? undefined : await readBody(context, update.body, 'body/body');
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    const locked = await lockComment(tx, comment.id);
    if (!locked) throw new NotFoundError('No comment with this id in the thread');
    if (body !== undefined) await setCommentBody(tx, comment.id, body, now);
    if (update.resolved === true && locked.status === 'open') {
      await resolveComment(tx, comment.id, userId, now);
      await moveThreadCounts(tx, thread.ids, -1, 0);
    } else if (update.resolved === false && locked.status === 'resolved') {
      await reopenComment(tx, comment.id);
      await moveThreadCounts(tx, thread.ids, 1, 0);
    }
    const target = { commentId: comment.id, replyId: null };
    await addReactions(tx, thread.ids, target, update.addedReactions ?? [], userId, now);
    await removeReactions(tx, target, update.removedReactions ?? [], userId);
  });
  return showComment(context, thread, comment.id, 'markdown', userId);
}

/** Deletes a comment with its replies and reactions; the author or an admin may. */
export async function deleteComment(context: Context, userId: string, locator: CommentLocator): Promise<void> {
  const thread = await openThread(context, locator, userId);
  const comment = await commentIn(context, thread, locator.commentId);
  if (!mayDelete(thread, comment.posted_by === userId)) {
    throw new ForbiddenError('Only the author of a comment or an admin of the space may delete it');
  }
  requireCommenter(thread, 'Deleting a comment');
  await context.db.transaction().execute(async (tx) => {
    const deleted = await deleteCommentRow(tx, thread.ids, comment.id);
    if (!deleted) throw new NotFoundError('No comment with this id in the thread');
    await moveThreadCounts(tx, thread.ids, deleted.status === 'open' ? -1 : 0, -1);
  });
}

/**
 * Commenters as member records: the members' own, and for those who have
 * left the organization a record that says so, with the e-mail only where the
 * caller still shares an organization with them (as for their posts'
 * `postedBy`). One query for the page's members and at most two for the
 * e-mails of those who left, whatever the page's size.
 */
async function showCommenters(
  context: Context,
  thread: OpenThread,
  rows: readonly CommenterRow[],
  userId: string,
): Promise<Member[]> {
  const organizationId = thread.space.organization_id;
  const memberIds = rows.filter((row) => row.is_member).map((row) => row.user_id);
  const members = new Map(
    (await findMembers(context.db, organizationId, memberIds)).map((member) => [member.user_id, member]),
  );
  // A member who left since the page was read is shown as one who left.
  const formerIds = rows.filter((row) => !members.has(row.user_id)).map((row) => row.user_id);
  const emails = await emailVisibilityFor(context.db, userId, formerIds, organizationId);
  return rows.map((row) => {
    const member = members.get(row.user_id);
    return member ? presentMember(member, context.urls) : presentFormerMember(row, context.urls, emails);
  });
}

/**
 * The users who commented or replied in the thread, in the order they first
 * did, as member records: those who have left the organization are listed too.
 */
export async function listThreadCommenters(
  context: Context,
  userId: string,
  locator: ThreadLocator,
  query: CommentersQuery,
): Promise<Page<Member>> {
  const thread = await openThread(context, locator, userId);
  const list = `commenters-by-first-post:${thread.ids.spaceId}:${thread.ids.changeRequestId ?? ''}`;
  const page = context.cursors.request(list, { ...query, order: 'asc' });
  const rows = await paginate(context.cursors, page, {
    rows: () => listCommenters(context.db, page, thread.ids),
    count: () => countCommenters(context.db, thread.ids),
    keyOf: (row) => ({ createdAt: row.first_posted_at, id: row.user_id }),
    toItem: (row) => row,
  });
  return { ...rows, items: await showCommenters(context, thread, rows.items, userId) };
}
