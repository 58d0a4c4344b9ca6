import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { isEmoji } from '../core/emoji.js';
import type { CommentReplyRow } from '../db/types.js';
import { roleAtLeast, type Role } from '../access/roles.js';
import { type SpaceWithAccess } from '../access/space-queries.js';
import { findSpaceAsMember } from '../access/spaces.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { type ChangeRequestFields } from '../content/change-request-queries.js';
import type { ContentTree } from '../content/tree.js';
import type { Context } from '../context.js';
import { findComment, type CommentRecord, type Thread } from './queries.js';
import { findReply } from './reply-queries.js';
import type { ThreadLocator } from './schemas.js';

/** A thread of comments as one caller sees it: where it is, their role, and the content it is about. */
export interface OpenThread {
  space: SpaceWithAccess;
  changeRequest: ChangeRequestFields | null;
  /** The ids the thread's rows are stored under. */
  ids: Thread;
  role: Role;
  /** The newest revision of the content the thread is about: the space's, or the change request's. */
  revisionId: string;
  /** The API path segments of the thread's comments. */
  path: string[];
}

/**
 * The thread named by a route's parameters, or 404 when the caller has no role
 * on the space as a member (comments are not published with the content,
 * whatever the visibility) or it has no such change request.
 */
export async function openThread(context: Context, locator: ThreadLocator, userId: string): Promise<OpenThread> {
  const { space, role } = await findSpaceAsMember(context, locator.spaceId, userId);
  const changeRequest =
    locator.changeRequestId === undefined ? null : await changeRequestIn(context, space.id, locator.changeRequestId);
  return threadOf(space, role, changeRequest);
}

/** The thread of the space, or of one of its change requests, as a caller with `role` on the space sees it. */
export function threadOf(space: SpaceWithAccess, role: Role, changeRequest: ChangeRequestFields | null): OpenThread {
  return {
    space,
    changeRequest,
    role,
    ids: { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest?.id ?? null },
    revisionId: changeRequest?.revision_id ?? space.revision_id,
    path: changeRequest
      ? ['spaces', space.id, 'change-requests', changeRequest.id, 'comments']
      : ['spaces', space.id, 'comments'],
  };
}

/** A comment of the thread, or 404. */
export async function commentIn(context: Context, thread: OpenThread, commentId: string): Promise<CommentRecord> {
  const comment = await findComment(context.db, thread.ids, commentId);
  if (!comment) throw commentNotFound(thread);
  return comment;
}

export const commentNotFound = (thread: OpenThread) =>
  new NotFoundError(`No comment with this id in the ${thread.changeRequest ? 'change request' : 'space'}`);

/** A reply to a comment of the thread, or 404. */
export async function replyIn(
  context: Context,
  thread: OpenThread,
  commentId: string,
  replyId: string,
): Promise<CommentReplyRow> {
  const comment = await commentIn(context, thread, commentId);
  const reply = await findReply(context.db, comment.id, replyId);
  if (!reply) throw new NotFoundError('No reply with this id to the comment');
  return reply;
}

/** The current content of the thread's space or change request. */
export async function currentTree(context: Context, thread: OpenThread): Promise<ContentTree> {
  const point = await context.content.revision(thread.space.id, thread.space.organization_id, thread.revisionId);
  if (!point) throw new Error(`Revision ${thread.revisionId} of space ${thread.space.id} is missing`);
  return context.content.tree(point);
}

/** Whether the caller may post, reply, react and resolve here: the comment role, on a space that is not locked. */
export function canComment(thread: OpenThread): boolean {
  return roleAtLeast(thread.role, 'comment') && thread.space.edit_mode !== 'locked';
}

/**
 * Whether the caller may delete a comment or reply, the space's lock aside:
 * as its author (still a commenter), or as an admin.
 */
export function mayDelete(thread: OpenThread, ownPost: boolean): boolean {
  return (ownPost && roleAtLeast(thread.role, 'comment')) || roleAtLeast(thread.role, 'admin');
}

/** Refuses `action` to a caller below the comment role, and to everyone on a locked space. */
export function requireCommenter(thread: OpenThread, action: string): void {
  if (!roleAtLeast(thread.role, 'comment')) throw new ForbiddenError(`${action} needs the comment role on the space`);
  if (thread.space.edit_mode === 'locked') {
    throw new ForbiddenError(`The space is locked: ${action.toLowerCase()} is refused until it is set back to live`);
  }
}

/** A reaction is one emoji character sequence (not code points in hex), of at most 16 bytes. */
export function checkReactions(emojis: readonly string[] | undefined, field: string): void {
  for (const [index, emoji] of (emojis ?? []).entries()) {
    if (Buffer.byteLength(emoji) > 16 || /^[0-9a-f-]+$/i.test(emoji) || !isEmoji(emoji)) {
      throw new BadRequestError(`${field}/${index} must be one emoji of at most 16 bytes`);
    }
  }
}
