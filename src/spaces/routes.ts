import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SpaceUpdate } from '../db/types.js';
import { checkPlacement } from '../model/access/placement.js';
import { findVisibleCollection } from '../model/access/collections.js';
import { nextPosition, positionAmongSiblings } from '../model/hierarchy/positions.js';
import { checkTransferTarget } from '../model/access/transfer.js';
import { effectiveRole, findMembership, requireRosterAccess } from '../model/access/membership.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { roleAtLeast, ROLES } from '../model/access/roles.js';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ListQuery, ref, CollectionParams, OrganizationParams, ShareKeyQuery, SpaceParams, MemberParams, StringEnum } from '../core/schemas.js';
import { defaultLevelChains, findSpaceAsMember, findVisibleSpace, type VisibleSpaceOptions } from '../model/access/spaces.js';
import { presentSpace } from './present.js';
import {
  countSpacesInCollection,
  countSpacesInOrganization,
  createSpace,
  listSpacesInCollection,
  listSpacesInOrganization,
  updateSpace,
} from './queries.js';
import { CreateSpaceBody, SpaceSchema, UpdateSpaceBody } from './schemas.js';
import { TransferBody, MoveBody } from '../model/hierarchy/schemas.js';
import { memberOrNotFound } from '../model/people/member-queries.js';
import { callerOf } from '../model/access/auth.js';

const Space = ref(SpaceSchema);

