import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../core/errors.js';
import { roleAtLeast, type Role } from '../model/access/roles.js';
import { changeRequestIn } from '../model/change-requests/access.js';
import type { ContentTree } from '../model/content/tree.js';
import { findSpaceAsMember } from '../model/access/spaces.js';
import type { Thread } from './queries.js';
import { type ChangeRequestFields } from '../model/change-requests/queries.js';
import { type SpaceWithAccess } from '../model/access/space-queries.js';

/** A thread of comments as one caller sees it: where it is, their role, and the content it is about. */
export interface ThreadContext {
  space: SpaceWithAccess;
  changeRequest: ChangeRequestFields | null;
  thread: Thread;
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
export async function openThread(app: FastifyInstance, params: { spaceId: string; changeRequestId?: string }, userId: string): Promise<ThreadContext> {
  const { space, role } = await findSpaceAsMember(app.context, params.spaceId, userId);
  const changeRequest = params.changeRequestId === undefined ? null : await changeRequestIn(app.context, space.id, params.changeRequestId);
  return {
    space,
    changeRequest,
    role,
    thread: { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest?.id ?? null },
    revisionId: changeRequest?.revision_id ?? space.revision_id,
    path: changeRequest ? ['spaces', space.id, 'change-requests', changeRequest.id, 'comments'] : ['spaces', space.id, 'comments'],
  };
}

/** Whether the caller may post, reply, react and resolve here: the comment role, on a space that is not locked. */
export function canComment(context: ThreadContext): boolean {
  return roleAtLeast(context.role, 'comment') && context.space.edit_mode !== 'locked';
}

/** Whether the caller may delete a comment or reply, the space's lock aside: as its author (still a commenter), or as an admin. */
export function mayDelete(context: ThreadContext, ownPost: boolean): boolean {
  return (ownPost && roleAtLeast(context.role, 'comment')) || roleAtLeast(context.role, 'admin');
}

/** Refuses `action` to a caller below the comment role, and to everyone on a locked space. */
export function requireCommenter(context: ThreadContext, action: string): void {
  if (!roleAtLeast(context.role, 'comment')) throw new ForbiddenError(`${action} needs the comment role on the space`);
  if (context.space.edit_mode === 'locked') throw new ForbiddenError(`The space is locked: ${action.toLowerCase()} is refused until it is set back to live`);
}

/** The current content of the thread's space or change request. */
export async function currentTree(app: FastifyInstance, context: ThreadContext): Promise<ContentTree> {
  const point = await app.content.revision(context.space.id, context.space.organization_id, context.revisionId);
  if (!point) throw new Error(`Revision ${context.revisionId} of space ${context.space.id} is missing`);
  return app.content.tree(point);
}
