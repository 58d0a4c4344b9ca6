import type { FastifyBaseLogger } from 'fastify';
import type { CollectionUpdate } from '../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate, type Cursors, type Page, type PageRequest } from '../core/pagination.js';
import { findVisibleCollection } from '../access/collections.js';
import { findMembership } from '../access/membership.js';
import { checkPlacement, roleBeneath } from '../access/placement.js';
import { checkTransferTarget, dropGrantsThatStay } from '../access/transfer.js';
import type { Context } from '../context.js';
import { changed, recordAuditEvent } from '../audit/record.js';
import { nextPosition, positionAmongSiblings } from '../hierarchy/positions.js';
import type { MoveBody } from '../hierarchy/schemas.js';
import { collectionAndAncestors } from '../hierarchy/walk.js';
import { collectionRolesFor, type Member } from '../access/grants.js';
import { presentCollection } from './present.js';
import {
  countCollections,
  countReachableCollections,
  createCollection,
  deleteCollectionTree,
  listCollections,
  listReachableCollections,
  updateCollection,
} from './queries.js';
import type { Collection, CreateCollectionBody, UpdateCollectionBody } from './schemas.js';

/** Creates a collection at the top level of the organization or inside the collection `body.parent`. */
export async function addCollection(
  context: Context,
  userId: string,
  organizationId: string,
  body: CreateCollectionBody,
): Promise<Collection> {
  const placement = await checkPlacement(context.db, 'Creating a collection', organizationId, body.parent, userId);

  const collection = await createCollection(context.db, context.clock, {
    organizationId,
    parentId: body.parent ?? null,
    title: body.title ?? 'Untitled',
  });
  const role = roleBeneath(placement, collection.default_level);
  return presentCollection(collection, role, context.urls);
}

/** A collection as the caller sees it. */
export async function getCollection(context: Context, userId: string, collectionId: string): Promise<Collection> {
  const { collection, role } = await findVisibleCollection(context.db, collectionId, userId);
  return presentCollection(collection, role, context.urls);
}

/** Title, description and default level: the admins' to change. */
export async function editCollection(
  context: Context,
  userId: string,
  collectionId: string,
  body: UpdateCollectionBody,
): Promise<Collection> {
  const { collection, role } = await findVisibleCollection(context.db, collectionId, userId);
  if (role !== 'admin') throw new ForbiddenError('Only admins of a collection can update it');

  const changes: CollectionUpdate = { updated_at: context.clock.now() };
  if (body.title !== undefined) changes.title = body.title;
  if (body.description !== undefined) changes.description = body.description || null;
  if (body.defaultLevel !== undefined) changes.default_level = body.defaultLevel;
  const updated = await context.db.transaction().execute(async (tx) => {
    const result = await updateCollection(tx, collection.organization_id, collection.id, changes);
    // Who may read and edit it changes with its default level: an admin's change to permissions.
    const permissions = changed({ defaultLevel: collection.default_level }, { defaultLevel: body.defaultLevel });
    if (permissions) {
      await recordAuditEvent(tx, {
        organizationId: collection.organization_id,
        action: 'collection.updated',
        actorId: userId,
        target: { type: 'collection', id: collection.id, label: result.title },
        at: changes.updated_at as Date,
        ...permissions,
      });
    }
    return result;
  });

  // A new default level can change the caller's role; read it back with the chain.
  const { role: newRole } = await findVisibleCollection(context.db, updated.id, userId);
  return presentCollection(updated, newRole, context.urls);
}

/**
 * Moves a collection under another collection (never into its own subtree)
 * or to the top level, and among its siblings.
 */
export async function moveCollection(
  context: Context,
  userId: string,
  collectionId: string,
  body: MoveBody,
): Promise<Collection> {
  const { collection, role } = await findVisibleCollection(context.db, collectionId, userId);
  if (role !== 'admin') throw new ForbiddenError('Moving a collection needs the admin role on it');
  const destination = body.parent === undefined ? collection.parent_id : body.parent;
  if (destination !== null && (await collectionAndAncestors(context.db, destination)).includes(collection.id)) {
    throw new BadRequestError('body/parent: a collection cannot move into itself or one of its sub-collections');
  }
  if (destination !== collection.parent_id) {
    await checkPlacement(
      context.db,
      'Moving a collection',
      collection.organization_id,
      destination ?? undefined,
      userId,
    );
  }
  await context.db.transaction().execute(async (tx) => {
    const position = await positionAmongSiblings(
      tx,
      { type: 'collection', id: collection.id },
      collection.organization_id,
      destination,
      body.position,
    );
    await updateCollection(tx, collection.organization_id, collection.id, {
      parent_id: destination,
      position,
      updated_at: context.clock.now(),
    });
  });
  const moved = await findVisibleCollection(context.db, collection.id, userId);
  return presentCollection(moved.collection, moved.role, context.urls);
}

