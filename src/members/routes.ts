import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, OrganizationParams, MemberParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { lagTolerant } from '../context.js';
import { MemberSchema } from './member-schemas.js';
import {
  getMember,
  listOrganizationMembers,
  recordActivity,
  removeMember,
  setSsoMember,
  updateMember,
} from './actions.js';
import { ListMembersQuery, PingResponse, UpdateMemberBody } from './schemas.js';
import { versionOf } from '../cache-versions.js';

const Member = ref(MemberSchema);

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/members',
    {
      config: { scope: 'organization:members:read', cache: versionOf.organization, lagTolerant: 'caller' },
      schema: {
        operationId: 'listMembersInOrganizationById',
        tags: ['members'],
        summary: 'List the members of an organization',
        description:
          'For members with a role (guests get 403). Newest members first unless `order=asc`; filter by ' +
          '`role` (`guest`: no role) or by `search` over display names and e-mails; `sort=lastSeenAt` orders ' +
          'by last activity and lists only members seen at least once; `sort=name` by display name (any case).',
        params: OrganizationParams,
        querystring: ListMembersQuery,
        response: { 200: ListEnvelope(Member), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationMembers(
        lagTolerant(app.context, request),
        callerOf(request).userId,
        request.params.organizationId,
        request.query,
      ),
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      config: { scope: 'organization:members:read', cache: versionOf.organization },
      schema: {
        operationId: 'getMemberInOrganizationById',
        tags: ['members'],
        summary: 'Get a member of an organization',
        description:
          'For members with a role (guests get 403): the member’s user, role, and when they joined and were ' +
          'last seen.',
        params: MemberParams,
        response: { 200: Member, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      return getMember(app.context, callerOf(request).userId, organizationId, userId);
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
        description:
          'Admins only. null makes the member a guest, who then sees only what is given to them or their ' +
          'teams; the last admin cannot be demoted (409).',
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Member, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      return updateMember(app.context, callerOf(request).userId, organizationId, userId, request.body);
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
        description:
          'Admins remove anyone; any member may remove themselves. Their team memberships, roles given to ' +
          'them and review requests go; their comments stay. The last admin cannot be removed (409).',
        params: MemberParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, userId } = request.params;
      await removeMember(app.context, callerOf(request).userId, organizationId, userId);
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
        description:
          'Any member, guests included, for themselves: sets their last-seen time, and answers their visitor ' +
          'claims as a JWT signed by the service, valid for an hour.',
        params: OrganizationParams,
        response: { 200: PingResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { userId, email } = callerOf(request);
      // The service secret is not part of the actions' context; the claims are signed with a key derived from it.
      return recordActivity(app.context, userId, request.params.organizationId, email);
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
        description:
          'Admins only: marks the member as one who signs in through the organization’s single sign-on; the ' +
          'member is answered as it now is.',
        params: MemberParams,
        response: { 200: Member, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      return setSsoMember(app.context, callerOf(request).userId, organizationId, userId);
    },
  );
};
