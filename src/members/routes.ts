import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { effectiveRole, organizationRole, requireOrganizationAdmin, requireRosterAccess as requireRosters } from '../core/access.js';
import { NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { ROLES } from '../core/roles.js';
import { noContent } from '../core/replies.js';
import { errorResponses, IdParam, ListEnvelope, ListQuery, ref, StringEnum } from '../core/schemas.js';
import { defaultLevelChains } from '../spaces/access.js';
import { presentSpace } from '../spaces/present.js';
import { countSpacesInOrganization, listSpacesInOrganization } from '../spaces/queries.js';
import { SpaceSchema } from '../spaces/schemas.js';
import { presentTeam } from '../teams/present.js';
import { countTeamsOfMember, listTeamsOfMember } from '../teams/queries.js';
import { TeamMemberRoleSchema, TeamSchema } from '../teams/schemas.js';
import { presentMember } from './present.js';
import { countMembers, findMember, keepingAnAdmin, listMembers } from './queries.js';
import { ListMembersQuery, MemberParams, MemberSchema, PingResponse, UpdateMemberBody } from './schemas.js';

const Member = ref(MemberSchema);
const OrganizationParams = Type.Object({ organizationId: IdParam });
const memberNotFound = () => new NotFoundError('No member with this id in the organization');

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const callerRole = (organizationId: string, userId: string) => organizationRole(app.db, organizationId, userId);
  const requireRosterAccess = (organizationId: string, userId: string) => requireRosters(app.db, organizationId, userId);
  const requireAdmin = (organizationId: string, userId: string, action: string) =>
    requireOrganizationAdmin(app.db, organizationId, userId, action);

  async function memberOrNotFound(organizationId: string, userId: string) {
    const member = await findMember(app.db, organizationId, userId);
    if (!member) throw memberNotFound();
    return member;
  }

  app.get(
    '/orgs/:organizationId/members',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listMembersInOrganizationById',
        tags: ['members'],
        summary: 'List the members of an organization',
        params: OrganizationParams,
        querystring: ListMembersQuery,
        response: { 200: ListEnvelope(Member), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await requireRosterAccess(organizationId, request.caller.userId);
      const { role, search, sort = 'joinedAt' } = request.query;
      const filters = { role, search, sort };
      const page = app.cursors.request(`members:${organizationId}:${sort}:${role ?? ''}:${search ?? ''}`, request.query);
      return paginate(app.cursors, page, {
        rows: () => listMembers(app.db, page, organizationId, filters),
        count: () => countMembers(app.db, organizationId, filters),
        keyOf: (row) => ({ createdAt: sort === 'lastSeenAt' ? row.last_seen_at! : row.joined_at, id: row.user_id }),
        toItem: (row) => presentMember(row, app.urls),
      });
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'getMemberInOrganizationById',
        tags: ['members'],
        summary: 'Get a member of an organization',
        params: MemberParams,
        response: { 200: Member, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      await requireRosterAccess(organizationId, request.caller.userId);
      return presentMember(await memberOrNotFound(organizationId, userId), app.urls);
    },
  );

  app.patch(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateMemberInOrganizationById',
        tags: ['members'],
        summary: 'Change a member’s role (admins); null makes them a guest',
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Member, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      await requireAdmin(organizationId, request.caller.userId, 'Changing a member’s role');
      await memberOrNotFound(organizationId, userId);
      const { role } = request.body;
      if (role !== undefined) {
        await keepingAnAdmin(app.db, organizationId, userId, (tx) =>
          tx.updateTable('organization_members').set({ role }).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute(),
        );
      }
      return presentMember(await memberOrNotFound(organizationId, userId), app.urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'removeMemberFromOrganizationById',
        tags: ['members'],
        summary: 'Remove a member (admins, or the member leaving); their team memberships go with them',
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, userId } = request.params;
      const callerId = request.caller.userId;
      if (userId !== callerId) await requireAdmin(organizationId, callerId, 'Removing a member');
      else await callerRole(organizationId, callerId);
      await memberOrNotFound(organizationId, userId);
      // Team memberships follow through their foreign key (ON DELETE CASCADE).
      await keepingAnAdmin(app.db, organizationId, userId, (tx) =>
        tx.deleteFrom('organization_members').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute(),
      );
      return noContent(reply, 204);
    },
  );

  app.post(
    '/orgs/:organizationId/ping',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'updateOrganizationMemberLastSeenAt',
        tags: ['members'],
        summary: 'Record that the caller is active in the organization',
        params: OrganizationParams,
        response: { 200: PingResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const { userId, email } = request.caller;
      const role = await callerRole(organizationId, userId);
      const now = app.clock.now();
      await app.db
        .updateTable('organization_members')
        .set({ last_seen_at: now })
        .where('organization_id', '=', organizationId)
        .where('user_id', '=', userId)
        .execute();
      const key = createHash('sha256').update(`visitor-claims:${app.serviceSecret}`).digest();
      const serviceVisitorClaims = await new SignJWT({ organization: organizationId, role, email })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuer(app.config.publicUrl)
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
        .sign(key);
      return { serviceVisitorClaims };
    },
  );

  app.post(
    '/orgs/:organizationId/members/:userId/sso',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'setUserAsSSOMemberForOrganization',
        tags: ['members'],
        summary: 'Mark a member as signing in with SSO (admins)',
        params: MemberParams,
        response: { 200: Member, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      await requireAdmin(organizationId, request.caller.userId, 'Setting a member as SSO member');
      await memberOrNotFound(organizationId, userId);
      await app.db
        .updateTable('organization_members')
        .set({ sso: true })
        .where('organization_id', '=', organizationId)
        .where('user_id', '=', userId)
        .execute();
      return presentMember(await memberOrNotFound(organizationId, userId), app.urls);
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
      const callerRoleInOrganization = await requireRosterAccess(organizationId, request.caller.userId);
      const member = await memberOrNotFound(organizationId, userId);
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
      const callerId = request.caller.userId;
      const callerRoleInOrganization = await requireRosterAccess(organizationId, callerId);
      await memberOrNotFound(organizationId, userId);
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
