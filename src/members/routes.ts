import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { organizationRole, requireOrganizationAdmin, requireRosterAccess as requireRosters } from '../model/access/membership.js';
import { NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, OrganizationParams, MemberParams } from '../core/schemas.js';
import { presentMember } from '../model/people/members.js';
import { countMembers, keepingAnAdmin, listMembers } from './queries.js';
import { ListMembersQuery, PingResponse, UpdateMemberBody } from './schemas.js';
import { MemberSchema } from '../model/people/schemas.js';
import { findMember } from '../model/people/member-queries.js';
import { callerOf } from '../model/access/auth.js';

const Member = ref(MemberSchema);
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
      await requireRosterAccess(organizationId, callerOf(request).userId);
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
      await requireRosterAccess(organizationId, callerOf(request).userId);
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
      await requireAdmin(organizationId, callerOf(request).userId, 'Changing a member’s role');
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
      const callerId = callerOf(request).userId;
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
      const { userId, email } = callerOf(request);
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
      await requireAdmin(organizationId, callerOf(request).userId, 'Setting a member as SSO member');
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
};
