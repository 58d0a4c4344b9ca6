import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { themeOf } from '../reader/http.js';
import { checkIdentitySignIn } from '../accounts/identity-sign-in.js';
import { ForeignAnswer, OidcSignIn, oidcSettings, PENDING_SIGN_IN_SECONDS, ProviderRefusal } from '../accounts/oidc.js';
import type { Context } from '../context.js';
import { signInPage } from './home-pages.js';
import { appHome, appPath, appPathOrHome, startPersonSession } from './session.js';
import { sendAppAnswer as send } from './shell.js';

const hidden = { hide: true } as const;

const oidcCallbackUrl = (context: Context) => `${appHome(context)}/sign-in/oidc/callback`;

/** The operator's OpenID Connect provider (OIDC_*), for the sign-in routes and the sign-out; undefined where none is set. */
export function oidcSignInOf(context: Context): OidcSignIn | undefined {
  const settings = oidcSettings(context.config);
  return settings && new OidcSignIn(settings, oidcCallbackUrl(context), context.keyring);
}

/** The cookie that holds a sign-in in progress, sealed, while the person is at the provider. */
const PENDING_COOKIE = 'quire_oidc';
const NOT_STARTED_HERE =
  'This sign-in was not started in this browser, or took longer than ten minutes: sign in again.';

/**
 * People signing in through the operator's OpenID Connect provider (OIDC_*):
 * the sign-in page sends them there, and the provider sends them back to the
 * callback with a code, which opens a session of the account the identity
 * is linked to. What the round trip must match (state, nonce, PKCE verifier)
 * waits in a sealed cookie of its own, so that any instance finishes it and
 * no other site can start one for the person (login CSRF).
 */
export const oidcRoutes: FastifyPluginAsyncTypebox<{ signIn: OidcSignIn }> = async (app, { signIn }) => {
  const context = () => app.context;
  const callbackUrl = oidcCallbackUrl(app.context);
  const cookieOptions = {
    path: `${appPath(app.context)}/sign-in/oidc`,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: app.context.config.publicUrl.startsWith('https:'),
  };

  app.get(
    '/app/sign-in/oidc',
    { schema: { ...hidden, querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 2048 })) }) } },
    async (request, reply) => {
      const next = appPathOrHome(context(), request.query.next);
      let started;
      try {
        started = await signIn.start(next, app.clock.now());
      } catch (error) {
        request.log.warn({ err: error }, 'the identity provider could not be reached');
        return refused(request, reply, next, 502, providerUnreachable());
      }
      void reply.setCookie(PENDING_COOKIE, started.sealed, { ...cookieOptions, maxAge: PENDING_SIGN_IN_SECONDS });
      return reply.redirect(started.url, 302);
    },
  );

  app.get(
    '/app/sign-in/oidc/callback',
    {
      schema: {
        ...hidden,
        // The provider's answer: a code and the state, or an error; openid-client reads them from the URL.
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String({ maxLength: 4096 })),
            state: Type.Optional(Type.String({ maxLength: 1024 })),
            error: Type.Optional(Type.String({ maxLength: 256 })),
            error_description: Type.Optional(Type.String({ maxLength: 1024 })),
          },
          { additionalProperties: true },
        ),
      },
    },
    async (request, reply) => {
      void reply.clearCookie(PENDING_COOKIE, cookieOptions);
      const pending = signIn.pending(request.cookies[PENDING_COOKIE], app.clock.now());
      if (!pending) return refused(request, reply, undefined, 400, NOT_STARTED_HERE);
      // The URL the provider sent the person to, from the configured address and never the Host header.
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      let finished;
      try {
        finished = await signIn.finish(new URL(`${callbackUrl}${query}`), pending);
      } catch (error) {
        if (error instanceof ForeignAnswer) return refused(request, reply, pending.next, 400, NOT_STARTED_HERE);
        if (error instanceof ProviderRefusal) {
          return refused(
            request,
            reply,
            pending.next,
            401,
            `Your identity provider did not sign you in: ${error.message}`,
          );
        }
        request.log.warn({ err: error }, 'a sign-in through the identity provider failed');
        return refused(request, reply, pending.next, 502, providerUnreachable());
      }
      const checked = await checkIdentitySignIn(context(), finished.identity, {
        createUsers: context().config.oidc.createUsers,
      });
      if (!checked.ok) return refused(request, reply, pending.next, checked.status, checked.message);
      await startPersonSession(context(), request, reply, checked.userId, 'oidc', { idToken: finished.idToken });
      return reply.redirect(appPathOrHome(context(), pending.next), 303);
    },
  );

  function refused(
    request: FastifyRequest,
    reply: FastifyReply,
    next: string | undefined,
    status: number,
    message: string,
  ) {
    return send(reply, signInPage(context(), next, message, themeOf(request)), status);
  }

  function providerUnreachable(): string {
    return `${context().config.oidc.name} could not be reached, or did not answer as it should: try again, or sign in another way.`;
  }
};
