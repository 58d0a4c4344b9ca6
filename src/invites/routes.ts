import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
import {
  createInviteLink,
  deleteInviteLink,
  getInviteLink,
  inviteUsers,
  joinWithInvite,
  listInviteLinks,
  updateInviteLink,
} from './actions.js';
import {
  CreateInviteLinkBody,
  InviteLinkSchema,
  InviteParams,
  InviteUsersBody,
  InviteUsersResponse,
  JoinResponse,
  ListInvitesQuery,
  UpdateInviteLinkBody,
} from './schemas.js';

const InviteLink = ref(InviteLinkSchema);

export const inviteRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
    async (request) => inviteUsers(app.context, callerOf(request).userId, request.params.organizationId, request.body),
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
