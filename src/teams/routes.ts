import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { findMembership, requireOrganizationAdmin, requireRosterAccess } from '../model/access/membership.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate } from '../core/pagination.js';
import type { Role } from '../model/access/roles.js';
import { noContent } from '../core/replies.js';
import { errorResponses, IdParam, ListEnvelope, ListQuery, ref, MemberParams } from '../core/schemas.js';
import { presentMember } from '../model/people/members.js';
import { presentTeam } from '../model/people/teams.js';
import { countTeamMemberships, countTeams, listTeamMemberships, listTeams, upsertTeamMembers, listTeamsOfMember, countTeamsOfMember } from './queries.js';
import { CreateTeamBody, RenameTeamBody, SetTeamMemberBody, TeamMemberParams, TeamParams, UpdateTeamMembersBody } from './schemas.js';
import { MemberSchema, TeamMemberRoleSchema, TeamSchema } from '../model/people/schemas.js';
import { findMembers, resolveMembers, memberOrNotFound } from '../model/people/member-queries.js';
import { findTeam, type TeamRow } from '../model/people/team-queries.js';
import { callerOf } from '../model/access/auth.js';

const Team = ref(TeamSchema);
const NoContent = { 204: Type.Null({ description: 'Done' }) };
const teamNotFound = () => new NotFoundError('No team with this id in the organization');

