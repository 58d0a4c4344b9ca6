import type { Role, SpaceUpdate } from '../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate, type Cursors, type Page, type PageRequest } from '../core/pagination.js';
import { findVisibleCollection } from '../model/access/collections.js';
import { checkPlacement } from '../model/access/placement.js';
import { checkTransferTarget } from '../model/access/transfer.js';
import { effectiveRole, findMembership, requireRosterAccess } from '../model/access/membership.js';
import { roleAtLeast } from '../model/access/roles.js';
import { defaultLevelChains, findSpaceAsMember, findVisibleSpace } from '../model/access/spaces.js';
import type { Context } from '../model/context.js';
import { nextPosition, positionAmongSiblings } from '../model/hierarchy/positions.js';
import type { MoveBody } from '../model/hierarchy/schemas.js';
import { memberOrNotFound } from '../model/people/member-queries.js';
import { presentSpace } from '../model/spaces/present.js';
import {
  countSpacesInCollection,
  countSpacesInOrganization,
  listSpacesInCollection,
  listSpacesInOrganization,
  updateSpace,
} from './queries.js';
import type { CreateSpaceBody, UpdateSpaceBody } from './schemas.js';
import type { Space } from '../model/spaces/schemas.js';
import { createSpace } from '../model/spaces/create.js';
import { copyCurrentContent, holdForCopy } from '../model/content/copy.js';

const inCollectionAtTopLevel = () =>
  new BadRequestError('body/visibility: in-collection is only for a space inside a collection');

/** Creates a space at the top level of the organization or in the collection `body.parent`. */
export async function addSpace(
  context: Context,
  userId: string,
  organizationId: string,
  body: CreateSpaceBody,
): Promise<Space> {
  const { parent, title, emoji, editMode, visibility } = body;
  if (visibility === 'in-collection' && parent === undefined) throw inCollectionAtTopLevel();
  const { memberRole, parentLevels } = await checkPlacement(
    context.db,
    'Creating a space',
    organizationId,
    parent,
    userId,
  );
  const space = await createSpace(context.db, context.clock, {
    organizationId,
    parentId: parent ?? null,
    title: title ?? 'Untitled',
    emoji: emoji ?? null,
    editMode: editMode ?? 'live',
    visibility: visibility ?? 'private',
  });
  return presentSpace(space, effectiveRole(memberRole, [space.default_level, ...parentLevels]), context.urls);
}

/** A space as the caller sees it; deleted spaces answer to their admins until the retention ends. */
export async function getSpace(
  context: Context,
  userId: string,
  spaceId: string,
  shareKey: string | undefined,
): Promise<Space> {
  const { space, role } = await findVisibleSpace(context, spaceId, userId, {
    deleted: 'allowed',
    ...(shareKey !== undefined ? { shareKey } : {}),
  });
  const hasShareKey = shareKey !== undefined && shareKey === space.share_key;
  return presentSpace(space, role, context.urls, { hasShareKey });
}

/** Title and emoji are the editors'; edit mode, default level and visibility the admins'. */
export async function editSpace(
  context: Context,
  userId: string,
  spaceId: string,
  body: UpdateSpaceBody,
): Promise<Space> {
  // Every change to a space is a member's: visibility opens only the reading of it.
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  if (!roleAtLeast(role, 'edit')) throw new ForbiddenError('Updating a space needs the edit role on it');
  const settings = body.editMode !== undefined || body.defaultLevel !== undefined || body.visibility !== undefined;
  if (settings && role !== 'admin') {
    throw new ForbiddenError(
      'Changing the edit mode, default level or visibility of a space needs the admin role on it',
    );
  }
  const edits = body.title !== undefined || body.emoji !== undefined;
  if (edits && space.edit_mode === 'locked' && body.editMode !== 'live') {
    throw new ForbiddenError('The space is locked; set editMode to live before editing it');
  }
  if (body.visibility === 'in-collection' && space.parent_id === null) throw inCollectionAtTopLevel();

  const changes: SpaceUpdate = { updated_at: context.clock.now() };
  if (body.title !== undefined) changes.title = body.title;
  if (body.emoji !== undefined) changes.emoji = body.emoji;
  if (body.editMode !== undefined) changes.edit_mode = body.editMode;
  if (body.defaultLevel !== undefined) changes.default_level = body.defaultLevel;
  if (body.visibility !== undefined) changes.visibility = body.visibility;
  await updateSpace(context.db, space.id, changes);
  // Sites embed their spaces: this instance's cached site structures go with the change.
  context.siteStructures.clear();

  // A new default level can change the caller's own role: read it back.
  const updated = await findSpaceAsMember(context, space.id, userId);
  return presentSpace(updated.space, updated.role, context.urls);
}

