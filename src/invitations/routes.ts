import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams, ref } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  acceptInvitation,
  inviteUsers,
  joinOrganization,
  listInvitations,
  revokeInvitation,
  viewInvitation,
} from './actions.js';
import {
  AcceptedInvitationSchema,
  AcceptInvitationBody,
  EmailInvitationSchema,
  INVITATION_DAYS,
  InvitationParams,
  InvitationSecretQuery,
  InvitationViewSchema,
  InviteUsersBody,
  InviteUsersResponse,
  ListEmailInvitationsQuery,
} from './schemas.js';

/** Invitations by e-mail as an organization's admins manage them, and joining (tokens required). */
export const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/invites',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'inviteUsersToOrganization',
        tags: ['invites'],
        summary: 'Invite people to the organization by e-mail (admins); they join when they accept',
        description:
          'Admins only. Each address gets a pending invitation with `role` (default `read`; null: guest) unless ' +
          'its entry names its own, valid 14 days; inviting an address again renews it (a new link; the old one ' +
          'stops working). No user and no membership is made: the address’s owner accepts with the link ' +
          '(acceptOrganizationEmailInvite), so `users` is empty and `invited` counts the invitations. People ' +
          'already in the organization are not counted. With SMTP configured (SMTP_URL) the links are mailed; ' +
          'a failed send is logged, the invitation stays, and inviting again sends anew. Without it, the answer ' +
          'carries them (`acceptLinks`, an extension), only this once, for the admin to hand over.',
        params: OrganizationParams,
        body: InviteUsersBody,
        response: { 200: InviteUsersResponse, ...errorResponses },
      },
    },
    async (request) => inviteUsers(app.context, callerOf(request), request.params.organizationId, request.body),
  );

  app.get(
    '/orgs/:organizationId/email-invites',
    {
      config: { scope: 'organization:members:read' },
      schema: {
        operationId: 'listOrganizationEmailInvites',
        tags: ['invites'],
        summary: 'List the organization’s pending invitations by e-mail (admins); an extension',
        description:
          'An extension of the GitBook API, which lists no e-mail invitations. Admins only, newest first: each ' +
          'invitation made by inviteUsersToOrganization that is neither accepted nor revoked, expired ones ' +
          'included (inviting the address again renews one). Never a secret.',
        params: OrganizationParams,
        querystring: ListEmailInvitationsQuery,
        response: { 200: ListEnvelope(ref(EmailInvitationSchema)), ...errorResponses },
      },
    },
    async (request) =>
      listInvitations(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.delete(
    '/orgs/:organizationId/email-invites/:invitationId',
    {
      config: { scope: 'organization:members:write' },
      schema: {
        operationId: 'revokeOrganizationEmailInvite',
        tags: ['invites'],
        summary: 'Revoke a pending invitation by e-mail (admins); an extension',
        description:
          'An extension of the GitBook API. Admins only; its accept link opens nothing afterwards (404). ' +
          'Someone who already accepted stays a member.',
        params: InvitationParams,
        response: { 205: Type.Null({ description: 'Revoked' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, invitationId } = request.params;
      await revokeInvitation(app.context, callerOf(request).userId, organizationId, invitationId);
      return noContent(reply, 205);
    },
  );

  app.post(
    '/orgs/:organizationId/join',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'joinOrganization',
        tags: ['organizations'],
        summary: 'Join an organization by your verified e-mail address',
        description:
          'Any user whose e-mail address is verified and at one of the organization’s `emailDomains` that an ' +
          'admin of the organization has proven with a verified address of their own, or who ' +
          'holds a pending invitation to it at that address, joins: with the invitation’s role, else the ' +
          'organization’s `defaultRole`, else `read`. A member already keeps their role. An address not ' +
          'verified, or at another domain without an invitation, is a 400; an unknown organization a 404.',
        params: OrganizationParams,
        response: { 204: Type.Null({ description: 'Joined' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await joinOrganization(app.context, callerOf(request).userId, request.params.organizationId);
      return noContent(reply, 204);
    },
  );
};

/**
 * The accept link of an invitation by e-mail and its acceptance: anyone who
 * holds the link may call them, a token only changes whose acceptance it is.
 * Registered where authentication is optional (authenticateIfPresent).
 */
export const acceptInvitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/email-invites/:invitationId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationEmailInvite',
        tags: ['invites'],
        summary: 'Show an invitation by e-mail to the holder of its accept link; an extension',
        description:
          'An extension of the GitBook API: the accept link an invitation e-mail carries. No token needed; ' +
          'the `secret` of the link is (a token, if sent, must be valid). Shows the organization, the role and whether an account has the ' +
          'address; changes nothing. An unknown, expired, accepted, renewed or revoked invitation is a 404.',
        params: InvitationParams,
        querystring: InvitationSecretQuery,
        response: { 200: InvitationViewSchema, ...errorResponses },
        security: [{}, { bearer: [] }],
      },
    },
    async (request) => {
      const { organizationId, invitationId } = request.params;
      return viewInvitation(app.context, organizationId, invitationId, request.query.secret);
    },
  );

  app.post(
    '/orgs/:organizationId/email-invites/:invitationId/accept',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'acceptOrganizationEmailInvite',
        tags: ['invites'],
        summary: 'Accept an invitation by e-mail with the secret sent to the address; an extension',
        description:
          'An extension of the GitBook API. A `secret` sent by mail proves control of the invited mailbox; one the ' +
          'inviting admin was shown (no SMTP) proves only their choice. When no account has the address, no ' +
          'token is needed: the account is made (its address verified when the secret was mailed), joins with the ' +
          'invitation’s role, and the answer holds its first token, its own (shown only this once). When an ' +
          'account has the address, the request must carry that account’s own token: ' +
          'without one it is a 401, with another account’s a 403, and the invitation stays open. An invitation ' +
          `is accepted once, within ${INVITATION_DAYS} days; after that, or once revoked or renewed, a 404.`,
        params: InvitationParams,
        body: AcceptInvitationBody,
        response: { 200: AcceptedInvitationSchema, ...errorResponses },
        security: [{}, { bearer: [] }],
      },
    },
    async (request) => {
      const { organizationId, invitationId } = request.params;
      return acceptInvitation(app.context, request.caller, organizationId, invitationId, request.body);
    },
  );
};
