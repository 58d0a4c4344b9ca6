import type { Role, SpaceUpdate } from '../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate, type Cursors, type Page, type PageRequest } from '../core/pagination.js';
import { findVisibleCollection } from '../access/collections.js';
import { checkPlacement, roleBeneath } from '../access/placement.js';
import { checkTransferTarget, dropGrantsThatStay } from '../access/transfer.js';
import { findMembership, rosterRole } from '../access/membership.js';
import { spaceRolesFor, type Member } from '../access/grants.js';
import { roleAtLeast } from '../access/roles.js';
import { findSpaceAsMember, findVisibleSpace } from '../access/spaces.js';
import type { Context } from '../context.js';
import type { Db } from '../db/database.js';
import type { SpaceFields } from '../access/space-queries.js';
import { changed, recordAuditEvent } from '../audit/record.js';
import { nextPosition, positionAmongSiblings } from '../hierarchy/positions.js';
import type { MoveBody } from '../hierarchy/schemas.js';
import { memberOrNotFound } from '../members/member-queries.js';
import { recordEvent } from '../events/record.js';
import { requireRuleUsersAreMembers, storedMergeRules } from '../orgs/merge-rules.js';
import { activeMemberIds } from '../orgs/queries.js';
import { presentSpace } from './present.js';
import {
  countSpacesInCollection,
  countReachableSpacesInOrganization,
  countSpacesInOrganization,
  findSpaceFields,
  listReachableSpacesInOrganization,
  listSpacesInCollection,
  listSpacesInOrganization,
  updateSpace,
} from './queries.js';
import type { CreateSpaceBody, UpdateSpaceBody } from './schemas.js';
import type { Space } from './space-schemas.js';
import { createSpace } from './create.js';
import './space-templates.js';
import {
  findSpaceInstallation,
  findSpacesInstallations,
  presentGitSyncLink,
  type GitSyncInstallationRow,
} from './git-sync-state.js';
import { copyCurrentContent, holdForCopy } from '../content/copy.js';

const inCollectionAtTopLevel = () =>
  new BadRequestError('body/visibility: in-collection is only for a space inside a collection');

/** Creates a space at the top level of the organization or in the collection `body.parent`. */
export async function addSpace(
  context: Context,
  userId: string,
  organizationId: string,
  body: CreateSpaceBody,
): Promise<Space> {
  const { parent, title, emoji, editMode, visibility, template } = body;
  if (visibility === 'in-collection' && parent === undefined) throw inCollectionAtTopLevel();
  if (template && body.empty) throw new BadRequestError('body: give template or empty, not both');
  if (template && !context.spaceTemplates?.has(template.id)) {
    throw new BadRequestError(`body/template/id: no built-in template "${template.id}"`);
  }
  const placement = await checkPlacement(context.db, 'Creating a space', organizationId, parent, userId);
  let space = await createSpace(context.db, context.clock, {
    organizationId,
    parentId: parent ?? null,
    title: title ?? 'Untitled',
    emoji: emoji ?? null,
    editMode: editMode ?? 'live',
    visibility: visibility ?? 'private',
  });
  if (template && context.spaceTemplates) {
    await context.spaceTemplates.fill({ organizationId, spaceId: space.id, userId }, template.id);
    // The template's pages made a new revision of the space.
    space = await findSpaceFields(context.db, organizationId, space.id);
  }
  return presentSpace(space, roleBeneath(placement, space.default_level), context.urls);
}

