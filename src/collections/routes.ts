import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CollectionUpdate } from '../db/types.js';
import { effectiveRole, findMembership } from '../model/access/membership.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ListQuery, ref, CollectionParams, OrganizationParams } from '../core/schemas.js';
import { findVisibleCollection } from '../model/access/collections.js';
import { checkPlacement } from '../model/access/placement.js';
import { nextPosition, positionAmongSiblings } from '../model/hierarchy/positions.js';
import { checkTransferTarget } from '../model/access/transfer.js';
import { presentCollection } from './present.js';
import {
  countCollections,
  createCollection,
  deleteCollectionTree,
  listCollections,
  updateCollection,
} from './queries.js';
import { CollectionSchema, CreateCollectionBody, ListCollectionsQuery, UpdateCollectionBody } from './schemas.js';
import { TransferBody, MoveBody } from '../model/hierarchy/schemas.js';
import { chainLevels, collectionAndAncestors } from '../model/hierarchy/walk.js';
import { callerOf } from '../model/access/auth.js';

const Collection = ref(CollectionSchema);
const organizationNotFound = () => new NotFoundError('No organization with this id is visible to you');

export const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const visibleCollection = (collectionId: string, userId: string) => findVisibleCollection(app.db, collectionId, userId);

  app.post(
    '/orgs/:organizationId/collections',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createCollection',
        tags: ['collections'],
        summary: 'Create a collection, at the top level or inside another',
        params: OrganizationParams,
        body: CreateCollectionBody,
        response: { 201: Collection, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const { memberRole, parentLevels } = await checkPlacement(app.db, 'Creating a collection', organizationId, request.body.parent, callerOf(request).userId);

      const collection = await createCollection(app.db, app.clock, {
        organizationId,
        parentId: request.body.parent ?? null,
        title: request.body.title ?? 'Untitled',
      });
      const body = presentCollection(collection, effectiveRole(memberRole, [collection.default_level, ...parentLevels]), app.urls);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.post(
    '/collections/:collectionId/move',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'moveCollection',
        tags: ['collections'],
        summary: 'Move a collection under another collection or to the top level, and among its siblings',
        params: CollectionParams,
        body: MoveBody,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { collection, role } = await visibleCollection(request.params.collectionId, userId);
      if (role !== 'admin') throw new ForbiddenError('Moving a collection needs the admin role on it');
      const destination = request.body.parent === undefined ? collection.parent_id : request.body.parent;
      if (destination !== null && (await collectionAndAncestors(app.db, destination)).includes(collection.id)) {
        throw new BadRequestError('body/parent: a collection cannot move into itself or one of its sub-collections');
      }
      if (destination !== collection.parent_id) {
        await checkPlacement(app.db, 'Moving a collection', collection.organization_id, destination ?? undefined, userId);
      }
      await app.db.transaction().execute(async (tx) => {
        const position = await positionAmongSiblings(
          tx,
          { type: 'collection', id: collection.id },
          collection.organization_id,
          destination,
          request.body.position,
        );
        await updateCollection(tx, collection.id, { parent_id: destination, position, updated_at: app.clock.now() });
      });
      const moved = await visibleCollection(collection.id, userId);
      return presentCollection(moved.collection, moved.role, app.urls);
    },
  );

  app.post(
    '/collections/:collectionId/transfer',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'transferCollection',
        tags: ['collections'],
        summary: 'Transfer a collection, with everything in it, to another organization where you are an admin',
        description: 'The collection lands at the top level of the target organization; its sub-collections and spaces come with it.',
        params: CollectionParams,
        body: TransferBody,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { collection, role } = await visibleCollection(request.params.collectionId, userId);
      if (role !== 'admin') throw new ForbiddenError('Transferring a collection needs the admin role on it');
      const target = request.body.organization;
      await checkTransferTarget(app.db, collection.organization_id, target, userId);
      // Sub-collections and spaces follow through their (organization, parent) foreign keys: ON UPDATE CASCADE.
      await updateCollection(app.db, collection.id, {
        organization_id: target,
        parent_id: null,
        position: nextPosition(target, null),
        updated_at: app.clock.now(),
      });
      const moved = await visibleCollection(collection.id, userId);
      return presentCollection(moved.collection, moved.role, app.urls);
    },
  );

  app.delete(
    '/collections/:collectionId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'deleteCollectionById',
        tags: ['collections'],
        summary: 'Delete a collection with its sub-collections; its spaces are deleted and stay restorable',
        description:
          'The spaces in the collection and its sub-collections are deleted as by DELETE /spaces/{spaceId}: their admins can restore them within the retention window, at the top level of the organization.',
        params: CollectionParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { collection, role } = await visibleCollection(request.params.collectionId, callerOf(request).userId);
      if (role !== 'admin') throw new ForbiddenError('Deleting a collection needs the admin role on it');
      const now = app.clock.now();
      const { spaces } = await app.db.transaction().execute((tx) => deleteCollectionTree(tx, collection.id, now));
      request.log.info({ collection: collection.id, spaces }, 'deleted a collection and the spaces in it');
      return noContent(reply, 205);
    },
  );

  app.get(
    '/orgs/:organizationId/collections',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listCollectionsInOrganizationById',
        tags: ['collections'],
        summary: 'List the collections of an organization',
        params: OrganizationParams,
        querystring: Type.Object({ ...ListQuery, ...ListCollectionsQuery }),
        response: { 200: ListEnvelope(Collection), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const { userId } = callerOf(request);
      const membership = await findMembership(app.db, organizationId, userId);
      if (!membership) throw organizationNotFound();
      const nested = request.query.nested ?? true;
      const page = app.cursors.request(`collections:${organizationId}:${nested ? 'all' : 'top'}`, request.query);
      // Guests see only content shared with them, and collections are not shared one by one yet.
      if (membership.role === null) return { count: 0, items: [] };

      const list = nested ? listCollections.all : listCollections.topLevel;
      const result = await paginate(app.cursors, page, {
        rows: () => list(app.db, page, organizationId),
        count: () => countCollections(app.db, organizationId, !nested),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => row,
      });
      const levels = await chainLevels(app.db, result.items.map((row) => row.id));
      return {
        ...result,
        items: result.items.map((row) => presentCollection(row, effectiveRole(membership.role, levels.get(row.id) ?? []), app.urls)),
      };
    },
  );

  app.get(
    '/collections/:collectionId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getCollectionById',
        tags: ['collections'],
        summary: 'Get a collection by its id',
        params: CollectionParams,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) => {
      const { collection, role } = await visibleCollection(request.params.collectionId, callerOf(request).userId);
      return presentCollection(collection, role, app.urls);
    },
  );

  app.patch(
    '/collections/:collectionId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateCollectionById',
        tags: ['collections'],
        summary: 'Update a collection’s title, description or default level (admins)',
        params: CollectionParams,
        body: UpdateCollectionBody,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { collection, role } = await visibleCollection(request.params.collectionId, userId);
      if (role !== 'admin') throw new ForbiddenError('Only admins of a collection can update it');

      const changes: CollectionUpdate = { updated_at: app.clock.now() };
      if (request.body.title !== undefined) changes.title = request.body.title;
      if (request.body.description !== undefined) changes.description = request.body.description || null;
      if (request.body.defaultLevel !== undefined) changes.default_level = request.body.defaultLevel;
      const updated = await updateCollection(app.db, collection.id, changes);

      // A new default level can change the caller's role; read it back with the chain.
      const { role: newRole } = await visibleCollection(updated.id, userId);
      return presentCollection(updated, newRole, app.urls);
    },
  );
};