/**
 * A copy of the space right after the original: new ids (its own share key
 * and revision), the same settings and place, its title marked as a copy, and
 * the original's current content as its first revision. Comments and change
 * requests stay with the original.
 */
export async function duplicateSpace(context: Context, userId: string, spaceId: string): Promise<Space> {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  const { memberRole, parentLevels } = await checkPlacement(
    context.db,
    'Duplicating a space',
    space.organization_id,
    space.parent_id ?? undefined,
    userId,
  );
  const copy = await context.db.transaction().execute(async (tx) => {
    const source = await holdForCopy(tx, space.id);
    const created = await createSpace(tx, context.clock, {
      organizationId: space.organization_id,
      parentId: space.parent_id,
      title: copyTitle(space.title),
      emoji: space.emoji,
      editMode: space.edit_mode,
      visibility: space.visibility,
      defaultLevel: space.default_level,
    });
    await copyCurrentContent(tx, source, { spaceId: created.id, revisionId: created.revision_id });
    // The copy goes right after the original.
    const item = { type: 'space', id: created.id } as const;
    const position = await positionAmongSiblings(tx, item, space.organization_id, space.parent_id, {
      after: { type: 'space', space: space.id },
    });
    return updateSpace(tx, created.id, { position });
  });
  return presentSpace(copy, effectiveRole(memberRole, [copy.default_level, ...parentLevels]), context.urls);
}

/**
 * Moves a space to another collection or the top level, and among its
 * siblings. In-collection visibility at the top level becomes private:
 * there is no collection left to open it to.
 */
export async function moveSpace(context: Context, userId: string, spaceId: string, body: MoveBody): Promise<Space> {
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  if (role !== 'admin') throw new ForbiddenError('Moving a space needs the admin role on it');
  const destination = body.parent === undefined ? space.parent_id : body.parent;
  if (destination !== space.parent_id) {
    await checkPlacement(context.db, 'Moving a space', space.organization_id, destination ?? undefined, userId);
  }
  await context.db.transaction().execute(async (tx) => {
    const item = { type: 'space', id: space.id } as const;
    const position = await positionAmongSiblings(tx, item, space.organization_id, destination, body.position);
    await updateSpace(tx, space.id, {
      parent_id: destination,
      position,
      visibility: destination === null && space.visibility === 'in-collection' ? 'private' : space.visibility,
      updated_at: context.clock.now(),
    });
  });
  const moved = await findSpaceAsMember(context, space.id, userId);
  return presentSpace(moved.space, moved.role, context.urls);
}

/** Moves a space to the top level of another organization where the caller is an admin, last among its siblings. */
export async function transferSpace(
  context: Context,
  userId: string,
  spaceId: string,
  organizationId: string,
): Promise<Space> {
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  if (role !== 'admin') throw new ForbiddenError('Transferring a space needs the admin role on it');
  await checkTransferTarget(context.db, space.organization_id, organizationId, userId);
  // Tables that belong to a space carry its organization too; as they come, they move here with it.
  await updateSpace(context.db, space.id, {
    organization_id: organizationId,
    parent_id: null,
    position: nextPosition(organizationId, null),
    visibility: space.visibility === 'in-collection' ? 'private' : space.visibility,
    updated_at: context.clock.now(),
  });
  // Sites embed their spaces: this instance's cached site structures go with the change.
  context.siteStructures.clear();
  const moved = await findSpaceAsMember(context, space.id, userId);
  return presentSpace(moved.space, moved.role, context.urls);
}

