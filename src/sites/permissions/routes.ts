import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { invite, listTeamPermissions, listUserPermissions, removeGrant, setGrant } from '../../permissions/actions.js';
import type { GrantTarget } from '../../permissions/queries.js';
import { InviteBody, ListGrantsQuery, TeamPermissionSchema, UserPermissionSchema } from '../../permissions/schemas.js';
import { SiteParams } from '../schemas.js';
import { listSiteReachingUsers } from './actions.js';
import {
  ListSiteReachQuery,
  SiteTeamParams,
  SiteUserParams,
  UpdateSiteGrantBody,
  UserSitePermissionSchema,
} from './schemas.js';

const NoContent = { 204: Type.Null({ description: 'Done' }) };
const Removed = {
  204: Type.Null({ description: 'There was no role given to remove' }),
  205: Type.Null({ description: 'Removed' }),
};

/** What roles on a site give, said once for every route. */
const ROLES_ON_A_SITE =
  'A user’s role on a site is the strongest of their organization role and the roles given to them or their ' +
  'teams on the site, as for spaces: any role lets them see the site in the app (guests too), and `admin` ' +
  'lets them change, publish and delete it and manage who may; an organization admin is admin on every site.';

const site = (params: { organizationId: string; siteId: string }): GrantTarget => ({
  kind: 'site',
  id: params.siteId,
  organizationId: params.organizationId,
});

/**
 * Roles given one by one on a site, to members (guests included) and teams,
 * beside their organization role: the grants of spaces and collections, on
 * one more kind of target. Tagged as 0.202.0 tags them.
 */
export const sitePermissionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/permissions',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'inviteToSite',
        tags: ['site-permissions'],
        summary: 'Give a role on a site to members and teams (its admins)',
        description:
          'Admins of the site. Each named member (guests included) and team of the organization gets `role` on ' +
          'the site, replacing a role given before; `role: null` takes the given roles away. At least one of ' +
          '`users` and `teams` (400); an id that is not a member or team of the organization is a 404 and ' +
          `nothing changes. ${ROLES_ON_A_SITE}`,
        params: SiteParams,
        body: InviteBody,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await invite(app.context, callerOf(request).userId, site(request.params), request.body);
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/permissions/aggregate',
    {
      config: { scope: 'site:permissions:read' },
      schema: {
        operationId: 'listPermissionsAggregateInSite',
        tags: ['site-users'],
        summary: 'Everyone who can reach the site, with their role and where it comes from',
        description:
          'Members with a role on the site (guests do not read it). Every active member with an organization ' +
          'role, and every guest given a role on the site, with `origin` the organization or the grant that ' +
          'raised them (to them, or to a team of theirs). `role` keeps users with that role on the site ' +
          '(`guest`: the guests of the organization), `search` matches names and e-mails, `team` keeps the ' +
          'members of a team; `sort=lastSeenAt` lists only members seen at least once, `name` orders by ' +
          `display name. ${ROLES_ON_A_SITE}`,
        params: SiteParams,
        querystring: ListSiteReachQuery,
        response: { 200: ListEnvelope(UserSitePermissionSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return listSiteReachingUsers(app.context, callerOf(request).userId, organizationId, siteId, request.query);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/permissions/users',
    {
      config: { scope: 'site:permissions:read' },
      schema: {
        operationId: 'listUserPermissionsInSite',
        tags: ['site-users'],
        summary: 'The members given a role on the site one by one',
        description:
          'Members with a role on the site (guests do not read it), in the order the roles were first given; ' +
          'roles given to teams are listed apart.',
        params: SiteParams,
        querystring: ListGrantsQuery,
        response: { 200: ListEnvelope(UserPermissionSchema), ...errorResponses },
      },
    },
    async (request) => listUserPermissions(app.context, callerOf(request).userId, site(request.params), request.query),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/permissions/teams',
    {
      config: { scope: 'site:permissions:read' },
      schema: {
        operationId: 'listTeamPermissionsInSite',
        tags: ['site-permissions'],
        summary: 'The teams given a role on the site',
        description: 'Members with a role on the site (guests do not read it), each team with the role given to it.',
        params: SiteParams,
        querystring: ListGrantsQuery,
        response: { 200: ListEnvelope(TeamPermissionSchema), ...errorResponses },
      },
    },
    async (request) => listTeamPermissions(app.context, callerOf(request).userId, site(request.params), request.query),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/permissions/users/:userId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'updateUserPermissionInSite',
        tags: ['site-users'],
        summary: 'Set the role of a member on the site (its admins)',
        description:
          'Admins of the site. The user must be a member of the organization (guests included; 404 if not); ' +
          'the role replaces one given before. Their role on the site stays at least their organization role.',
        params: SiteUserParams,
        body: UpdateSiteGrantBody,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      await setGrant(app.context, callerOf(request).userId, site(request.params), 'user', userId, request.body.role);
      return noContent(reply, 204);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/permissions/users/:userId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'removeUserFromSite',
        tags: ['site-users'],
        summary: 'Take the role given to a member on the site away (its admins)',
        description:
          'Admins of the site. Answers 205 when a role was taken away, 204 when there was none; the member ' +
          'keeps what reaches them otherwise, such as their organization role and their teams’ roles.',
        params: SiteUserParams,
        response: { ...Removed, ...errorResponses },
      },
    },
    async (request, reply) => {
      const removed = await removeGrant(
        app.context,
        callerOf(request).userId,
        site(request.params),
        'user',
        request.params.userId,
      );
      return noContent(reply, removed ? 205 : 204);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/permissions/teams/:teamId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'updateTeamPermissionInSite',
        tags: ['site-permissions'],
        summary: 'Set the role of a team on the site (its admins)',
        description:
          'Admins of the site. The team must be of the organization (404 if not); the role replaces one given ' +
          'before and reaches every member of the team.',
        params: SiteTeamParams,
        body: UpdateSiteGrantBody,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { teamId } = request.params;
      await setGrant(app.context, callerOf(request).userId, site(request.params), 'team', teamId, request.body.role);
      return noContent(reply, 204);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/permissions/teams/:teamId',
    {
      config: { scope: 'site:permissions:write' },
      schema: {
        operationId: 'removeTeamFromSite',
        tags: ['site-permissions'],
        summary: 'Take the role given to a team on the site away (its admins)',
        description:
          'Admins of the site. Answers 205 when a role was taken away, 204 when there was none; its members ' +
          'keep what reaches them otherwise.',
        params: SiteTeamParams,
        response: { ...Removed, ...errorResponses },
      },
    },
    async (request, reply) => {
      const removed = await removeGrant(
        app.context,
        callerOf(request).userId,
        site(request.params),
        'team',
        request.params.teamId,
      );
      return noContent(reply, removed ? 205 : 204);
    },
  );
};
