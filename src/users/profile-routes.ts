import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ref, UserSchema } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { createNotificationsToken, updateUser } from './profile-actions.js';
import { TemporaryTokenSchema, UpdateUserBody } from './profile-schemas.js';
import { UserParams } from './schemas.js';

/** The caller's own profile and notifications token: things a user does for themselves only. */
export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.patch(
    '/users/:userId',
    {
      config: { scope: 'user:write', ownTokensOnly: true },
      schema: {
        operationId: 'updateUserById',
        tags: ['users'],
        summary: 'Update your own name or photo',
        description:
          'A user changes their own `displayName` (1 to 64 characters) or `photoURL` (an http or https URL), ' +
          'scope `user:write`. Another user is never changed: one who shares an organization with the caller is ' +
          'a 403, any other a 404. A token an admin issued cannot change its user’s profile (403).',
        params: UserParams,
        body: UpdateUserBody,
        response: { 200: ref(UserSchema), ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const user = await updateUser(app.context, caller, request.params.userId, request.body);
      // The calling token's cached profile would show the old name for a few seconds.
      app.forgetToken(caller.tokenId);
      return user;
    },
  );

  app.post(
    '/user/notifications/token',
    {
      config: { scope: 'user:write', ownTokensOnly: true },
      schema: {
        operationId: 'createUserNotificationsToken',
        tags: ['users'],
        summary: 'Create a short-lived JWT for your own notifications',
        description:
          'An HS256 JWT, valid for an hour, whose subject is the caller and whose audience is the user ' +
          'notifications (`quire:user-notifications`), signed with a key derived from the service secret for ' +
          'this purpose alone. This service runs no notification feed of its own, and its API takes only API ' +
          'tokens, so here the JWT opens nothing: it is for a notifications client that verifies it with the ' +
          'same derived key, and it names no one but the caller. Scope `user:write`; a token an admin issued ' +
          'cannot make one (403).',
        response: { 200: TemporaryTokenSchema, ...errorResponses },
      },
    },
    async (request) => createNotificationsToken(app.context, callerOf(request)),
  );
};