export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const rosterRole = (organizationId: string, userId: string) => requireRosterAccess(app.db, organizationId, userId);
  const requireAdmin = (organizationId: string, userId: string, action: string) =>
    requireOrganizationAdmin(app.db, organizationId, userId, action);

  const present = (team: TeamRow, role: Role) => presentTeam(team, { view: true, admin: role === 'admin' || team.caller_is_owner });

  /** The team, the caller's role, and whether the caller may manage the team's members (admins and team owners). */
  async function visibleTeam(organizationId: string, teamId: string, userId: string) {
    const role = await rosterRole(organizationId, userId);
    const team = await findTeam(app.db, organizationId, teamId, userId);
    if (!team) throw teamNotFound();
    return { team, role, manages: role === 'admin' || team.caller_is_owner };
  }

  async function managedTeam(organizationId: string, teamId: string, userId: string) {
    const visible = await visibleTeam(organizationId, teamId, userId);
    if (!visible.manages) throw new ForbiddenError('Managing a team’s members needs the admin role in the organization or ownership of the team');
    return visible;
  }

  app.get(
    '/orgs/:organizationId/teams',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listTeamsInOrganizationById',
        tags: ['teams'],
        summary: 'List the teams of an organization',
        params: Type.Object({ organizationId: IdParam }),
        querystring: Type.Object({
          ...ListQuery,
          owner: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Only the teams this member can manage' })),
          title: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Part of the title, any case' })),
        }),
        response: { 200: ListEnvelope(Team), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const { userId } = callerOf(request);
      const role = await rosterRole(organizationId, userId);
      const { owner, title } = request.query;
      const page = app.cursors.request(`teams:${organizationId}:${owner ?? ''}:${title ?? ''}`, request.query);
      let ownedBy: string | undefined;
      if (owner !== undefined) {
        const ownerMembership = await findMembership(app.db, organizationId, owner);
        // Admins can manage every team; anyone else, the teams they own; a non-member, none.
        if (!ownerMembership) return { count: 0, items: [] };
        if (ownerMembership.role !== 'admin') ownedBy = owner;
      }
      const filters = { ownedBy, title };
      return paginate(app.cursors, page, {
        rows: () => listTeams(app.db, page, organizationId, userId, filters),
        count: () => countTeams(app.db, organizationId, filters),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => present(row, role),
      });
    },
  );

  app.put(
    '/orgs/:organizationId/teams',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'createOrganizationTeam',
        tags: ['teams'],
        summary: 'Create a team, optionally with members (admins)',
        params: Type.Object({ organizationId: IdParam }),
        body: CreateTeamBody,
        response: { 201: Team, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId, 'Creating a team');
      const memberIds = [...new Set(request.body.members ?? [])];
      const known = await resolveMembers(app.db, organizationId, memberIds);
      const unknown = memberIds.filter((id) => known.get(id) !== id);
      if (unknown.length > 0) throw new BadRequestError(`body/members: not members of the organization: ${unknown.join(', ')}`);
      const id = newId();
      const now = app.clock.now();
      await app.db.transaction().execute(async (tx) => {
        await tx.insertInto('teams').values({ id, organization_id: organizationId, title: request.body.title, created_at: now, updated_at: now }).execute();
        await upsertTeamMembers(tx, organizationId, id, memberIds.map((memberId) => ({ userId: memberId, role: undefined })), now);
      });
      const team = (await findTeam(app.db, organizationId, id, userId))!;
      return reply.code(201).header('location', app.urls.api('orgs', organizationId, 'teams', id)).send(present(team, 'admin'));
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'getTeamInOrganizationById',
        tags: ['teams'],
        summary: 'Get a team',
        params: TeamParams,
        response: { 200: Team, ...errorResponses },
      },
    },
    async (request) => {
      const { team, role } = await visibleTeam(request.params.organizationId, request.params.teamId, callerOf(request).userId);
      return present(team, role);
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
        params: TeamParams,
        body: RenameTeamBody,
        response: { 200: Team, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId, 'Renaming a team');
      await visibleTeam(organizationId, teamId, userId);
      await app.db.updateTable('teams').set({ title: request.body.title, updated_at: app.clock.now() }).where('id', '=', teamId).execute();
      return present((await findTeam(app.db, organizationId, teamId, userId))!, 'admin');
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
        params: TeamParams,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId, 'Deleting a team');
      await visibleTeam(organizationId, teamId, userId);
      await app.db.deleteFrom('teams').where('id', '=', teamId).execute();
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listTeamMembersInOrganizationById',
        tags: ['teams'],
        summary: 'List the members of a team',
        params: TeamParams,
        querystring: Type.Object(ListQuery),
        response: {
          200: ListEnvelope(
            Type.Object({ organization: ref(MemberSchema), team: Type.Object({ role: TeamMemberRoleSchema }), permissions: Type.Object({ view: Type.Boolean() }) }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      await visibleTeam(organizationId, teamId, callerOf(request).userId);
      const page = app.cursors.request(`team-members:${teamId}`, request.query);
      const result = await paginate(app.cursors, page, {
        rows: () => listTeamMemberships(app.db, page, teamId),
        count: () => countTeamMemberships(app.db, teamId),
        keyOf: (row) => ({ createdAt: row.added_at, id: row.user_id }),
        toItem: (row) => row,
      });
      const members = new Map((await findMembers(app.db, organizationId, result.items.map((row) => row.user_id))).map((m) => [m.user_id, m]));
      return {
        ...result,
        items: result.items.map((row) => ({
          organization: presentMember(members.get(row.user_id)!, app.urls),
          team: { role: row.role },
          permissions: { view: true },
        })),
      };
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
        params: TeamParams,
        body: UpdateTeamMembersBody,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      await managedTeam(organizationId, teamId, callerOf(request).userId);
      const { add = [], remove = [], memberships = {} } = request.body;
      const resolved = await resolveMembers(app.db, organizationId, [...add, ...remove, ...Object.keys(memberships)]);
      const unknown = [...new Set([...add, ...remove, ...Object.keys(memberships)])].filter((value) => !resolved.has(value));
      if (unknown.length > 0) throw new BadRequestError(`body: not members of the organization: ${unknown.join(', ')}`);
      const now = app.clock.now();
      await app.db.transaction().execute(async (tx) => {
        await upsertTeamMembers(tx, organizationId, teamId, add.map((value) => ({ userId: resolved.get(value)!, role: undefined })), now);
        const roles = Object.entries(memberships).map(([value, { role }]) => ({ userId: resolved.get(value)!, role }));
        await upsertTeamMembers(tx, organizationId, teamId, roles, now);
        // Removal last, so that it wins over an add of the same user.
        const removed = remove.map((value) => resolved.get(value)!);
        if (removed.length > 0) await tx.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', 'in', removed).execute();
      });
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
        params: TeamMemberParams,
        body: SetTeamMemberBody,
        response: { ...NoContent, ...errorResponses },
      },
      // Every field is optional, so no body at all means the defaults.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await managedTeam(organizationId, teamId, callerOf(request).userId);
      if (!(await findMembership(app.db, organizationId, userId))) throw new NotFoundError('No member with this id in the organization');
      await upsertTeamMembers(app.db, organizationId, teamId, [{ userId, role: request.body.role ?? 'member' }], app.clock.now());
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
        params: TeamMemberParams,
        response: { ...NoContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await managedTeam(organizationId, teamId, callerOf(request).userId);
      await app.db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listTeamsForOrganizationMember',
        tags: ['members'],
        summary: 'List the teams a member is in, with their role in each',
        params: MemberParams,
        querystring: Type.Object({ ...ListQuery, title: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Part of the title, any case' })) }),
        response: {
          200: ListEnvelope(Type.Object({ team: ref(TeamSchema), member: Type.Object({ role: TeamMemberRoleSchema }) })),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const callerId = callerOf(request).userId;
      const callerRoleInOrganization = await requireRosterAccess(app.db, organizationId, callerId);
      await memberOrNotFound(app.db, organizationId, userId);
      const { title } = request.query;
      const page = app.cursors.request(`member-teams:${organizationId}:${userId}:${title ?? ''}`, request.query);
      return paginate(app.cursors, page, {
        rows: () => listTeamsOfMember(app.db, page, organizationId, userId, callerId, title),
        count: () => countTeamsOfMember(app.db, organizationId, userId, title),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => ({
          team: presentTeam(row, { view: true, admin: callerRoleInOrganization === 'admin' || row.caller_is_owner }),
          member: { role: row.member_role },
        }),
      });
    },
  );
};