/** A space as the caller sees it; deleted spaces answer to their admins until the retention ends. */
export async function getSpace(
  context: Context,
  userId: string,
  spaceId: string,
  shareKey: string | undefined,
): Promise<Space> {
  const { space, role, visitor } = await findVisibleSpace(context, spaceId, userId, {
    deleted: 'allowed',
    ...(shareKey !== undefined ? { shareKey } : {}),
  });
  const hasShareKey = shareKey !== undefined && shareKey === space.share_key;
  const presented = presentSpace(space, role, context.urls, { hasShareKey });
  // Which repository a space syncs with is the members' to know, not its visitors'.
  const installation = visitor ? undefined : await findSpaceInstallation(context.db, space.organization_id, space.id);
  if (installation) presented.gitSync = presentGitSyncLink(installation);
  return presented;
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
  if (body.mergeRules !== undefined && role !== 'admin') {
    throw new ForbiddenError('Changing the merge rules of a space needs the admin role on it');
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
  if (body.mergeRules !== undefined) {
    const { rules, users } = storedMergeRules(body.mergeRules, 'body/mergeRules');
    const members = await activeMemberIds(context.db, space.organization_id, users);
    requireRuleUsersAreMembers(users, members, 'body/mergeRules');
    changes.merge_rules = JSON.stringify(rules);
  }
  await context.db.transaction().execute(async (tx) => {
    await updateSpace(tx, space.organization_id, space.id, changes);
    // Who may read, edit and merge: the admins' settings of the space, not its title.
    const settingsChanged = changed(
      {
        editMode: space.edit_mode,
        defaultLevel: space.default_level,
        visibility: space.visibility,
        mergeRules: space.merge_rules,
      },
      {
        editMode: body.editMode,
        defaultLevel: body.defaultLevel,
        visibility: body.visibility,
        mergeRules:
          changes.merge_rules === undefined ? undefined : (JSON.parse(changes.merge_rules) as typeof space.merge_rules),
      },
    );
    if (settingsChanged) {
      await recordAuditEvent(tx, {
        organizationId: space.organization_id,
        action: 'space.updated',
        actorId: userId,
        target: { type: 'space', id: space.id, label: space.title },
        at: context.clock.now(),
        ...settingsChanged,
      });
    }
    if (body.visibility === undefined || body.visibility === space.visibility) return;
    await recordEvent(tx, {
      organizationId: space.organization_id,
      type: 'space_visibility_updated',
      spaceId: space.id,
      fields: { previousVisibility: space.visibility, visibility: body.visibility },
      at: context.clock.now(),
    });
  });
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
  const placement = await checkPlacement(
    context.db,
    'Duplicating a space',
    space.organization_id,
    space.parent_id ?? undefined,
    userId,
  );
  const copy = await context.db.transaction().execute((tx) => copySpace(tx, context, space));
  return presentSpace(copy, roleBeneath(placement, copy.default_level), context.urls);
}

/**
 * Makes the copy of a space inside the caller's transaction (see
 * duplicateSpace, whose checks the caller has made): the same settings and
 * place, right after the original, with its current content.
 */
export async function copySpace(tx: Db, context: Context, space: SpaceFields): Promise<SpaceFields> {
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
  const item = { type: 'space', id: created.id } as const;
  const position = await positionAmongSiblings(tx, item, space.organization_id, space.parent_id, {
    after: { type: 'space', space: space.id },
  });
  return updateSpace(tx, created.organization_id, created.id, { position });
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
    await updateSpace(tx, space.organization_id, space.id, {
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
  await context.db.transaction().execute(async (tx) => {
    await dropGrantsThatStay(tx, { spaceId: space.id }, organizationId);
    // Tables that belong to a space carry its organization too; as they come, they move here with it.
    await updateSpace(tx, space.organization_id, space.id, {
      organization_id: organizationId,
      parent_id: null,
      position: nextPosition(organizationId, null),
      visibility: space.visibility === 'in-collection' ? 'private' : space.visibility,
      updated_at: context.clock.now(),
    });
    // Both organizations' admins see it: one lost the space, the other gained it.
    for (const [at, details] of [
      [space.organization_id, { toOrganization: organizationId }],
      [organizationId, { fromOrganization: space.organization_id }],
    ] as const) {
      await recordAuditEvent(tx, {
        organizationId: at,
        action: 'space.transferred',
        actorId: userId,
        target: { type: 'space', id: space.id, label: space.title },
        at: context.clock.now(),
        details,
      });
    }
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
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await updateSpace(tx, space.organization_id, space.id, { deleted_at: now });
    await recordAuditEvent(tx, {
      organizationId: space.organization_id,
      action: 'space.deleted',
      actorId: userId,
      target: { type: 'space', id: space.id, label: space.title },
      at: now,
    });
  });
  // Sites embed their spaces: this instance's cached site structures go with the change.
  context.siteStructures.clear();
}

/** Brings back a deleted space within the retention window (found for its admins only). */
export async function restoreSpace(context: Context, userId: string, spaceId: string): Promise<Space> {
  const { space } = await findSpaceAsMember(context, spaceId, userId, { deleted: 'required' });
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await updateSpace(tx, space.organization_id, space.id, { deleted_at: null, updated_at: now });
    await recordAuditEvent(tx, {
      organizationId: space.organization_id,
      action: 'space.restored',
      actorId: userId,
      target: { type: 'space', id: space.id, label: space.title },
      at: now,
      before: { deletedAt: space.deleted_at?.toISOString() ?? null },
      after: { deletedAt: null },
    });
  });
  // Sites embed their spaces: this instance's cached site structures go with the change.
  context.siteStructures.clear();
  const restored = await findSpaceAsMember(context, space.id, userId);
  return presentSpace(restored.space, restored.role, context.urls);
}

/** A list request's paging, as the query string gives it. */
type PageQuery = Parameters<Cursors['request']>[1];

/**
 * A page of an organization's spaces that are not deleted, newest first, with
 * the caller's role on each: all of them for a member, those they reach
 * through grants for a guest.
 */
export async function listOrganizationSpaces(
  context: Context,
  userId: string,
  organizationId: string,
  query: PageQuery,
): Promise<Page<Space>> {
  const page = context.cursors.request(`spaces:${organizationId}`, query);
  const membership = await findMembership(context.db, organizationId, userId);
  if (!membership) throw new NotFoundError('No organization with this id is visible to you');
  const member = { userId, role: membership.role };
  const result = await spacesPageFor(context, organizationId, member, page);
  const roleOf = await spaceRolesFor(context.db, organizationId, member, result.items);
  const linked = await findSpacesInstallations(
    context.db,
    organizationId,
    result.items.map((row) => row.id),
  );
  return {
    ...result,
    items: result.items.map((row) => withGitSync(presentSpace(row, roleOf(row), context.urls), linked)),
  };
}

/** The space with its Git Sync link, where it has one: for lists of members, as getSpace shows it to them. */
function withGitSync(space: Space, linked: Map<string, GitSyncInstallationRow>): Space {
  const installation = linked.get(space.id);
  if (installation) space.gitSync = presentGitSyncLink(installation);
  return space;
}

/**
 * A page of a collection's spaces that are not deleted, newest first. Whoever
 * sees the collection reaches everything in it: roles only add down the tree.
 */
export async function listCollectionSpaces(
  context: Context,
  userId: string,
  collectionId: string,
  query: PageQuery,
): Promise<Page<Space>> {
  const { collection } = await findVisibleCollection(context.db, collectionId, userId);
  const page = context.cursors.request(`collection-spaces:${collectionId}`, query);
  const result = await paginate(context.cursors, page, {
    rows: () => listSpacesInCollection(context.db, page, collectionId),
    count: () => countSpacesInCollection(context.db, collectionId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  const member = { userId, role: collection.member_role };
  const roleOf = await spaceRolesFor(context.db, collection.organization_id, member, result.items);
  // Which repository a space syncs with is its members' to know, not a visitor's.
  const linked =
    collection.member_role === null
      ? new Map<string, GitSyncInstallationRow>()
      : await findSpacesInstallations(
          context.db,
          collection.organization_id,
          result.items.map((row) => row.id),
        );
  return {
    ...result,
    items: result.items.map((row) => withGitSync(presentSpace(row, roleOf(row), context.urls), linked)),
  };
}

/** The spaces a member can reach, with their role on each, as a caller who may see the roster sees them. */
export async function listMemberSpaces(
  context: Context,
  callerId: string,
  organizationId: string,
  memberId: string,
  query: PageQuery,
): Promise<Page<{ permission: Role; space: Space }>> {
  const callerRole = rosterRole(await findMembership(context.db, organizationId, callerId));
  const page = context.cursors.request(`member-spaces:${organizationId}:${memberId}`, query);
  const found = await memberOrNotFound(context.db, organizationId, memberId);
  const member = { userId: memberId, role: found.role };
  const result = await spacesPageFor(context, organizationId, member, page);
  const [permissionOf, callerRoleOf] = await Promise.all([
    spaceRolesFor(context.db, organizationId, member, result.items),
    spaceRolesFor(context.db, organizationId, { userId: callerId, role: callerRole }, result.items),
  ]);
  return {
    ...result,
    items: result.items.map((row) => ({
      // Every space of the page is one the member reaches.
      permission: permissionOf(row)!,
      space: presentSpace(row, callerRoleOf(row), context.urls),
    })),
  };
}

/** A page of the live spaces the member sees: every one for a member with a role, those they reach for a guest. */
function spacesPageFor(context: Context, organizationId: string, member: Member, page: PageRequest) {
  return paginate(context.cursors, page, {
    rows: () =>
      member.role === null
        ? listReachableSpacesInOrganization(context.db, page, organizationId, member.userId)
        : listSpacesInOrganization(context.db, page, organizationId),
    count: () =>
      member.role === null
        ? countReachableSpacesInOrganization(context.db, organizationId, member.userId)
        : countSpacesInOrganization(context.db, organizationId),
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
