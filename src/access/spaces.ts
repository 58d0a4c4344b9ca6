import { timingSafeEqual } from 'node:crypto';
import type { Role } from '../db/types.js';
import { contentRole } from './grants.js';
import { roleAtLeast } from './roles.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { findSpaceWithAccess, type SpaceWithAccess } from './space-queries.js';
import { type Context } from '../context.js';
import { installationOfPrincipal, isSpaceOfInstallation } from './installation-principal.js';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The caller's role on a space as a member of its organization: the strongest
 * of their organization role, the default levels of the space and its
 * collections, and the grants reaching them there. Guests have only grants.
 */
function memberRole(space: SpaceWithAccess): Role | null {
  return contentRole({
    isMember: space.is_member,
    memberRole: space.member_role,
    levels: [space.default_level, ...(space.chain_levels ?? [])],
    grants: space.grant_roles ?? [],
  });
}

/** Whether the caller may write the space's content (change requests and their pages): the edit role as a member, on a live space. */
export function mayEditSpace(space: SpaceWithAccess): boolean {
  return roleAtLeast(memberRole(space), 'edit') && space.edit_mode !== 'locked';
}

/** Whether the caller may comment on the space's content: the comment role as a member, on a live space. */
export function mayCommentSpace(space: SpaceWithAccess): boolean {
  return roleAtLeast(memberRole(space), 'comment') && space.edit_mode !== 'locked';
}

/** Whether the caller may review the space's change requests: the review role as a member, on a live space. */
export function mayReviewSpace(space: SpaceWithAccess): boolean {
  return roleAtLeast(memberRole(space), 'review') && space.edit_mode !== 'locked';
}

/** Whether the visibility opens the space's published side to anyone who asks: public, unlisted, or share-link with its key. */
function openToVisitors(space: SpaceWithAccess, shareKey: string | undefined): boolean {
  if (space.visibility === 'public' || space.visibility === 'unlisted') return true;
  return space.visibility === 'share-link' && shareKey !== undefined && sameSecret(shareKey, space.share_key);
}

/**
 * The caller's role on a space: their role as a member; otherwise `read`
 * where the visibility opens the space to them.
 */
export function spaceRole(space: SpaceWithAccess, shareKey: string | undefined): Role | null {
  const asMember = memberRole(space);
  if (roleAtLeast(asMember, 'read')) return asMember;
  return openToVisitors(space, shareKey) ? 'read' : null;
}

export const spaceNotFound = () => new NotFoundError('No space with this id is visible to you');

export interface VisibleSpaceOptions {
  shareKey?: string;
  deleted?: 'allowed' | 'required';
}

/**
 * The space and the caller's role on it, or 404, for the published side: the
 * space object and its current content. Members see it with their role;
 * others (`visitor`) with `read`, where the visibility opens it to them.
 */
export async function findVisibleSpace(
  context: Context,
  spaceId: string,
  userId: string,
  options: VisibleSpaceOptions = {},
) {
  const found = await findSpaceFor(
    context,
    spaceId,
    userId,
    (space) => spaceRole(space, options.shareKey),
    options.deleted,
  );
  return { ...found, visitor: !roleAtLeast(memberRole(found.space), 'read') };
}

/**
 * The space and the caller's role on it as a member, or 404: for everything
 * but the published side (change requests and their content, comments,
 * reviewers, older revisions, and every write). Visibility opens none of it:
 * to a non-member or a guest, a public space answers here as a private one.
 */
export async function findSpaceAsMember(
  context: Context,
  spaceId: string,
  userId: string,
  options: Pick<VisibleSpaceOptions, 'deleted'> = {},
) {
  return findSpaceFor(context, spaceId, userId, memberRole, options.deleted);
}

/**
 * The space and the caller's role on it (`roleOf`), or 404. A deleted space is
 * found only where `deleted` allows it, only by its admins, and only within
 * the retention window: past it, the space is gone even before the purge.
 */
async function findSpaceFor(
  context: Context,
  spaceId: string,
  userId: string,
  roleOf: (space: SpaceWithAccess) => Role | null,
  deleted: VisibleSpaceOptions['deleted'],
) {
  const installationId = installationOfPrincipal(userId);
  if (installationId !== undefined) {
    // An installation reads the spaces it is installed on, whatever their visibility, and no other.
    const installed = await isSpaceOfInstallation(context.db, installationId, spaceId);
    const space = installed ? await findSpaceWithAccess(context.db, spaceId, userId) : undefined;
    return spaceFor(context, space, () => 'read', undefined);
  }
  return spaceFor(context, await findSpaceWithAccess(context.db, spaceId, userId), roleOf, deleted);
}

/** findSpaceFor on a space already read with the caller's access. */
function spaceFor(
  context: Context,
  space: SpaceWithAccess | undefined,
  roleOf: (space: SpaceWithAccess) => Role | null,
  deleted: VisibleSpaceOptions['deleted'],
) {
  const role = space ? roleOf(space) : null;
  if (!space || !role || !roleAtLeast(role, 'read')) throw spaceNotFound();
  if (space.deleted_at) {
    const withinRetention =
      context.clock.now().getTime() - space.deleted_at.getTime() < context.config.spaceRetentionMs;
    if (!deleted || role !== 'admin' || !withinRetention) throw spaceNotFound();
  } else if (deleted === 'required') {
    throw new ConflictError('The space is not deleted');
  }
  return { space, role };
}

/**
 * A space whose content the caller may change: `edit` at least, and live.
 * A locked space refuses every write, whoever asks.
 */
export async function findEditableSpace(context: Context, spaceId: string, userId: string, action: string) {
  const found = await findSpaceAsMember(context, spaceId, userId);
  if (!roleAtLeast(found.role, 'edit')) throw new ForbiddenError(`${action} needs the edit role on the space`);
  if (found.space.edit_mode === 'locked')
    throw new ForbiddenError(`The space is locked: ${action.toLowerCase()} is refused until it is set back to live`);
  return found;
}
