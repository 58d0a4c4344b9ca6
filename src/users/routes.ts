import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../core/errors.js';
import { errorResponses, IdParam, ref, UserSchema } from '../core/schemas.js';
import { everyEmailShown, presentUser } from '../model/people/users.js';
import { findUserVisibleTo } from '../model/people/user-queries.js';
import { callerOf } from '../model/access/auth.js';

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
    async (request) => presentUser({ ...callerOf(request), id: callerOf(request).userId }, app.urls, everyEmailShown),
  );

  app.get(
    '/users/:userId',
    {
      config: { scope: 'user:read' },
      schema: {
        operationId: 'getUserById',
        tags: ['users'],
        summary: 'Get a user who shares an organization with the caller',
        params: Type.Object({ userId: IdParam }),
        response: { 200: ref(UserSchema), ...errorResponses },
      },
    },
    async (request) => {
      const user = await findUserVisibleTo(app.db, request.params.userId, callerOf(request).userId);
      if (!user) throw new NotFoundError('No user with this id is visible to you');
      // Found only when the two share an organization, which is what shows an e-mail.
      return presentUser({ id: user.id, email: user.email, displayName: user.display_name, photoUrl: user.photo_url }, app.urls, everyEmailShown);
    },
  );
};
