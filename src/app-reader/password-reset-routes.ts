import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { themeOf } from '../reader/http.js';
import { hashPassword, PASSWORD_MAX_LENGTH, passwordProblem } from '../accounts/passwords.js';
import {
  consumeLink,
  createLink,
  findLink,
  findResettableUser,
  LINK_MINUTES,
  linkMail,
} from '../accounts/mailed-links.js';
import { endSessions, savePassword } from '../accounts/queries.js';
import type { SignInLimits } from '../accounts/sign-in-limits.js';
import { newPasswordPage, resetRequestPage } from './account-pages.js';
import { MAX_EMAIL_LENGTH, signInPage } from './home-pages.js';
import { sameOrigin } from './session.js';
import { sendAppAnswer as send } from './shell.js';

const hidden = { hide: true } as const;
const Password = Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 });
/** A link's secret: 32 random bytes in base64url. */
const ResetParams = Type.Object({ secret: Type.String({ minLength: 43, maxLength: 43, pattern: '^[\\w-]+$' }) });
/** Matches no stored hash: an impossible user, for ending nothing. */
const NO_SESSION = Buffer.alloc(32);

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
      const { mailer, db, urls } = context();
      const theme = themeOf(request);
      if (!mailer) return send(reply, resetRequestPage(context(), theme, { mails: false }), 404);
      const email = request.body.email.trim().toLowerCase();
      const now = app.clock.now();
      const wait = limits.mailWaitSeconds(request.ip, email, now.getTime());
      if (wait !== undefined) {
        void reply.header('retry-after', String(wait));
        const error = `Too many links were asked for. Try again in ${Math.ceil(wait / 60)} minutes.`;
        return send(reply, resetRequestPage(context(), theme, { mails: true, error }), 429);
      }
      limits.recordMail(request.ip, email, now.getTime());
      const user = await findResettableUser(db, email);
      if (user) {
        const secret = await createLink(db, user.id, 'password-reset', now);
        const link = urls.app('password-reset', secret);
        mailer.send(linkMail('password-reset', { to: user.email, name: user.displayName, link }), {
          about: 'password reset',
          userId: user.id,
        });
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
      const { db } = context();
      const theme = themeOf(request);
      const { secret } = request.params;
      const reset = await findLink(db, secret, 'password-reset', app.clock.now());
      if (!reset) return send(reply, newPasswordPage(context(), theme, {}));
      const again = (error: string) =>
        send(
          reply,
          newPasswordPage(context(), theme, {
            action: context().urls.app('password-reset', secret),
            email: reset.email,
            error,
          }),
          400,
        );
      const { password, confirm } = request.body;
      if (password !== confirm) return again('The two passwords differ; nothing changed.');
      const problem = passwordProblem(password, reset.email);
      if (problem) return again(`${problem} Nothing changed.`);
      const hash = await hashPassword(password);
      // Used up before the password is saved: of two posts of one link, one sets it.
      if (!(await consumeLink(db, secret, 'password-reset', reset.userId)))
        return send(reply, newPasswordPage(context(), theme, {}));
      await savePassword(db, reset.userId, hash, app.clock.now());
      // Whoever signed in with the old password is signed out.
      const ended = await endSessions(db, reset.userId, { allBut: NO_SESSION, passwordOnly: true });
      for (const tokenId of ended.tokenIds) app.forgetToken(tokenId);
      return send(
        reply,
        signInPage(context(), undefined, undefined, theme, reset.email, 'Your new password is set: sign in with it.'),
      );
    },
  );
};
