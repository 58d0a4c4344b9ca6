import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  createInviteLink,
  deleteInviteLink,
  getInviteLink,
  joinWithInvite,
  listInviteLinks,
  updateInviteLink,
} from './actions.js';
import {
  CreateInviteLinkBody,
  InviteLinkSchema,
  InviteParams,
  JoinResponse,
  ListInvitesQuery,
  UpdateInviteLinkBody,
} from './schemas.js';

const InviteLink = ref(InviteLinkSchema);

export const inviteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/link-invites',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'createOrganizationInvite',
        tags: ['invites'],
        summary: 'Create an invite link to the organization (admins, while invite links are on)',
        description:
          'Admins only, while the organization’s `inviteLinks` is on (else 403). Whoever holds the invite’s ' +
          'id joins with its `role`: share it like a password. Invites to one space or collection are refused ' +
          '(400): give roles there with the permissions operations.',
        params: OrganizationParams,
        body: CreateInviteLinkBody,
        response: { 201: InviteLink, ...errorResponses },
      },
    },
    async (request, reply) => {
      const invite = await createInviteLink(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.body,
      );
      return reply.code(201).send(invite);
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
        description: 'Admins only, newest first, each with the role it gives.',
        params: OrganizationParams,
        querystring: ListInvitesQuery,
        response: { 200: ListEnvelope(InviteLink), ...errorResponses },
      },
    },
    async (request) =>
      listInviteLinks(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.get(
    '/orgs/:organizationId/link-invites/:inviteId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationInviteLink',
        tags: ['invites'],
        summary: 'Read an invite link; its id is the secret that lets one join',
        description:
          'Anyone who holds the id may read it, while the organization’s invite links are on; otherwise, or ' +
          'for an unknown id, 404. `redundant` tells whether the caller already has what it gives.',
        params: InviteParams,
        response: { 200: InviteLink, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      return getInviteLink(app.context, callerOf(request).userId, organizationId, inviteId);
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
        description:
          'Admins only; the link keeps its id, and who joins with it from now on gets the new role (null: ' + 'guest).',
        params: InviteParams,
        body: UpdateInviteLinkBody,
        response: { 200: InviteLink, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      return updateInviteLink(app.context, callerOf(request).userId, organizationId, inviteId, request.body);
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
        description: 'Admins only. Members who joined with it stay.',
        params: InviteParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, inviteId } = request.params;
      await deleteInviteLink(app.context, callerOf(request).userId, organizationId, inviteId);
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
        description:
          'Any authenticated user who holds the invite’s id, while the organization’s invite links are on ' +
          '(else 404): they become a member with the invite’s role. Someone already a member keeps their ' +
          'role.',
        params: InviteParams,
        response: { 200: JoinResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      return joinWithInvite(app.context, callerOf(request).userId, organizationId, inviteId);
    },
  );
};
