import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ListQuery, ref, CollectionParams, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { TransferBody, MoveBody } from '../hierarchy/schemas.js';
import {
  addCollection,
  deleteCollection,
  editCollection,
  getCollection,
  listOrganizationCollections,
  moveCollection,
  transferCollection,
} from './actions.js';
import { CollectionSchema, CreateCollectionBody, ListCollectionsQuery, UpdateCollectionBody } from './schemas.js';
import { versionOf } from '../cache-versions.js';

const Collection = ref(CollectionSchema);

export const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/collections',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createCollection',
        tags: ['collections'],
        summary: 'Create a collection, at the top level or inside another',
        description:
          'Needs the `create` role in the organization, or on the parent collection when `parent` is given. ' +
          'The title defaults to `Untitled`; the caller’s role on the new collection is what it inherits from ' +
          'where it lands.',
        params: OrganizationParams,
        body: CreateCollectionBody,
        response: { 201: Collection, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await addCollection(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.body,
      );
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
        description:
          'Admins of the collection, with `create` where it goes when its parent changes. `parent` is a ' +
          'collection id or null for the top level; `position` names siblings to land `before` and/or `after` ' +
          '(with both, `after` first); without one it goes last. A collection cannot move into itself or one ' +
          'of its sub-collections (400).',
        params: CollectionParams,
        body: MoveBody,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) => moveCollection(app.context, callerOf(request).userId, request.params.collectionId, request.body),
  );

  app.post(
    '/collections/:collectionId/transfer',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'transferCollection',
        tags: ['collections'],
        summary: 'Transfer a collection, with everything in it, to another organization where you are an admin',
        description:
          'Needs the admin role in the organization the collection leaves, not only on the collection. It lands ' +
          'at the top level of the target organization; its sub-collections and spaces come with it.',
        params: CollectionParams,
        body: TransferBody,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) =>
      transferCollection(app.context, callerOf(request).userId, request.params.collectionId, request.body.organization),
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
          'The spaces in the collection and its sub-collections are deleted as by DELETE /spaces/{spaceId}: ' +
          'their admins can restore them within the retention window, at the top level of the organization.',
        params: CollectionParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteCollection(app.context, callerOf(request).userId, request.params.collectionId, request.log);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/orgs/:organizationId/collections',
    {
      config: { scope: 'space:read', cache: versionOf.organization },
      schema: {
        operationId: 'listCollectionsInOrganizationById',
        tags: ['collections'],
        summary: 'List the collections of an organization',
        description:
          'For members and guests, newest first; `nested=false` lists the top-level ones only. A guest sees ' +
          'only the collections given to them or their teams.',
        params: OrganizationParams,
        querystring: Type.Object({ ...ListQuery, ...ListCollectionsQuery }),
        response: { 200: ListEnvelope(Collection), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationCollections(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.get(
    '/collections/:collectionId',
    {
      config: { scope: 'space:read', cache: versionOf.collection },
      schema: {
        operationId: 'getCollectionById',
        tags: ['collections'],
        summary: 'Get a collection by its id',
        description: 'Anyone who can reach the collection, with their role on it; to anyone else, 404.',
        params: CollectionParams,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) => getCollection(app.context, callerOf(request).userId, request.params.collectionId),
  );

  app.patch(
    '/collections/:collectionId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateCollectionById',
        tags: ['collections'],
        summary: 'Update a collection’s title, description or default level (admins)',
        description:
          'Admins of the collection. `defaultLevel` is the role everyone in the organization gets on it and ' +
          'everything inside (`inherit`: the parent’s; null: nothing beyond the organization role).',
        params: CollectionParams,
        body: UpdateCollectionBody,
        response: { 200: Collection, ...errorResponses },
      },
    },
    async (request) => editCollection(app.context, callerOf(request).userId, request.params.collectionId, request.body),
  );
};
