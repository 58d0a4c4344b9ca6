import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ref, UserSchema } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
import { getAuthenticatedUser, getUser } from './actions.js';
import { UserParams } from './schemas.js';

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/user',
    {
      config: { scope: 'user:read' },
      schema: {
        operationId: 'getAuthenticatedUser',
        tags: ['users'],
        summary: 'Get the profile of the authenticated user',
        response: { 200: ref(UserSchema), ...errorResponses },
      },
    },
    async (request) => getAuthenticatedUser(app.context, callerOf(request)),
  );

  app.get(
    '/users/:userId',
    {
      config: { scope: 'user:read' },
      schema: {
        operationId: 'getUserById',
        tags: ['users'],
        summary: 'Get a user who shares an organization with the caller',
        params: UserParams,
        response: { 200: ref(UserSchema), ...errorResponses },
      },
    },
    async (request) => getUser(app.context, callerOf(request).userId, request.params.userId),
  );
};
