import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { organizationReach, type Caller } from '../access/auth.js';
import { scopesAllow, type Scope } from '../access/scopes.js';
import type { Context } from '../context.js';
import { deleteAppSession, findAppSessionCaller, insertAppSession } from './queries.js';
import { insertPersonSession, type PersonSignIn } from '../accounts/queries.js';
import { newId } from '../core/ids.js';
import { openIdTokenHint, sealIdTokenHint } from '../accounts/id-token-hints.js';

/** The app reader's home, `PUBLIC_URL/app` (urls.app() ends with the slash of its empty last segment). */
export function appHome(context: Context): string {
  return context.urls.app().slice(0, -1);
}

/** The app reader's path under PUBLIC_URL, `/app`. */
export function appPath(context: Context): string {
  return new URL(appHome(context)).pathname;
}

/**
 * The app reader's session cookie. It carries a random session id, never
 * the API token: the session is a row (the id's hash, the user, the token it
 * was made from) that signing out deletes, and that ends with its token.
 */
export const SESSION_COOKIE = 'quire_session';
/** How long a session lasts from signing in, unless its token expires sooner: a working day. */
export const SESSION_SECONDS = 12 * 3600;

export function sessionCookieOptions(context: Context, maxAge?: number) {
  return {
    path: appPath(context),
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: context.config.publicUrl.startsWith('https:'),
    ...(maxAge !== undefined ? { maxAge } : {}),
  };
}

/** A session id as stored: its SHA-256, so that the table opens no session. */
export function sessionIdHash(sessionId: string): Buffer {
  return createHash('sha256').update(sessionId, 'utf8').digest();
}

/** The stored hash of the request's session cookie; that of no session when it has none. */
export function requestSessionHash(request: FastifyRequest): Buffer {
  return sessionIdHash(request.cookies[SESSION_COOKIE] ?? '');
}

/** The browser a session was opened from, as its user will recognise it in their list of sessions. */
function userAgentOf(request: FastifyRequest): string | null {
  return request.headers['user-agent']?.slice(0, 256) || null;
}

/** A new session's secret (the cookie) and the id it is listed by, which opens nothing. */
function newSession(): { sessionId: string; idHash: Buffer; id: string } {
  const sessionId = randomBytes(32).toString('base64url');
  return { sessionId, idHash: sessionIdHash(sessionId), id: newId() };
}

/** Opens a session for the caller of a token that was just checked, and sets its cookie. */
export async function startSession(
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
): Promise<boolean> {
  const { sessionId, idHash, id } = newSession();
  const now = context.clock.now();
  const expiresAt = await insertAppSession(context.db, {
    idHash,
    id,
    userId: caller.userId,
    tokenId: caller.tokenId,
    userAgent: userAgentOf(request),
    now,
    until: new Date(now.getTime() + SESSION_SECONDS * 1000),
  });
  const maxAge = expiresAt ? Math.floor((expiresAt.getTime() - now.getTime()) / 1000) : 0;
  if (maxAge <= 0) return false;
  void reply.setCookie(SESSION_COOKIE, sessionId, sessionCookieOptions(context, maxAge));
  return true;
}

/** Opens a session for a person who just signed in (with their password, or through an identity provider), and sets its cookie. */
export async function startPersonSession(
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  signedInWith: PersonSignIn,
  /** The organization a provider of its own binds the session to; the ID token the operator's provider issued. */
  from: { organizationId?: string; idToken?: string } = {},
): Promise<void> {
  const { sessionId, idHash, id } = newSession();
  const now = context.clock.now();
  const until = new Date(now.getTime() + SESSION_SECONDS * 1000);
  const idTokenSealed = from.idToken && sealIdTokenHint(context.keyring, id, from.idToken);
  await insertPersonSession(context.db, {
    idHash,
    id,
    userId,
    signedInWith,
    ...(from.organizationId ? { organizationId: from.organizationId } : {}),
    ...(idTokenSealed ? { providerIdTokenSealed: idTokenSealed } : {}),
    userAgent: userAgentOf(request),
    now,
    until,
  });
  void reply.setCookie(SESSION_COOKIE, sessionId, sessionCookieOptions(context, SESSION_SECONDS));
}

export interface EndedSession {
  /** How the session was opened: `token`, `password`, `oidc`, `saml`. */
  signedInWith: string;
  /** The ID token the provider issued for it, kept to hand back at the provider's sign-out. */
  idToken: string | undefined;
}

/** Ends the request's session, if it has one, and clears its cookie; says how the session was opened. */
export async function endSession(
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<EndedSession | undefined> {
  const sessionId = request.cookies[SESSION_COOKIE];
  void reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(context));
  const ended = sessionId ? await deleteAppSession(context.db, sessionIdHash(sessionId)) : undefined;
  return (
    ended && {
      signedInWith: ended.signed_in_with,
      idToken: openIdTokenHint(context.keyring, ended.id, ended.provider_id_token_sealed),
    }
  );
}

/**
 * The signed-in caller, with the scope the page needs; undefined when the
 * request has no session, or one that has ended (signed out, expired, or its
 * token revoked or expired), whose row and cookie are then dropped. A token
 * without the scope is a 403, as the API answers it.
 */
export async function sessionCaller(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: Scope,
): Promise<Caller | undefined> {
  const sessionId = request.cookies[SESSION_COOKIE];
  if (!sessionId) return undefined;
  const row = await findAppSessionCaller(app.context.db, sessionIdHash(sessionId), app.clock.now());
  if (!row?.reachHolds) {
    await endSession(app.context, request, reply);
    return undefined;
  }
  const { reachHolds: _holds, ...caller } = row;
  request.caller = caller;
  if (!scopesAllow(caller.scopes, scope))
    throw new ApiError(403, `This token lacks the "${scope}" scope this page needs`);
  // A token an admin issued reads in its organization only, here as in the API.
  organizationReach(caller, request);
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
  return origin === context.urls.origin;
}

/**
 * The caller of a form that changes something, with the scope it needs: a
 * post from another site is refused (`refusal` says what to do instead), and
 * a request without a session has no caller.
 */
export async function formCaller(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: Scope,
  refusal: string,
): Promise<Caller | undefined> {
  if (!sameOrigin(app.context, request)) throw new ApiError(403, refusal);
  return sessionCaller(app, request, reply, scope);
}

/** A path inside the app reader to go back to after signing in; anything else goes to its home. */
export function appPathOrHome(context: Context, next: string | undefined): string {
  const home = appPath(context);
  if (next && (next === home || next.startsWith(`${home}/`)) && !next.startsWith('//') && !/[\r\n\\]/.test(next)) {
    return next;
  }
  return home;
}
