import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Role } from '../db/types.js';
import { findMembership, requireOrganizationAdmin } from '../model/access/membership.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { pageQuery, paginate, TOTAL_COUNT } from '../core/pagination.js';
import { roleAtLeast } from '../model/access/roles.js';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ListQuery, ref, OrganizationParams } from '../core/schemas.js';
import { createUser } from '../model/people/user-queries.js';
import { CreateInviteLinkBody, InviteLinkSchema, InviteParams, InviteUsersBody, InviteUsersResponse, UpdateInviteLinkBody } from './schemas.js';
import { callerOf } from '../model/access/auth.js';

const InviteLink = ref(InviteLinkSchema);
const inviteNotFound = () => new NotFoundError('No invite with this id is open in the organization');

const invitesPage = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, organizationId: string) =>
  db
    .selectFrom('organization_invites')
    .select(['id', 'role', 'created_at'])
    .where('organization_id', '=', organizationId)
    .select((eb) =>
      eb.selectFrom('organization_invites as c').select((c) => c.fn.countAll<string>().as('n')).where('c.organization_id', '=', organizationId).as(TOTAL_COUNT),
    ),
);

export const inviteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const requireAdmin = (organizationId: string, userId: string, action: string) =>
    requireOrganizationAdmin(app.db, organizationId, userId, action);

  /** Invite links work only while the organization allows them. */
  async function inviteLinksEnabled(organizationId: string): Promise<boolean> {
    const row = await app.db.selectFrom('organizations').select('invite_links').where('id', '=', organizationId).executeTakeFirst();
    return row?.invite_links === true;
  }

  /** An invite is redundant to a caller who already has at least its role. */
  async function present(invite: { id: string; role: Role | null }, organizationId: string, userId: string) {
    const membership = await findMembership(app.db, organizationId, userId);
    const redundant = membership !== undefined && (membership.role === invite.role || (invite.role !== null && roleAtLeast(membership.role, invite.role)));
    return { object: 'invite' as const, id: invite.id, role: invite.role, redundant };
  }

  async function countInvites(organizationId: string): Promise<number> {
    const { n } = await app.db
      .selectFrom('organization_invites')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async function findInvite(organizationId: string, inviteId: string) {
    return app.db
      .selectFrom('organization_invites')
      .select(['id', 'role'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', inviteId)
      .executeTakeFirst();
  }

  app.post(
    '/orgs/:organizationId/invites',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'inviteUsersToOrganization',
        tags: ['invites'],
        summary: 'Add people to the organization by e-mail (admins); users are created when new',
        params: OrganizationParams,
        body: InviteUsersBody,
        response: { 200: InviteUsersResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await requireAdmin(organizationId, callerOf(request).userId, 'Inviting people');
      const { emails, sso = false } = request.body;
      const defaultRole = request.body.role === undefined ? 'read' : request.body.role;
      const wanted = new Map<string, Role | null>();
      for (const entry of emails) {
        const email = (typeof entry === 'string' ? entry : entry.email).toLowerCase();
        wanted.set(email, typeof entry === 'string' ? defaultRole : entry.role);
      }
      const now = app.clock.now();
      const added = await app.db.transaction().execute(async (tx) => {
        const users: string[] = [];
        for (const [email, role] of wanted) {
          const existing = await tx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
          const userId = existing?.id ?? (await createUser(tx, app.clock, { email, displayName: email.split('@')[0]! })).id;
          const inserted = await tx
            .insertInto('organization_members')
            .values({ organization_id: organizationId, user_id: userId, role, sso, joined_at: now })
            .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
            .returning('user_id')
            .executeTakeFirst();
          if (inserted) users.push(userId);
        }
        return users;
      });
      return { users: added, invited: added.length };
    },
  );

  app.post(
    '/orgs/:organizationId/link-invites',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'createOrganizationInvite',
        tags: ['invites'],
        summary: 'Create an invite link to the organization (admins, while invite links are on)',
        params: OrganizationParams,
        body: CreateInviteLinkBody,
        response: { 201: InviteLink, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId, 'Creating an invite link');
      if (request.body.space !== undefined || request.body.collection !== undefined || request.body.level !== undefined) {
        throw new BadRequestError('body: invite links to one space or collection are not supported; invite to the organization with a role');
      }
      if (request.body.role === undefined) throw new BadRequestError('body/role is required');
      if (!(await inviteLinksEnabled(organizationId))) throw new ForbiddenError('Invite links are turned off for this organization (inviteLinks)');
      const invite = { id: newId(), role: request.body.role };
      await app.db
        .insertInto('organization_invites')
        .values({ ...invite, organization_id: organizationId, created_by: userId, created_at: app.clock.now() })
        .execute();
      return reply.code(201).send(await present(invite, organizationId, userId));
    },
  );

  app.get(
    '/orgs/:organizationId/link-invites',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listOrganizationInviteLinks',
        tags: ['invites'],
        summary: 'List the organization’s invite links (admins)',
        params: OrganizationParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListEnvelope(InviteLink), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await requireAdmin(organizationId, callerOf(request).userId, 'Listing invite links');
      const page = app.cursors.request(`invites:${organizationId}`, request.query);
      return paginate(app.cursors, page, {
        rows: () => invitesPage(app.db, page, organizationId),
        count: () => countInvites(organizationId),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        // The caller is an admin: an invite never gives them more.
        toItem: (row) => ({ object: 'invite' as const, id: row.id, role: row.role, redundant: true }),
      });
    },
  );

  app.get(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationInviteLink',
        tags: ['invites'],
        summary: 'Read an invite link; its id is the secret that lets one join',
        params: InviteParams,
        response: { 200: InviteLink, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const invite = await findInvite(organizationId, inviteId);
      if (!invite || !(await inviteLinksEnabled(organizationId))) throw inviteNotFound();
      return present(invite, organizationId, callerOf(request).userId);
    },
  );

  app.patch(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'updateOrganizationInviteById',
        tags: ['invites'],
        summary: 'Change the role an invite link gives (admins)',
        params: InviteParams,
        body: UpdateInviteLinkBody,
        response: { 200: InviteLink, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      await requireAdmin(organizationId, callerOf(request).userId, 'Changing an invite link');
      const updated = await app.db
        .updateTable('organization_invites')
        .set({ role: request.body.role })
        .where('organization_id', '=', organizationId)
        .where('id', '=', inviteId)
        .returning(['id', 'role'])
        .executeTakeFirst();
      if (!updated) throw inviteNotFound();
      return present(updated, organizationId, callerOf(request).userId);
    },
  );

  app.delete(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'deleteOrganizationInviteById',
        tags: ['invites'],
        summary: 'Delete an invite link (admins); it can no longer be used',
        params: InviteParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, inviteId } = request.params;
      await requireAdmin(organizationId, callerOf(request).userId, 'Deleting an invite link');
      const deleted = await app.db
        .deleteFrom('organization_invites')
        .where('organization_id', '=', organizationId)
        .where('id', '=', inviteId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw inviteNotFound();
      return noContent(reply, 205);
    },
  );

  app.post(
    '/orgs/:organizationId/invites/:inviteId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'joinOrganizationWithInvite',
        tags: ['invites'],
        summary: 'Join the organization with an invite link; a member already in it keeps their role',
        params: InviteParams,
        response: { 200: Type.Object({}), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const invite = await findInvite(organizationId, inviteId);
      if (!invite || !(await inviteLinksEnabled(organizationId))) throw inviteNotFound();
      await app.db
        .insertInto('organization_members')
        .values({ organization_id: organizationId, user_id: callerOf(request).userId, role: invite.role, joined_at: app.clock.now() })
        .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
        .execute();
      return {};
    },
  );
};
