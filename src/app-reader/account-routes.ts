import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../access/auth.js';
import { ApiError } from '../core/errors.js';
import type { WorkerCounters } from '../core/processes/rate-limit-counters.js';
import { themeOf } from '../reader/http.js';
import { hashPassword, PASSWORD_MAX_LENGTH, passwordMatches, passwordProblem } from '../accounts/passwords.js';
import { endSessions, findPasswordHash, findSignInAccount, listSessions, savePassword } from '../accounts/queries.js';
import { SignInLimits } from '../accounts/sign-in-limits.js';
import { accountAnswer, maySetPassword } from './account-answer.js';
import { emailProofRoutes } from './email-proof-routes.js';
import { passwordResetRoutes } from './password-reset-routes.js';
import { MAX_EMAIL_LENGTH, signInPage } from './home-pages.js';
import {
  appHome,
  appPathOrHome,
  endSession,
  requestSessionHash,
  sameOrigin,
  sessionCaller,
  startPasswordSession,
} from './session.js';
import { sendAppAnswer as send } from './shell.js';

export interface AccountRoutesOptions {
  /** The counters the processes of one port share (PROCESSES), for the sign-in limits. */
  counters?: WorkerCounters;
}

const hidden = { hide: true } as const;
const Password = Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 });
const SessionId = Type.String({ minLength: 1, maxLength: 64 });

/**
 * People signing in with their e-mail address and password, and their
 * account: the password, and the sessions they may list and end. Registered
 * inside the app reader, whose form parser and cookies they use.
 */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, options) => {
  const limits = new SignInLimits(options.counters);
  const context = () => app.context;
  await app.register(passwordResetRoutes, { limits });
  await app.register(emailProofRoutes, { limits });

  app.post(
    '/app/sign-in/password',
    {
      schema: {
        ...hidden,
        body: Type.Object({
          email: Type.String({ maxLength: MAX_EMAIL_LENGTH }),
          password: Password,
          next: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) => {
      if (!sameOrigin(context(), request)) throw new ApiError(403, 'Sign in from this service’s own page');
      const { email, password, next } = request.body;
      const address = email.trim().toLowerCase();
      const theme = themeOf(request);
      const again = (status: number, message: string) =>
        send(reply, signInPage(context(), next, message, theme, address), status);
      const now = app.clock.now().getTime();
      const wait = limits.waitSeconds(request.ip, address, now);
      if (wait !== undefined) {
        void reply.header('retry-after', String(wait));
        return again(429, `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minutes.`);
      }
      const account = await findSignInAccount(context().db, address);
      // Checked against a decoy hash when there is no password: an unknown address takes as long as a wrong password.
      if (!(await passwordMatches(account?.passwordHash ?? undefined, password)) || !account) {
        limits.recordFailure(request.ip, address, now);
        return again(401, 'That e-mail address and password do not match.');
      }
      // Said only to whoever knows the password: an organization of theirs signs its members in through its identity provider.
      if (account.ssoOnly) {
        return again(403, 'Your organization signs you in through its identity provider: use its single sign-on.');
      }
      await startPasswordSession(context(), request, reply, account.userId);
      return reply.redirect(appPathOrHome(context(), next), 303);
    },
  );

  app.get('/app/account', { schema: hidden }, async (request, reply) => {
    const caller = await sessionCaller(app, request, reply, 'user:read');
    if (!caller) return reply.redirect(`${appHome(context())}?next=${encodeURIComponent(request.url)}`, 302);
    return send(reply, await accountAnswer(context(), request, caller, {}));
  });

  app.post(
    '/app/account/password',
    {
      schema: {
        ...hidden,
        body: Type.Object({ current: Type.Optional(Password), password: Password, confirm: Password }),
      },
    },
    async (request, reply) => {
      const caller = await signedInToChange(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const refuse = async (status: number, error: string) =>
        send(reply, await accountAnswer(context(), request, caller, { error }), status);
      if (!maySetPassword(caller)) return refuse(403, 'This session cannot set your password.');
      const { current, password, confirm } = request.body;
      const stored = await findPasswordHash(context().db, caller.userId);
      if (stored !== undefined && !(await passwordMatches(stored, current ?? ''))) {
        return refuse(400, 'The current password is not right; nothing changed.');
      }
      if (password !== confirm) return refuse(400, 'The two new passwords differ; nothing changed.');
      const problem = passwordProblem(password, caller.email);
      if (problem) return refuse(400, `${problem} Nothing changed.`);
      await savePassword(context().db, caller.userId, await hashPassword(password), app.clock.now());
      // Whoever had the old password loses what it opened; this browser stays signed in.
      const ended = await endSessions(context().db, caller.userId, {
        allBut: requestSessionHash(request),
        passwordOnly: true,
      });
      forget(ended.tokenIds);
      const notice =
        stored === undefined
          ? 'Your password is set: sign in with your e-mail address and it.'
          : `Your password is changed. ${sessionsEnded(ended.ended)}`;
      return send(reply, await accountAnswer(context(), request, caller, { notice }));
    },
  );

  app.post(
    '/app/account/sessions/end',
    { schema: { ...hidden, body: Type.Object({ id: SessionId }) } },
    async (request, reply) => {
      const caller = await signedInToChange(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const sessions = await listSessions(context().db, caller.userId, requestSessionHash(request), app.clock.now());
      const session = sessions.find((candidate) => candidate.id === request.body.id);
      if (!session) {
        return send(
          reply,
          await accountAnswer(context(), request, caller, { error: 'There is no such session of yours.' }),
          404,
        );
      }
      if (session.current) {
        await endSession(context(), request, reply);
        if (session.signedInWith === 'password') app.forgetToken(caller.tokenId);
        return reply.redirect(appHome(context()), 303);
      }
      const ended = await endSessions(context().db, caller.userId, { id: session.id });
      forget(ended.tokenIds);
      return send(reply, await accountAnswer(context(), request, caller, { notice: 'The session is ended.' }));
    },
  );

  app.post('/app/account/sessions/end-others', { schema: hidden }, async (request, reply) => {
    const caller = await signedInToChange(request, reply);
    if (!caller) return reply.redirect(appHome(context()), 303);
    const ended = await endSessions(context().db, caller.userId, { allBut: requestSessionHash(request) });
    forget(ended.tokenIds);
    return send(reply, await accountAnswer(context(), request, caller, { notice: sessionsEnded(ended.ended) }));
  });

  /** The caller of a form that changes the account: posted from this service's pages, by a session that may write. */
  async function signedInToChange(request: FastifyRequest, reply: FastifyReply): Promise<Caller | undefined> {
    if (!sameOrigin(context(), request)) throw new ApiError(403, 'Change your account from this service’s own page');
    return sessionCaller(app, request, reply, 'user:write');
  }

  /** Ended password sessions' tokens, forgotten by every process's cache at once. */
  function forget(tokenIds: string[]): void {
    for (const tokenId of tokenIds) app.forgetToken(tokenId);
  }
};

function sessionsEnded(count: number): string {
  return count === 0
    ? 'No other session was open.'
    : count === 1
      ? '1 other session is ended.'
      : `${count} other sessions are ended.`;
}
