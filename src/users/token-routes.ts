import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, MemberParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { createOwnToken, getOwnToken, issueMemberToken, listOwnTokens, revokeOwnToken } from './token-actions.js';
import {
  ApiTokenParams,
  CreateApiTokenBody,
  IssueMemberTokenBody,
  ISSUED_MAX_EXPIRY_HOURS,
  ListApiTokensQuery,
  MAX_LIVE_TOKENS,
} from './token-schemas.js';
import { ApiTokenSchema, CreatedApiTokenSchema } from './api-token-schemas.js';

/**
 * API tokens over HTTP, an extension of the GitBook API (which has none): a
 * user manages their own tokens, and an organization's admin may issue a
 * member their first one.
 */
export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/user/tokens',
    {
      config: { scope: 'user:read' },
      schema: {
        operationId: 'listAPITokensForAuthenticatedUser',
        tags: ['tokens'],
        summary: 'List the API tokens of the authenticated user',
        description:
          'Any signed-in user, for their own tokens only (scope `user:read`). Every token, live, expired or revoked, ' +
          'newest first; never a secret. `current` marks the token making the request.',
        querystring: ListApiTokensQuery,
        response: { 200: ListEnvelope(ApiTokenSchema), ...errorResponses },
      },
    },
    async (request) => listOwnTokens(app.context, callerOf(request), request.query),
  );

  app.post(
    '/user/tokens',
    {
      config: { scope: 'user:write', ownTokensOnly: true },
      schema: {
        operationId: 'createAPITokenForAuthenticatedUser',
        tags: ['tokens'],
        summary: 'Create an API token for the authenticated user',
        description:
          'Any signed-in user, for themselves (scope `user:write`). The answer holds the secret (`token`), shown ' +
          'only this once; the service keeps only its hash. The new token’s scopes must be ones the calling token ' +
          'has: a scoped token cannot make a token with other scopes or with full rights (403). At most ' +
          `${MAX_LIVE_TOKENS} live tokens per user (409). A token an admin issued cannot make tokens (403).`,
        body: CreateApiTokenBody,
        response: { 201: CreatedApiTokenSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await createOwnToken(app.context, callerOf(request), request.body);
      return reply
        .code(201)
        .header('location', app.urls.api('user', 'tokens', created.id))
        .send(created);
    },
  );

  app.get(
    '/user/tokens/:tokenId',
    {
      config: { scope: 'user:read' },
      schema: {
        operationId: 'getAPITokenForAuthenticatedUser',
        tags: ['tokens'],
        summary: 'Get one API token of the authenticated user',
        description:
          'Any signed-in user, for their own tokens only (scope `user:read`); another user’s token is a 404, as an ' +
          'unknown id is. Never the secret.',
        params: ApiTokenParams,
        response: { 200: ApiTokenSchema, ...errorResponses },
      },
    },
    async (request) => getOwnToken(app.context, callerOf(request), request.params.tokenId),
  );

  app.delete(
    '/user/tokens/:tokenId',
    {
      config: { scope: 'user:write' },
      schema: {
        operationId: 'revokeAPITokenForAuthenticatedUser',
        tags: ['tokens'],
        summary: 'Revoke an API token of the authenticated user',
        description:
          'Any signed-in user, for their own tokens only (scope `user:write`); another user’s token is a 404. A ' +
          'token may revoke itself, and any token whose scopes it has, not one with more rights (403). The token ' +
          'stops working at once on the instance that revoked it, and within AUTH_CACHE_TTL_MS on others. ' +
          'Revoking a revoked token changes nothing and answers 204 too.',
        params: ApiTokenParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await revokeOwnToken(app.context, callerOf(request), request.params.tokenId);
      // Authentication caches tokens for a moment: this instance forgets it now.
      app.forgetToken(request.params.tokenId);
      return noContent(reply, 204);
    },
  );

  app.post(
    '/orgs/:organizationId/members/:userId/tokens',
    {
      config: { scope: 'organization:members:write', ownTokensOnly: true },
      schema: {
        operationId: 'issueAPITokenToOrganizationMember',
        tags: ['tokens'],
        summary: 'Issue a first API token to a member (admins)',
        description:
          'Admins of the organization only (scope `organization:members:write`), for a member who has no live ' +
          'token (409 otherwise) and belongs to no other organization (403). The secret is in the answer, shown ' +
          'only this once; the issue is recorded as an organization event. Scopes: those of the calling token ' +
          'unless narrower ones are named, never more. The token works only in this organization (any other ' +
          'organization is a 404 to it, as to a stranger), cannot make tokens or organizations (403), is revoked ' +
          'when its user joins another organization, and expires within ' +
          `${ISSUED_MAX_EXPIRY_HOURS} hours (the default). A token an admin issued cannot issue one (403).`,
        params: MemberParams,
        body: IssueMemberTokenBody,
        response: { 201: CreatedApiTokenSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, userId } = request.params;
      const issued = await issueMemberToken(
        app.context,
        callerOf(request),
        organizationId,
        userId,
        request.body,
        request.log,
      );
      return reply.code(201).send(issued);
    },
  );
};