/**
 * Moves a collection, with everything in it, to the top level of another
 * organization where the caller is an admin.
 */
export async function transferCollection(
  context: Context,
  userId: string,
  collectionId: string,
  organizationId: string,
): Promise<Collection> {
  const { collection, role } = await findVisibleCollection(context.db, collectionId, userId);
  if (role !== 'admin') throw new ForbiddenError('Transferring a collection needs the admin role on it');
  await checkTransferTarget(context.db, collection.organization_id, organizationId, userId);
  await context.db.transaction().execute(async (tx) => {
    await dropGrantsThatStay(tx, { collectionId: collection.id }, organizationId);
    // Sub-collections, spaces and grants follow through their foreign keys: ON UPDATE CASCADE.
    await updateCollection(tx, collection.organization_id, collection.id, {
      organization_id: organizationId,
      parent_id: null,
      position: nextPosition(organizationId, null),
      updated_at: context.clock.now(),
    });
    for (const [at, details] of [
      [collection.organization_id, { toOrganization: organizationId }],
      [organizationId, { fromOrganization: collection.organization_id }],
    ] as const) {
      await recordAuditEvent(tx, {
        organizationId: at,
        action: 'collection.transferred',
        actorId: userId,
        target: { type: 'collection', id: collection.id, label: collection.title },
        at: context.clock.now(),
        details,
      });
    }
  });
  // The spaces it holds leave the old organization's sites: this instance's cached site structures go.
  context.siteStructures.clear();
  const moved = await findVisibleCollection(context.db, collection.id, userId);
  return presentCollection(moved.collection, moved.role, context.urls);
}

/**
 * Deletes a collection with its sub-collections; the spaces in them are
 * deleted as one by one, restorable by their admins within the retention.
 * `log` is the request's, so the record carries its id.
 */
export async function deleteCollection(
  context: Context,
  userId: string,
  collectionId: string,
  log: FastifyBaseLogger = context.log,
): Promise<void> {
  const { collection, role } = await findVisibleCollection(context.db, collectionId, userId);
  if (role !== 'admin') throw new ForbiddenError('Deleting a collection needs the admin role on it');
  const now = context.clock.now();
  const { spaces } = await context.db.transaction().execute(async (tx) => {
    const deleted = await deleteCollectionTree(tx, collection.id, now);
    await recordAuditEvent(tx, {
      organizationId: collection.organization_id,
      action: 'collection.deleted',
      actorId: userId,
      target: { type: 'collection', id: collection.id, label: collection.title },
      at: now,
      details: { spaces: deleted.spaces },
    });
    return deleted;
  });
  // Sites embed the spaces it held: this instance's cached site structures go with them.
  context.siteStructures.clear();
  log.info({ collection: collection.id, spaces }, 'deleted a collection and the spaces in it');
}

/**
 * A page of an organization's collections, newest first: all of them, or the
 * top-level ones only; for a guest, those they reach through grants (the top
 * level being those whose parent they do not reach).
 */
export async function listOrganizationCollections(
  context: Context,
  userId: string,
  organizationId: string,
  query: Parameters<Cursors['request']>[1] & { nested?: boolean },
): Promise<Page<Collection>> {
  const membership = await findMembership(context.db, organizationId, userId);
  if (!membership) throw new NotFoundError('No organization with this id is visible to you');
  const nested = query.nested ?? true;
  const page = context.cursors.request(`collections:${organizationId}:${nested ? 'all' : 'top'}`, query);
  return collectionsPage(context, organizationId, { userId, role: membership.role }, nested, page);
}

async function collectionsPage(
  context: Context,
  organizationId: string,
  member: Member,
  nested: boolean,
  page: PageRequest,
): Promise<Page<Collection>> {
  const { userId } = member;
  const guest = member.role === null;
  const result = await paginate(context.cursors, page, {
    rows: () =>
      guest
        ? (nested ? listReachableCollections.all : listReachableCollections.topLevel)(
            context.db,
            page,
            organizationId,
            userId,
          )
        : (nested ? listCollections.all : listCollections.topLevel)(context.db, page, organizationId),
    count: () =>
      guest
        ? countReachableCollections(context.db, organizationId, userId, !nested)
        : countCollections(context.db, organizationId, !nested),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  const roleOf = await collectionRolesFor(context.db, organizationId, member, result.items);
  return { ...result, items: result.items.map((row) => presentCollection(row, roleOf(row), context.urls)) };
}
