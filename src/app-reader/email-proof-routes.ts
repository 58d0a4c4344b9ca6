import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { themeOf } from '../reader/http.js';
import { askEmailProof, proveEmail } from '../accounts/actions.js';
import { findLink, LINK_MINUTES } from '../accounts/mailed-links.js';
import type { SignInLimits } from '../accounts/sign-in-limits.js';
import { accountAnswer } from './account-answer.js';
import { emailProofPage } from './account-pages.js';
import { sameOrigin, sessionCaller } from './session.js';
import { sendAppAnswer as send } from './shell.js';

const hidden = { hide: true } as const;
/** A link's secret: 32 random bytes in base64url. */
const LinkParams = Type.Object({ secret: Type.String({ minLength: 43, maxLength: 43, pattern: '^[\\w-]+$' }) });

/**
 * Proving an account's address by its mailbox: the signed-in person asks for
 * a link, which is mailed to the address; opening it and confirming marks the
 * address proven, as accepting an invitation mailed to it does. A proven
 * address lets a forgotten password be set again, and joins organizations by
 * their e-mail domains.
 */
export const emailProofRoutes: FastifyPluginAsyncTypebox<{ limits: SignInLimits }> = async (app, { limits }) => {
  const context = () => app.context;

  app.post('/app/account/email-proof', { schema: hidden }, async (request, reply) => {
    if (!sameOrigin(context(), request)) throw new ApiError(403, 'Change your account from this service’s own page');
    const caller = await sessionCaller(app, request, reply, 'user:write');
    if (!caller) return reply.redirect(context().urls.app(), 303);
    const answer = async (said: { notice?: string; error?: string }, status?: number) =>
      send(reply, await accountAnswer(context(), request, caller, said), status);
    if (caller.emailVerified) return answer({ notice: 'Your address is proven already.' });
    const asked = await askEmailProof(context(), limits, caller, request.ip);
    if (!asked.ok) {
      if (asked.retryAfter !== undefined) void reply.header('retry-after', String(asked.retryAfter));
      return answer({ error: asked.message }, asked.status);
    }
    return answer({
      notice: `A link is on its way to ${caller.email}. Open it within ${LINK_MINUTES} minutes to prove the address.`,
    });
  });

  app.get('/app/email-proof/:secret', { schema: { ...hidden, params: LinkParams } }, async (request, reply) => {
    const link = await findLink(context().db, request.params.secret, 'email-proof', app.clock.now());
    const action = context().urls.app('email-proof', request.params.secret);
    return send(reply, emailProofPage(context(), themeOf(request), link ? { action, email: link.email } : {}));
  });

  // A post, not the link's own GET: a mail scanner that fetches links proves nothing by it.
  app.post('/app/email-proof/:secret', { schema: { ...hidden, params: LinkParams } }, async (request, reply) => {
    if (!sameOrigin(context(), request)) throw new ApiError(403, 'Prove it from this service’s own page');
    const proven = await proveEmail(context(), request.params.secret);
    return send(reply, emailProofPage(context(), themeOf(request), proven ? { proven } : {}));
  });
};
