import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import type { Caller } from '../model/access/auth.js';
import { scopesAllow, type Scope } from '../model/access/scopes.js';
import type { Context } from '../model/context.js';

/** The app reader's home, `PUBLIC_URL/app` (urls.app() ends with the slash of its empty last segment). */
export function appHome(context: Context): string {
  return context.urls.app().slice(0, -1);
}

/** The app reader's path under PUBLIC_URL, `/app`. */
export function appPath(context: Context): string {
  return new URL(appHome(context)).pathname;
}

/** The app reader's session: the API token a person pasted on the sign-in page, in an HttpOnly cookie. */
export const SESSION_COOKIE = 'quire_session';
/** How long a session lasts without the token saying less. */
const SESSION_SECONDS = 30 * 24 * 3600;

export function sessionCookieOptions(context: Context, maxAge?: number) {
  return {
    path: appPath(context),
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: context.config.publicUrl.startsWith('https:'),
    ...(maxAge !== undefined ? { maxAge } : {}),
  };
}

export function startSession(context: Context, reply: FastifyReply, token: string): void {
  void reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(context, SESSION_SECONDS));
}

export function endSession(context: Context, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(context));
}

/**
 * The signed-in caller, with the scope the page needs; undefined when the
 * request has no session, or one whose token no longer works (revoked or
 * expired), which is then ended. A token without the scope is a 403, as
 * the API answers it.
 */
export async function sessionCaller(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: Scope,
): Promise<Caller | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return undefined;
  let caller: Caller;
  try {
    caller = await app.authenticateToken(request, token);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 401) {
      endSession(app.context, reply);
      return undefined;
    }
    throw error;
  }
  if (!scopesAllow(caller.scopes, scope))
    throw new ApiError(403, `This token lacks the "${scope}" scope this page needs`);
  return caller;
}

/**
 * Whether a form post comes from the service's own pages: browsers send
 * Origin on a POST, and a post from another site is refused, so no page
 * elsewhere can sign a visitor in or out.
 */
export function sameOrigin(context: Context, request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === new URL(context.config.publicUrl).origin;
}

/** A path inside the app reader to go back to after signing in; anything else goes to its home. */
export function appPathOrHome(context: Context, next: string | undefined): string {
  const home = appPath(context);
  if (next && (next === home || next.startsWith(`${home}/`)) && !next.startsWith('//') && !/[\r\n\\]/.test(next)) {
    return next;
  }
  return home;
}
