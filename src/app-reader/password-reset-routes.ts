import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { themeOf } from '../reader/http.js';
import { askPasswordReset, resetPassword } from '../accounts/actions.js';
import { PASSWORD_MAX_LENGTH } from '../accounts/passwords.js';
import { findLink, LINK_MINUTES } from '../accounts/mailed-links.js';
import type { SignInLimits } from '../accounts/sign-in-limits.js';
import { newPasswordPage, resetRequestPage } from './account-pages.js';
import { MAX_EMAIL_LENGTH, signInPage } from './home-pages.js';
import { sameOrigin } from './session.js';
import { sendAppAnswer as send } from './shell.js';

const hidden = { hide: true } as const;
const Password = Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 });
/** A link's secret: 32 random bytes in base64url. */
const ResetParams = Type.Object({ secret: Type.String({ minLength: 43, maxLength: 43, pattern: '^[\\w-]+$' }) });

/**
 * A forgotten password: a link mailed to the account's proven address sets a
 * new one. The answer to an ask is the same whether the address has an
 * account or not; asks are counted per address and per account.
 */
export const passwordResetRoutes: FastifyPluginAsyncTypebox<{ limits: SignInLimits }> = async (app, { limits }) => {
  const context = () => app.context;

  app.get('/app/password-reset', { schema: hidden }, async (request, reply) =>
    send(reply, resetRequestPage(context(), themeOf(request), { mails: context().mailer !== undefined })),
  );

  app.post(
    '/app/password-reset',
    { schema: { ...hidden, body: Type.Object({ email: Type.String({ minLength: 3, maxLength: MAX_EMAIL_LENGTH }) }) } },
    async (request, reply) => {
      if (!sameOrigin(context(), request)) throw new ApiError(403, 'Ask from this service’s own page');
      const theme = themeOf(request);
      const email = request.body.email.trim().toLowerCase();
      const asked = await askPasswordReset(context(), limits, { from: request.ip, email });
      if (!asked.ok) {
        if (asked.retryAfter !== undefined) void reply.header('retry-after', String(asked.retryAfter));
        const mails = context().mailer !== undefined;
        return send(reply, resetRequestPage(context(), theme, { mails, error: asked.message }), asked.status);
      }
      const notice = `If an account has the address ${email}, a link to set a new password is on its way. It works once, for ${LINK_MINUTES} minutes.`;
      return send(reply, resetRequestPage(context(), theme, { mails: true, notice }));
    },
  );

  app.get('/app/password-reset/:secret', { schema: { ...hidden, params: ResetParams } }, async (request, reply) => {
    const reset = await findLink(context().db, request.params.secret, 'password-reset', app.clock.now());
    return send(
      reply,
      newPasswordPage(
        context(),
        themeOf(request),
        reset ? { action: context().urls.app('password-reset', request.params.secret), email: reset.email } : {},
      ),
    );
  });

  app.post(
    '/app/password-reset/:secret',
    {
      schema: { ...hidden, params: ResetParams, body: Type.Object({ password: Password, confirm: Password }) },
    },
    async (request, reply) => {
      if (!sameOrigin(context(), request)) throw new ApiError(403, 'Set it from this service’s own page');
      const theme = themeOf(request);
      const { secret } = request.params;
      const reset = await resetPassword(context(), secret, request.body);
      if (!reset.ok && reset.status === 404) return send(reply, newPasswordPage(context(), theme, {}));
      if (!reset.ok) {
        const link = await findLink(context().db, secret, 'password-reset', app.clock.now());
        const action = context().urls.app('password-reset', secret);
        return send(
          reply,
          newPasswordPage(context(), theme, { action, email: link?.email, error: reset.message }),
          400,
        );
      }
      for (const tokenId of reset.tokenIds) app.forgetToken(tokenId);
      return send(
        reply,
        signInPage(context(), undefined, undefined, theme, reset.email, 'Your new password is set: sign in with it.'),
      );
    },
  );
};
