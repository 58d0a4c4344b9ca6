import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../access/auth.js';
import { ApiError } from '../core/errors.js';
import type { WorkerCounters } from '../core/processes/rate-limit-counters.js';
import { themeOf } from '../reader/http.js';
import { changePassword, checkPasswordSignIn, unlinkIdentity } from '../accounts/actions.js';
import { PASSWORD_MAX_LENGTH } from '../accounts/passwords.js';
import { endSessions, listSessions } from '../accounts/queries.js';
import { SignInLimits } from '../accounts/sign-in-limits.js';
import type { OidcSignIn } from '../accounts/oidc.js';
import { accountAnswer } from './account-answer.js';
import { emailProofRoutes } from './email-proof-routes.js';
import { oidcRoutes, oidcSignInOf } from './oidc-routes.js';
import { passwordResetRoutes } from './password-reset-routes.js';
import { MAX_EMAIL_LENGTH, signInPage } from './home-pages.js';
import {
  appHome,
  appPathOrHome,
  endSession,
  formCaller,
  requestSessionHash,
  sameOrigin,
  sessionCaller,
  startPersonSession,
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
 * People signing in with their e-mail address and password (or through the
 * operator's identity provider, oidc-routes.ts), and their
 * account: the password, and the sessions they may list and end. Registered
 * inside the app reader, whose form parser and cookies they use.
 */
export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, options) => {
  const limits = new SignInLimits(options.counters);
  const context = () => app.context;
  await app.register(passwordResetRoutes, { limits });
  await app.register(emailProofRoutes, { limits });
  // One client of the provider, whose metadata is read once, for signing in and out.
  const oidc = oidcSignInOf(app.context);
  if (oidc) await app.register(oidcRoutes, { signIn: oidc });

  app.post('/app/sign-out', { schema: hidden }, async (request, reply) => {
    if (!sameOrigin(context(), request)) throw new ApiError(403, 'Sign out from this service’s own page');
    const ended = await endSession(context(), request, reply);
    const home = appHome(context());
    const atProvider =
      oidc && ended?.signedInWith === 'oidc' ? await providerSignOut(request, oidc, home, ended.idToken) : undefined;
    return reply.redirect(atProvider ?? home, 303);
  });

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
      const checked = await checkPasswordSignIn(context(), limits, { from: request.ip, email: address, password });
      if (!checked.ok) {
        if (checked.retryAfter !== undefined) void reply.header('retry-after', String(checked.retryAfter));
        return send(reply, signInPage(context(), next, checked.message, themeOf(request), address), checked.status);
      }
      await startPersonSession(context(), request, reply, checked.userId, 'password');
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
      const changed = await changePassword(context(), caller, requestSessionHash(request), request.body);
      if (!changed.ok) {
        return send(reply, await accountAnswer(context(), request, caller, { error: changed.message }), changed.status);
      }
      forget(changed.tokenIds);
      const notice = changed.first
        ? 'Your password is set: sign in with your e-mail address and it.'
        : `Your password is changed. ${sessionsEnded(changed.ended)}`;
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
        if (session.signedInWith !== 'token') app.forgetToken(caller.tokenId);
        return reply.redirect(appHome(context()), 303);
      }
      const ended = await endSessions(context().db, caller.userId, { id: session.id });
      forget(ended.tokenIds);
      return send(reply, await accountAnswer(context(), request, caller, { notice: 'The session is ended.' }));
    },
  );

  app.post(
    '/app/account/identities/unlink',
    {
      schema: {
        ...hidden,
        body: Type.Object({
          issuer: Type.String({ minLength: 1, maxLength: 2048 }),
          subject: Type.String({ minLength: 1, maxLength: 255 }),
        }),
      },
    },
    async (request, reply) => {
      const caller = await signedInToChange(request, reply);
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { issuer, subject } = request.body;
      const answer = (said: { notice?: string; error?: string }, status = 200) =>
        accountAnswer(context(), request, caller, said).then((page) => send(reply, page, status));
      const unlinked = await unlinkIdentity(context(), caller.userId, issuer, subject);
      if (unlinked === 'unknown') return answer({ error: 'No such identity is linked to your account.' }, 404);
      if (unlinked === 'last-way-in') {
        return answer({ error: 'You sign in through this provider only: set a password before you unlink it.' }, 409);
      }
      return answer({ notice: 'The identity is unlinked.' });
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
  function signedInToChange(request: FastifyRequest, reply: FastifyReply): Promise<Caller | undefined> {
    return formCaller(app, request, reply, 'user:write', 'Change your account from this service’s own page');
  }

  /** Ended person sessions' tokens, forgotten by every process's cache at once. */
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

/** Where the provider ends the person's session too (OIDC_END_SESSION), or undefined: a provider that cannot be read is logged, and the sign-out here stands. */
async function providerSignOut(
  request: FastifyRequest,
  oidc: OidcSignIn,
  afterwards: string,
  idTokenHint: string | undefined,
) {
  try {
    return await oidc.endSessionUrl(afterwards, idTokenHint);
  } catch (error) {
    request.log.warn({ err: error }, 'the identity provider could not be reached to end the session there');
    return undefined;
  }
}
