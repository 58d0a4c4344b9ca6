import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, MemberParams, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { TeamSchema } from '../members/member-schemas.js';
import {
  createTeam,
  deleteTeam,
  getTeam,
  listOrganizationTeams,
  listTeamsOfOrganizationMember,
  renameTeam,
} from './actions.js';
import { listTeamMembers, removeTeamMember, setTeamMember, updateTeamMembers } from './team-member-actions.js';
import {
  CreateTeamBody,
  ListMemberTeamsQuery,
  ListTeamMembersQuery,
  ListTeamsQuery,
  MemberTeamSchema,
  RenameTeamBody,
  SetTeamMemberBody,
  TeamMemberParams,
  TeamMembershipSchema,
  TeamParams,
  UpdateTeamMembersBody,
} from './schemas.js';
import { versionOf } from '../cache-versions.js';

const Team = ref(TeamSchema);
const NoContent = { 204: Type.Null({ description: 'Done' }) };

export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/teams',
    {
      config: { scope: 'organization:members:read', cache: versionOf.organization },
      schema: {
        operationId: 'listTeamsInOrganizationById',
        tags: ['teams'],
        summary: 'List the teams of an organization',
        description:
          'For members with a role (guests get 403), newest first. `title` filters by part of the title; ' +
          '`owner` lists the teams that member can manage: every team for an admin, else those they own.',
        params: OrganizationParams,
        querystring: ListTeamsQuery,
        response: { 200: ListEnvelope(Team), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationTeams(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.put(
    '/orgs/:organizationId/teams',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'createOrganizationTeam',
        tags: ['teams'],
        summary: 'Create a team, optionally with members (admins)',
        description:
          'Admins only. `members` are ids of the organization’s members (400 names any that are not), added ' +
          'with the `member` role.',
        params: OrganizationParams,
        body: CreateTeamBody,
        response: { 201: Team, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const team = await createTeam(app.context, callerOf(request).userId, organizationId, request.body);
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'teams', team.id))
        .send(team);
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:read', cache: versionOf.organization },
      schema: {
        operationId: 'getTeamInOrganizationById',
        tags: ['teams'],
        summary: 'Get a team',
        description: 'For members with a role (guests get 403), with what the caller may do with the team.',
        params: TeamParams,
        response: { 200: Team, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      return getTeam(app.context, callerOf(request).userId, organizationId, teamId);
    },
  );

  app.patch(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateTeamInOrganizationById',
        tags: ['teams'],
        summary: 'Rename a team (admins)',
        description: 'Admins only; the team keeps its members and the roles given to it.',
        params: TeamParams,
        body: RenameTeamBody,
        response: { 200: Team, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      return renameTeam(app.context, callerOf(request).userId, organizationId, teamId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'removeTeamFromOrganizationById',
        tags: ['teams'],
        summary: 'Delete a team (admins); its members stay in the organization',
        description:
          'Admins only. The roles given to the team on collections and spaces, and its review requests, go ' +
          'with it.',
        params: TeamParams,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      await deleteTeam(app.context, callerOf(request).userId, organizationId, teamId);
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { scope: 'organization:members:read', cache: versionOf.organization },
      schema: {
        operationId: 'listTeamMembersInOrganizationById',
        tags: ['teams'],
        summary: 'List the members of a team',
        description:
          'For members with a role (guests get 403): each member with their role in the team, `owner` or ' +
          '`member`.',
        params: TeamParams,
        querystring: ListTeamMembersQuery,
        response: { 200: ListEnvelope(TeamMembershipSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      return listTeamMembers(app.context, callerOf(request).userId, organizationId, teamId, request.query);
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateMembersInOrganizationTeam',
        tags: ['teams'],
        summary: 'Add, remove and set the roles of team members at once; a user in both add and remove is removed',
        description:
          'Admins and the team’s owners. Users are named by id or e-mail and must be members of the ' +
          'organization (400 names any that are not); added users get the `member` role unless `memberships` ' +
          'sets another. All in one transaction.',
        params: TeamParams,
        body: UpdateTeamMembersBody,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      await updateTeamMembers(app.context, callerOf(request).userId, organizationId, teamId, request.body);
      return noContent(reply, 204);
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'addMemberToOrganizationTeamById',
        tags: ['teams'],
        summary: 'Add a member to a team, or set their role in it',
        description:
          'Admins and the team’s owners. The user must be a member of the organization (404 otherwise); ' +
          '`role` defaults to `member`, and the body may be left out.',
        params: TeamMemberParams,
        body: SetTeamMemberBody,
        response: { ...NoContent, ...errorResponses },
      },
      // Every field is optional, so no body at all means the defaults; a JSON `null` is a body, and refused.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await setTeamMember(app.context, callerOf(request).userId, organizationId, teamId, userId, request.body);
      return noContent(reply, 204);
    },
  );

  app.delete(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'deleteMemberFromOrganizationTeamById',
        tags: ['teams'],
        summary: 'Remove a member from a team; removing someone not in it changes nothing',
        description: 'Admins and the team’s owners. The member stays in the organization.',
        params: TeamMemberParams,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await removeTeamMember(app.context, callerOf(request).userId, organizationId, teamId, userId);
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      config: { scope: 'organization:members:read', cache: versionOf.organization },
      schema: {
        operationId: 'listTeamsForOrganizationMember',
        tags: ['members'],
        summary: 'List the teams a member is in, with their role in each',
        description:
          'For members with a role (guests get 403): the teams of one member, newest first, filtered by part ' +
          'of their `title`.',
        params: MemberParams,
        querystring: ListMemberTeamsQuery,
        response: { 200: ListEnvelope(MemberTeamSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      return listTeamsOfOrganizationMember(
        app.context,
        callerOf(request).userId,
        organizationId,
        userId,
        request.query,
      );
    },
  );
};