export const spaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const visibleSpace = (spaceId: string, userId: string, options?: VisibleSpaceOptions) => findVisibleSpace(app.context, spaceId, userId, options);
  // Every change to a space is a member's: visibility opens only the reading of it.
  const memberSpace = (spaceId: string, userId: string, options?: Pick<VisibleSpaceOptions, 'deleted'>) => findSpaceAsMember(app.context, spaceId, userId, options);

  app.post(
    '/orgs/:organizationId/spaces',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createSpace',
        tags: ['spaces'],
        summary: 'Create a space, at the top level or in a collection',
        params: OrganizationParams,
        body: CreateSpaceBody,
        response: { 201: Space, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const { parent, title, emoji, editMode, visibility } = request.body;
      if (visibility === 'in-collection' && parent === undefined) {
        throw new BadRequestError('body/visibility: in-collection is only for a space inside a collection');
      }
      const { memberRole, parentLevels } = await checkPlacement(app.db, 'Creating a space', organizationId, parent, callerOf(request).userId);
      const space = await createSpace(app.db, app.clock, {
        organizationId,
        parentId: parent ?? null,
        title: title ?? 'Untitled',
        emoji: emoji ?? null,
        editMode: editMode ?? 'live',
        visibility: visibility ?? 'private',
      });
      const body = presentSpace(space, effectiveRole(memberRole, [space.default_level, ...parentLevels]), app.urls);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/orgs/:organizationId/spaces',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpacesInOrganizationById',
        tags: ['spaces'],
        summary: 'List the spaces of an organization that are not deleted',
        params: OrganizationParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListEnvelope(Space), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const membership = await findMembership(app.db, organizationId, callerOf(request).userId);
      if (!membership) throw new NotFoundError('No organization with this id is visible to you');
      const page = app.cursors.request(`spaces:${organizationId}`, request.query);
      // Guests see only content shared with them, and spaces are not shared one by one yet.
      if (membership.role === null) return { count: 0, items: [] };

      const result = await paginate(app.cursors, page, {
        rows: () => listSpacesInOrganization(app.db, page, organizationId),
        count: () => countSpacesInOrganization(app.db, organizationId),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => row,
      });
      const chainOf = await defaultLevelChains(app.db, result.items);
      return { ...result, items: result.items.map((row) => presentSpace(row, effectiveRole(membership.role, chainOf(row)), app.urls)) };
    },
  );

  app.get(
    '/collections/:collectionId/spaces',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpacesInCollectionById',
        tags: ['collections'],
        summary: 'List the spaces of a collection that are not deleted',
        params: CollectionParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListEnvelope(Space), ...errorResponses },
      },
    },
    async (request) => {
      const { collectionId } = request.params;
      const { collection } = await findVisibleCollection(app.db, collectionId, callerOf(request).userId);

      const page = app.cursors.request(`collection-spaces:${collectionId}`, request.query);
      return paginate(app.cursors, page, {
        rows: () => listSpacesInCollection(app.db, page, collectionId),
        count: () => countSpacesInCollection(app.db, collectionId),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) =>
          presentSpace(row, effectiveRole(collection.member_role, [row.default_level, ...collection.chain_levels]), app.urls),
      });
    },
  );

  app.get(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getSpaceById',
        tags: ['spaces'],
        summary: 'Get a space by its id; deleted spaces answer to their admins until the retention ends',
        params: SpaceParams,
        querystring: ShareKeyQuery,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => {
      const { shareKey } = request.query;
      const { space, role } = await visibleSpace(request.params.spaceId, callerOf(request).userId, {
        deleted: 'allowed',
        ...(shareKey !== undefined ? { shareKey } : {}),
      });
      return presentSpace(space, role, app.urls, { hasShareKey: shareKey !== undefined && shareKey === space.share_key });
    },
  );

  app.patch(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateSpaceById',
        tags: ['spaces'],
        summary: 'Update a space: title and emoji (editors); edit mode, default level and visibility (admins)',
        params: SpaceParams,
        body: UpdateSpaceBody,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { space, role } = await memberSpace(request.params.spaceId, userId);
      const body = request.body;
      if (!roleAtLeast(role, 'edit')) throw new ForbiddenError('Updating a space needs the edit role on it');
      const settings = body.editMode !== undefined || body.defaultLevel !== undefined || body.visibility !== undefined;
      if (settings && role !== 'admin') throw new ForbiddenError('Changing the edit mode, default level or visibility of a space needs the admin role on it');
      const edits = body.title !== undefined || body.emoji !== undefined;
      if (edits && space.edit_mode === 'locked' && body.editMode !== 'live') {
        throw new ForbiddenError('The space is locked; set editMode to live before editing it');
      }
      if (body.visibility === 'in-collection' && space.parent_id === null) {
        throw new BadRequestError('body/visibility: in-collection is only for a space inside a collection');
      }

      const changes: SpaceUpdate = { updated_at: app.clock.now() };
      if (body.title !== undefined) changes.title = body.title;
      if (body.emoji !== undefined) changes.emoji = body.emoji;
      if (body.editMode !== undefined) changes.edit_mode = body.editMode;
      if (body.defaultLevel !== undefined) changes.default_level = body.defaultLevel;
      if (body.visibility !== undefined) changes.visibility = body.visibility;
      await updateSpace(app.db, space.id, changes);

      // A new default level can change the caller's own role: read it back.
      const updated = await memberSpace(space.id, userId);
      return presentSpace(updated.space, updated.role, app.urls);
    },
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
          'The copy has new ids (its own share key and revision), the same settings and place, and its title marked as a copy; comments and change requests stay with the original.',
        params: SpaceParams,
        response: { 201: Space, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { space } = await memberSpace(request.params.spaceId, userId);
      const { memberRole, parentLevels } = await checkPlacement(
        app.db,
        'Duplicating a space',
        space.organization_id,
        space.parent_id ?? undefined,
        userId,
      );
      const copy = await app.db.transaction().execute(async (tx) => {
        const created = await createSpace(tx, app.clock, {
          organizationId: space.organization_id,
          parentId: space.parent_id,
          title: copyTitle(space.title),
          emoji: space.emoji,
          editMode: space.edit_mode,
          visibility: space.visibility,
          defaultLevel: space.default_level,
        });
        // The copy goes right after the original.
        const position = await positionAmongSiblings(tx, { type: 'space', id: created.id }, space.organization_id, space.parent_id, {
          after: { type: 'space', space: space.id },
        });
        return updateSpace(tx, created.id, { position });
      });
      const body = presentSpace(copy, effectiveRole(memberRole, [copy.default_level, ...parentLevels]), app.urls);
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
          'A space with in-collection visibility that moves to the top level becomes private: there is no collection left to open it to.',
        params: SpaceParams,
        body: MoveBody,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { space, role } = await memberSpace(request.params.spaceId, userId);
      if (role !== 'admin') throw new ForbiddenError('Moving a space needs the admin role on it');
      const destination = request.body.parent === undefined ? space.parent_id : request.body.parent;
      if (destination !== space.parent_id) {
        await checkPlacement(app.db, 'Moving a space', space.organization_id, destination ?? undefined, userId);
      }
      await app.db.transaction().execute(async (tx) => {
        const position = await positionAmongSiblings(tx, { type: 'space', id: space.id }, space.organization_id, destination, request.body.position);
        await updateSpace(tx, space.id, {
          parent_id: destination,
          position,
          visibility: destination === null && space.visibility === 'in-collection' ? 'private' : space.visibility,
          updated_at: app.clock.now(),
        });
      });
      const moved = await memberSpace(space.id, userId);
      return presentSpace(moved.space, moved.role, app.urls);
    },
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
          'The space lands at the top level of the target organization, last among its siblings; in-collection visibility becomes private.',
        params: SpaceParams,
        body: TransferBody,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { space, role } = await memberSpace(request.params.spaceId, userId);
      if (role !== 'admin') throw new ForbiddenError('Transferring a space needs the admin role on it');
      const target = request.body.organization;
      await checkTransferTarget(app.db, space.organization_id, target, userId);
      // Tables that belong to a space carry its organization too; as they come, they move here with it.
      await updateSpace(app.db, space.id, {
        organization_id: target,
        parent_id: null,
        position: nextPosition(target, null),
        visibility: space.visibility === 'in-collection' ? 'private' : space.visibility,
        updated_at: app.clock.now(),
      });
      const moved = await memberSpace(space.id, userId);
      return presentSpace(moved.space, moved.role, app.urls);
    },
  );

  app.delete(
    '/spaces/:spaceId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'deleteSpaceById',
        tags: ['spaces'],
        summary: 'Delete a space; it can be restored until the retention ends',
        params: SpaceParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { space, role } = await memberSpace(request.params.spaceId, callerOf(request).userId);
      if (role !== 'admin') throw new ForbiddenError('Deleting a space needs the admin role on it');
      await updateSpace(app.db, space.id, { deleted_at: app.clock.now() });
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
        params: SpaceParams,
        response: { 200: Space, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { space } = await memberSpace(request.params.spaceId, userId, { deleted: 'required' });
      await updateSpace(app.db, space.id, { deleted_at: null, updated_at: app.clock.now() });
      const restored = await memberSpace(space.id, userId);
      return presentSpace(restored.space, restored.role, app.urls);
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listSpacesForOrganizationMember',
        tags: ['members'],
        summary: 'List the spaces a member can reach, with their role on each',
        params: MemberParams,
        querystring: Type.Object({ ...ListQuery, order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })) }),
        response: {
          200: ListEnvelope(Type.Object({ permission: StringEnum(ROLES), space: ref(SpaceSchema) })),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const callerRoleInOrganization = await requireRosterAccess(app.db, organizationId, callerOf(request).userId);
      const member = await memberOrNotFound(app.db, organizationId, userId);
      const page = app.cursors.request(`member-spaces:${organizationId}:${userId}`, request.query);
      // Guests reach only what is shared with them, and nothing is shared one by one yet.
      if (member.role === null) return { count: 0, items: [] };

      const result = await paginate(app.cursors, page, {
        rows: () => listSpacesInOrganization(app.db, page, organizationId),
        count: () => countSpacesInOrganization(app.db, organizationId),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => row,
      });
      const chainOf = await defaultLevelChains(app.db, result.items);
      return {
        ...result,
        items: result.items.map((row) => {
          const chain = chainOf(row);
          return {
            permission: effectiveRole(member.role, chain)!,
            space: presentSpace(row, effectiveRole(callerRoleInOrganization, chain), app.urls),
          };
        }),
      };
    },
  );
};

const COPY_SUFFIX = ' (copy)';

/** The title of a copy, kept within the 50 characters a title may have. */
export function copyTitle(title: string): string {
  return `${[...title].slice(0, 50 - COPY_SUFFIX.length).join('').trimEnd()}${COPY_SUFFIX}`;
}
