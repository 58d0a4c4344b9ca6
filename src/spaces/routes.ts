import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import {
  errorResponses,
  ListEnvelope,
  ListQuery,
  ref,
  CollectionParams,
  OrganizationParams,
  ShareKeyQuery,
  SpaceParams,
  MemberParams,
  StringEnum,
} from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { lagTolerant } from '../context.js';
import { ROLES } from '../access/roles.js';
import { TransferBody, MoveBody } from '../hierarchy/schemas.js';
import {
  addSpace,
  deleteSpace,
  duplicateSpace,
  editSpace,
  getSpace,
  listCollectionSpaces,
  listMemberSpaces,
  listOrganizationSpaces,
  moveSpace,
  restoreSpace,
  transferSpace,
} from './actions.js';
import { CreateSpaceBody, UpdateSpaceBody } from './schemas.js';
import { SpaceSchema } from './space-schemas.js';
import { versionOf } from '../cache-versions.js';

const Space = ref(SpaceSchema);

export const spaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/spaces',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createSpace',
        tags: ['spaces'],
        summary: 'Create a space, at the top level or in a collection',
        description:
          'Needs the `create` role in the organization, or on the collection named by `parent`. The title ' +
          'defaults to `Untitled`, the edit mode to `live` and the visibility to `private`; `in-collection` ' +
          'visibility needs a `parent` (400). The new space starts with an empty revision (as `empty: true` ' +
          'asks), or with the pages of the built-in template `template.id` names (see applyTemplateToSpace).',
        params: OrganizationParams,
        body: CreateSpaceBody,
        response: { 201: Space, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await addSpace(app.context, callerOf(request).userId, request.params.organizationId, request.body);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/orgs/:organizationId/spaces',
    {
      config: { scope: 'space:read', cache: versionOf.organization, lagTolerant: 'caller' },
      schema: {
        operationId: 'listSpacesInOrganizationById',
        tags: ['spaces'],
        summary: 'List the spaces of an organization that are not deleted',
        description:
          'For members and guests, newest first, each with the caller’s role on it; a guest sees only the ' +
          'spaces given to them or their teams. Deleted spaces are left out.',
        params: OrganizationParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListEnvelope(Space), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationSpaces(
        lagTolerant(app.context, request),
        callerOf(request).userId,
        request.params.organizationId,
        request.query,
      ),
  );

  app.get(
    '/collections/:collectionId/spaces',
    {
      config: { scope: 'space:read', cache: versionOf.collection },
      schema: {
        operationId: 'listSpacesInCollectionById',
        tags: ['collections'],
        summary: 'List the spaces of a collection that are not deleted',
        description:
          'For whoever can reach the collection, newest first: reaching a collection reaches everything in ' +
          'it. Deleted spaces are left out.',
        params: CollectionParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListEnvelope(Space), ...errorResponses },
      },
    },
    async (request) =>
      listCollectionSpaces(app.context, callerOf(request).userId, request.params.collectionId, request.query),
  );

  app.get(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:read', cache: versionOf.space },
      schema: {
        operationId: 'getSpaceById',
        tags: ['spaces'],
        summary: 'Get a space by its id; deleted spaces answer to their admins until the retention ends',
        description:
          'Members read the spaces they reach; visitors read a public or unlisted space, or a share-link ' +
          'space with its `shareKey`, as `read`. Anyone else gets 404, as for an unknown id.',
        params: SpaceParams,
        querystring: ShareKeyQuery,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => getSpace(app.context, callerOf(request).userId, request.params.spaceId, request.query.shareKey),
  );

  app.patch(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateSpaceById',
        tags: ['spaces'],
        summary: 'Update a space: title and emoji (editors); edit mode, default level and visibility (admins)',
        description:
          'Needs `edit` for the title and emoji, and `admin` for the edit mode, default level and visibility; ' +
          'fields left out stay as they are. A `locked` space refuses edits until its `editMode` is set back ' +
          'to `live` (403). `in-collection` visibility needs the space to be in a collection (400).',
        params: SpaceParams,
        body: UpdateSpaceBody,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => editSpace(app.context, callerOf(request).userId, request.params.spaceId, request.body),
  );

  app.post(
    '/spaces/:spaceId/duplicate',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'duplicateSpace',
        tags: ['spaces'],
        summary: 'Duplicate a space beside the original',
        description:
          'The copy has new ids (its own share key and revision), the same settings and place, ' +
          'and its title marked as a copy; comments and change requests stay with the original.',
        params: SpaceParams,
        response: { 201: Space, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await duplicateSpace(app.context, callerOf(request).userId, request.params.spaceId);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.post(
    '/spaces/:spaceId/move',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'moveSpace',
        tags: ['spaces'],
        summary: 'Move a space to another collection or the top level, and among its siblings',
        description:
          'A space with in-collection visibility that moves to the top level becomes private: ' +
          'there is no collection left to open it to.',
        params: SpaceParams,
        body: MoveBody,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => moveSpace(app.context, callerOf(request).userId, request.params.spaceId, request.body),
  );

  app.post(
    '/spaces/:spaceId/transfer',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'transferSpace',
        tags: ['spaces'],
        summary: 'Transfer a space to another organization where you are an admin',
        description:
          'Needs the admin role in the organization the space leaves, not only on the space. The space lands at ' +
          'the top level of the target organization, last among its siblings; in-collection visibility becomes private.',
        params: SpaceParams,
        body: TransferBody,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) =>
      transferSpace(app.context, callerOf(request).userId, request.params.spaceId, request.body.organization),
  );

  app.delete(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'deleteSpaceById',
        tags: ['spaces'],
        summary: 'Delete a space; it can be restored until the retention ends',
        description:
          'Admins of the space. It disappears from lists, searches and sites, but its admins still read it ' +
          'and can restore it for SPACE_RETENTION_DAYS; after that the purge removes it with everything in ' +
          'it.',
        params: SpaceParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteSpace(app.context, callerOf(request).userId, request.params.spaceId);
      return noContent(reply, 205);
    },
  );

  app.post(
    '/spaces/:spaceId/restore',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'restoreSpace',
        tags: ['spaces'],
        summary: 'Restore a deleted space within the retention window',
        description:
          'Admins of the space, while it is within the retention window; after that it is gone (404). It ' +
          'comes back where it was, or at the top level if its collection was deleted, and reappears in its ' +
          'sites.',
        params: SpaceParams,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => restoreSpace(app.context, callerOf(request).userId, request.params.spaceId),
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      config: { scope: 'organization:members:read', cache: versionOf.organization },
      schema: {
        operationId: 'listSpacesForOrganizationMember',
        tags: ['members'],
        summary: 'List the spaces a member can reach, with their role on each',
        description:
          'For members with a role (guests get 403): every space the member reaches, through their ' +
          'organization role, default levels or what is given to them or their teams, with their role on ' +
          'each; newest first unless `order=asc`.',
        params: MemberParams,
        querystring: Type.Object({
          ...ListQuery,
          order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
        }),
        response: {
          200: ListEnvelope(Type.Object({ permission: StringEnum(ROLES), space: ref(SpaceSchema) })),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      return listMemberSpaces(app.context, callerOf(request).userId, organizationId, userId, request.query);
    },
  );
};
