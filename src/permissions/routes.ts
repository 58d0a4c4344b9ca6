import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { noContent } from '../core/replies.js';
import { CollectionParams, errorResponses, ListEnvelope, SpaceParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { invite, listTeamPermissions, listUserPermissions, removeGrant, setGrant } from './actions.js';
import type { GrantTarget } from './queries.js';
import { listReachingUsers } from './reach.js';
import {
  CollectionTeamParams,
  CollectionUserParams,
  InviteBody,
  ListGrantsQuery,
  ListReachQuery,
  ReachingUserSchema,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermissionSchema,
  UpdateGrantBody,
  UserPermissionSchema,
} from './schemas.js';

const NoContent = { 204: Type.Null({ description: 'Done' }) };
const Removed = {
  204: Type.Null({ description: 'There was no role given to remove' }),
  205: Type.Null({ description: 'Removed' }),
};

/** What differs between the grants of spaces and of collections: paths (written out, to be found), parameters and names. */
interface Kind {
  kind: 'space' | 'collection';
  paths: { base: string; users: string; teams: string; aggregate: string; user: string; team: string };
  Noun: 'Space' | 'Collection';
  params: TSchema;
  userParams: TSchema;
  teamParams: TSchema;
  targetOf: (params: Record<string, string>) => string;
}

const KINDS: Kind[] = [
  {
    kind: 'space',
    paths: {
      base: '/spaces/:spaceId/permissions',
      users: '/spaces/:spaceId/permissions/users',
      teams: '/spaces/:spaceId/permissions/teams',
      aggregate: '/spaces/:spaceId/permissions/aggregate',
      user: '/spaces/:spaceId/permissions/users/:userId',
      team: '/spaces/:spaceId/permissions/teams/:teamId',
    },
    Noun: 'Space',
    params: SpaceParams,
    userParams: SpaceUserParams,
    teamParams: SpaceTeamParams,
    targetOf: (params) => params.spaceId!,
  },
  {
    kind: 'collection',
    paths: {
      base: '/collections/:collectionId/permissions',
      users: '/collections/:collectionId/permissions/users',
      teams: '/collections/:collectionId/permissions/teams',
      aggregate: '/collections/:collectionId/permissions/aggregate',
      user: '/collections/:collectionId/permissions/users/:userId',
      team: '/collections/:collectionId/permissions/teams/:teamId',
    },
    Noun: 'Collection',
    params: CollectionParams,
    userParams: CollectionUserParams,
    teamParams: CollectionTeamParams,
    targetOf: (params) => params.collectionId!,
  },
];

/**
 * Roles given one by one on spaces and collections, to members (guests
 * included) and teams: admins of the content change them; members with a
 * role on it read them (guests do not, as they do not read rosters).
 */
export const permissionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const { kind, paths, Noun, params, userParams, teamParams, targetOf } of KINDS) {
    const tags = [`${kind}s`];
    const target = (request: { params: unknown }): GrantTarget => ({
      kind,
      id: targetOf(request.params as Record<string, string>),
    });

    app.post(
      paths.base,
      {
        config: { scope: 'space:permissions:write' },
        schema: {
          operationId: `inviteTo${Noun}`,
          tags,
          summary: `Give a role on a ${kind} to members and teams (its admins)`,
          description:
            `Admins of the ${kind}. Each named member (guests included) and team of the organization gets \`role\` ` +
            `on the ${kind}, replacing a role given before; \`role: null\` takes the given roles away. ` +
            `At least one of \`users\` and \`teams\` (400).` +
            (kind === 'collection' ? ' A role on a collection reaches everything inside it.' : ''),
          params,
          body: InviteBody,
          response: { ...NoContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await invite(app.context, callerOf(request).userId, target(request), request.body);
        return noContent(reply, 204);
      },
    );

    app.get(
      paths.users,
      {
        config: { scope: 'space:permissions:read' },
        schema: {
          operationId: `listUserPermissionsIn${Noun}`,
          tags,
          summary: `The members given a role on the ${kind} one by one`,
          description:
            `For members with a role on the ${kind} (guests do not read it), in the order the roles were first ` +
            'given; roles given to teams are listed apart.',
          params,
          querystring: ListGrantsQuery,
          response: { 200: ListEnvelope(UserPermissionSchema), ...errorResponses },
        },
      },
      async (request) => listUserPermissions(app.context, callerOf(request).userId, target(request), request.query),
    );

    app.get(
      paths.teams,
      {
        config: { scope: 'space:permissions:read' },
        schema: {
          operationId: `listTeamPermissionsIn${Noun}`,
          tags,
          summary: `The teams given a role on the ${kind}`,
          description: `For members with a role on the ${kind} (guests do not read it), each team with the role given to it.`,
          params,
          querystring: ListGrantsQuery,
          response: { 200: ListEnvelope(TeamPermissionSchema), ...errorResponses },
        },
      },
      async (request) => listTeamPermissions(app.context, callerOf(request).userId, target(request), request.query),
    );

    app.get(
      paths.aggregate,
      {
        config: { scope: 'space:permissions:read' },
        schema: {
          operationId: `listPermissionsAggregateIn${Noun}`,
          tags,
          summary: `Everyone who can reach the ${kind}, with their role and why`,
          description:
            `For members with a role on the ${kind}. Each user’s role is the strongest of their organization role, ` +
            `the default levels on the way down and the roles given to them or their teams; \`via\` lists each ` +
            `reason. \`role\` keeps the users with exactly that role.`,
          params,
          querystring: ListReachQuery,
          response: { 200: ListEnvelope(ReachingUserSchema), ...errorResponses },
        },
      },
      async (request) => listReachingUsers(app.context, callerOf(request).userId, target(request), request.query),
    );

    for (const grantee of ['user', 'team'] as const) {
      const Grantee = grantee === 'user' ? 'User' : 'Team';
      const path = paths[grantee];
      const granteeId = (request: { params: unknown }) => (request.params as Record<string, string>)[`${grantee}Id`]!;

      app.patch(
        path,
        {
          config: { scope: 'space:permissions:write' },
          schema: {
            operationId: `update${Grantee}PermissionIn${Noun}`,
            tags,
            summary: `Set the role of a ${grantee} on the ${kind}; null takes it away (its admins)`,
            description:
              `Admins of the ${kind}. The ${grantee} must be of the organization; the role replaces the one ` +
              `given before, and null takes it away.`,
            params: grantee === 'user' ? userParams : teamParams,
            body: UpdateGrantBody,
            response: { ...NoContent, ...errorResponses },
          },
        },
        async (request, reply) => {
          const { role } = request.body;
          await setGrant(app.context, callerOf(request).userId, target(request), grantee, granteeId(request), role);
          return noContent(reply, 204);
        },
      );

      app.delete(
        path,
        {
          config: { scope: 'space:permissions:write' },
          schema: {
            operationId: grantee === 'user' ? `removeUserFrom${Noun}` : `removeTeamFrom${Noun}`,
            tags,
            summary: `Take the role given to a ${grantee} on the ${kind} away (its admins)`,
            description:
              `Admins of the ${kind}. Answers 205 when a role was taken away, 204 when there was none; ` +
              `the ${grantee} keeps what reaches them otherwise, such as the organization role.`,
            params: grantee === 'user' ? userParams : teamParams,
            response: { ...Removed, ...errorResponses },
          },
        },
        async (request, reply) => {
          const removed = await removeGrant(
            app.context,
            callerOf(request).userId,
            target(request),
            grantee,
            granteeId(request),
          );
          return noContent(reply, removed ? 205 : 204);
        },
      );
    }
  }
};