/** Deletes a space; its admins can restore it until the retention ends. */
export async function deleteSpace(context: Context, userId: string, spaceId: string): Promise<void> {
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  if (role !== 'admin') throw new ForbiddenError('Deleting a space needs the admin role on it');
  await updateSpace(context.db, space.id, { deleted_at: context.clock.now() });
  // Sites embed their spaces: this instance's cached site structures go with the change.
  context.siteStructures.clear();
}

/** Brings back a deleted space within the retention window (found for its admins only). */
export async function restoreSpace(context: Context, userId: string, spaceId: string): Promise<Space> {
  const { space } = await findSpaceAsMember(context, spaceId, userId, { deleted: 'required' });
  await updateSpace(context.db, space.id, { deleted_at: null, updated_at: context.clock.now() });
  // Sites embed their spaces: this instance's cached site structures go with the change.
  context.siteStructures.clear();
  const restored = await findSpaceAsMember(context, space.id, userId);
  return presentSpace(restored.space, restored.role, context.urls);
}

/** A list request's paging, as the query string gives it. */
type PageQuery = Parameters<Cursors['request']>[1];

/** A page of an organization's spaces that are not deleted, newest first, with the caller's role on each. */
export async function listOrganizationSpaces(
  context: Context,
  userId: string,
  organizationId: string,
  query: PageQuery,
): Promise<Page<Space>> {
  const membership = await findMembership(context.db, organizationId, userId);
  if (!membership) throw new NotFoundError('No organization with this id is visible to you');
  const page = context.cursors.request(`spaces:${organizationId}`, query);
  // Guests see only content shared with them, and spaces are not shared one by one yet.
  if (membership.role === null) return { count: 0, items: [] };

  const result = await liveSpacesPage(context, organizationId, page);
  const chainOf = await defaultLevelChains(context.db, result.items);
  return {
    ...result,
    items: result.items.map((row) => presentSpace(row, effectiveRole(membership.role, chainOf(row)), context.urls)),
  };
}

/** A page of a collection's spaces that are not deleted, newest first. */
export async function listCollectionSpaces(
  context: Context,
  userId: string,
  collectionId: string,
  query: PageQuery,
): Promise<Page<Space>> {
  const { collection } = await findVisibleCollection(context.db, collectionId, userId);

  const page = context.cursors.request(`collection-spaces:${collectionId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listSpacesInCollection(context.db, page, collectionId),
    count: () => countSpacesInCollection(context.db, collectionId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => {
      const role = effectiveRole(collection.member_role, [row.default_level, ...collection.chain_levels]);
      return presentSpace(row, role, context.urls);
    },
  });
}

/** The spaces a member can reach, with their role on each, as a caller who may see the roster sees them. */
export async function listMemberSpaces(
  context: Context,
  callerId: string,
  organizationId: string,
  memberId: string,
  query: PageQuery,
): Promise<Page<{ permission: Role; space: Space }>> {
  const callerRoleInOrganization = await requireRosterAccess(context.db, organizationId, callerId);
  const member = await memberOrNotFound(context.db, organizationId, memberId);
  const page = context.cursors.request(`member-spaces:${organizationId}:${memberId}`, query);
  // Guests reach only what is shared with them, and nothing is shared one by one yet.
  if (member.role === null) return { count: 0, items: [] };

  const result = await liveSpacesPage(context, organizationId, page);
  const chainOf = await defaultLevelChains(context.db, result.items);
  return {
    ...result,
    items: result.items.map((row) => {
      const chain = chainOf(row);
      return {
        permission: effectiveRole(member.role, chain)!,
        space: presentSpace(row, effectiveRole(callerRoleInOrganization, chain), context.urls),
      };
    }),
  };
}

function liveSpacesPage(context: Context, organizationId: string, page: PageRequest) {
  return paginate(context.cursors, page, {
    rows: () => listSpacesInOrganization(context.db, page, organizationId),
    count: () => countSpacesInOrganization(context.db, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
}

const COPY_SUFFIX = ' (copy)';

/** The title of a copy, kept within the 50 characters a title may have. */
export function copyTitle(title: string): string {
  return `${[...title]
    .slice(0, 50 - COPY_SUFFIX.length)
    .join('')
    .trimEnd()}${COPY_SUFFIX}`;
}
