import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ref, UserSchema } from '../core/schemas.js';
import { callerOf, type Caller } from '../access/auth.js';
import { sendJsonBytes } from '../core/replies.js';
import { getAuthenticatedUser, getUser } from './actions.js';
import { UserParams } from './schemas.js';

/**
 * The caller's own profile as sent, made once for each caller that
 * authentication keeps (a few seconds, or until a change of the profile drops
 * it): it shows nothing else. Its bytes are sent again, their ETag remembered.
 */
const ownProfiles = new WeakMap<Caller, Buffer>();

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/user',
    {
      config: { scope: 'user:read' },
      schema: {
        operationId: 'getAuthenticatedUser',
        tags: ['users'],
        summary: 'Get the profile of the authenticated user',
        description:
          'The user the request’s token belongs to, with their e-mail. Any valid token with `user:read` may ' +
          'call it; it reads nothing beyond what authentication already read.',
        response: { 200: ref(UserSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      let json = ownProfiles.get(caller);
      if (json === undefined) {
        json = Buffer.from(reply.serialize(await getAuthenticatedUser(app.context, caller)) as string);
        ownProfiles.set(caller, json);
      }
      return sendJsonBytes(reply, json);
    },
  );

  app.get(
    '/users/:userId',
    {
      config: { scope: 'user:read' },
      schema: {
        operationId: 'getUserById',
        tags: ['users'],
        summary: 'Get a user who shares an organization with the caller',
        description:
          'Yourself, or a user who shares an organization with you, with their e-mail; any other user answers ' +
          '404, as an unknown id does.',
        params: UserParams,
        response: { 200: ref(UserSchema), ...errorResponses },
      },
    },
    async (request) => getUser(app.context, callerOf(request).userId, request.params.userId),
  );
};
