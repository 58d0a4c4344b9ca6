import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../core/clock.js';
import type { Db } from '../db/database.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../core/errors.js';
import { sql } from 'kysely';
import { FailedAuthLimiter, MAX_TRACKED_ADDRESSES } from './failed-auth.js';
import { scopesAllow, type Scope } from './scopes.js';
import { hashToken } from '../core/tokens.js';
import {
  findInstallationToken,
  INSTALLATION_TOKEN_PREFIX,
  installationPrincipalId,
  type InstallationPrincipal,
} from './installation-principal.js';
import { installationReach } from './installation-reach.js';
import { precompiled } from '../db/precompiled.js';
import type { WorkerChannel } from '../core/processes/worker-channel.js';

/** Who is calling: the token's user, and what the token may do. */
export interface Caller {
  userId: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
  tokenId: string;
  /** Null when the token carries its user's full rights. */
  scopes: string[] | null;
  /**
   * Set when an admin issued the token to a member: it works only in this
   * organization (`organizationReach`), cannot make tokens or organizations.
   */
  organizationId: string | null;
  /** Whether the owner of the user's e-mail address proved it (or the operator set it). */
  emailVerified: boolean;
  /** Set when an integration calls as one of its installations: `userId` is then its principal id, no user's. */
  installation?: InstallationPrincipal;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication on every /v1 route; null elsewhere. Routes read it through `callerOf`. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /**
     * The token scope an operation needs, checked after authentication; `none`
     * for an operation any valid token may call. Every /v1 route must say
     * which (`requireScopeOnEveryRoute`).
     */
    scope?: Scope | 'none';
    /**
     * An operation a token an admin issued may not call, whatever its
     * organization: it makes a token or an organization, which would carry
     * the handed-over power beyond the organization that handed it.
     */
    ownTokensOnly?: boolean;
  }
}

interface CachedCaller {
  caller: Caller;
  expiresAt: number | null;
  cachedUntil: number;
}

/** The authenticated caller of a /v1 route; a 401 if a route that needs one was reached without it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new UnauthorizedError();
  return request.caller;
}

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;
const MAX_CACHED_TOKENS = 10_000;

/**
 * Token lookups are cached for a few seconds (AUTH_CACHE_TTL_MS): a token
 * revoked elsewhere may keep working that long on this instance, no longer.
 */
class CallerCache {
  private readonly entries = new Map<string, CachedCaller>();
  constructor(private readonly ttlMs: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): CachedCaller | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.cachedUntil > now) return entry;
    if (entry) this.entries.delete(key);
    return undefined;
  }

  set(key: string, entry: Omit<CachedCaller, 'cachedUntil'>, now: number): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= MAX_CACHED_TOKENS) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { ...entry, cachedUntil: now + this.ttlMs });
  }

  forgetToken(tokenId: string): void {
    for (const [key, entry] of this.entries) if (entry.caller.tokenId === tokenId) this.entries.delete(key);
  }
}

/**
 * A `Caller` as read from a token (`t`, api_tokens) and its user (`u`), with
 * `reachHolds`: whether the token may still be used at all. A token an admin
 * issued holds while its user is a member of that organization and of no other.
 * The API's tokens and the app reader's sessions are read with these alike.
 */
export const CALLER_COLUMNS = [
  't.id as tokenId',
  't.scopes',
  'u.id as userId',
  'u.email',
  'u.display_name as displayName',
  'u.photo_url as photoUrl',
  't.organization_id as organizationId',
  sql<boolean>`u.email_verified_at is not null`.as('emailVerified'),
  sql<boolean>`t.organization_id is null or (
    exists (select 1 from organization_members m
      where m.user_id = t.user_id and m.organization_id = t.organization_id and not m.disabled)
    and not exists (select 1 from organization_members m
      where m.user_id = t.user_id and m.organization_id <> t.organization_id))`.as('reachHolds'),
] as const;

const callerByTokenHash = precompiled((db, tokenHash: Buffer) =>
  db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([...CALLER_COLUMNS, 't.expires_at as expiresAt', 't.revoked_at as revokedAt'])
    .where('t.token_hash', '=', tokenHash),
);

/**
 * Where a token an admin issued may go: only operations on its own
 * organization (an `organizationId` in the path must be it: any other is a
 * 404, as an organization the caller cannot see), and never one that makes a
 * token or an organization (403). Elsewhere (a space by its id) its user is a
 * member of no other organization, which authentication holds, so it reads
 * only what visibility opens to anyone.
 */
export function organizationReach(caller: Caller, request: FastifyRequest): void {
  if (caller.organizationId === null) return;
  if (request.routeOptions.config.ownTokensOnly) {
    throw new ForbiddenError(
      'A token an admin issued works only in its organization and cannot make tokens or organizations; make your own token to do this',
    );
  }
  const named = (request.params as Record<string, unknown> | undefined)?.organizationId;
  if (typeof named === 'string' && named !== caller.organizationId) {
    throw new NotFoundError('No organization with this id is visible to you');
  }
}

/** The caller of an installation's token: no user, no OAuth scope, its installation's organization only. */
async function installationCaller(db: Db, tokenHash: Buffer) {
  const found = await findInstallationToken(db, tokenHash);
  if (!found) return undefined;
  const caller: Caller = {
    userId: installationPrincipalId(found.principal.installationId),
    email: '',
    displayName: found.title,
    photoUrl: null,
    tokenId: found.tokenId,
    scopes: [],
    organizationId: found.principal.organizationId,
    emailVerified: false,
    installation: found.principal,
  };
  return { caller, expiresAt: found.expiresAt.getTime(), cachedUntil: 0 };
}

export interface AuthOptions {
  db: Db;
  clock: Clock;
  cacheTtlMs: number;
  /** Failed authentications allowed per client address and window. */
  failures: { max: number; windowMs: number };
  /** The other processes on the same port, which forget a token when this one does. */
  siblings?: WorkerChannel;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Drops a revoked token from this instance's cache at once. */
    forgetToken(tokenId: string): void;
    /** How many tokens and failing addresses this instance keeps now, and its bounds: for monitoring. */
    authCacheSizes(): { tokens: number; maxTokens: number; failingAddresses: number; maxFailingAddresses: number };
    /** The onRequest hook that makes a route require a valid token. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /**
     * The onRequest hook of a route anyone may call, which a token changes:
     * without an Authorization header the caller is null; with one, it must
     * be valid and hold the route's scope, as `authenticate` checks.
     */
    authenticateIfPresent: (request: FastifyRequest) => Promise<void>;
    /** The caller of a token that came another way than the Authorization header (the web reader's session cookie). */
    authenticateToken: (request: FastifyRequest, token: string | undefined) => Promise<Caller>;
  }
}

export const authPlugin = fp<AuthOptions>(
  async (app: FastifyInstance, { db, clock, cacheTtlMs, failures, siblings }) => {
    const cache = new CallerCache(cacheTtlMs);
    const failedAuth = new FailedAuthLimiter(failures.max, failures.windowMs, siblings?.counters);
    app.decorateRequest('caller', null);
    app.decorate('forgetToken', (tokenId: string) => {
      cache.forgetToken(tokenId);
      siblings?.tell({ kind: 'token-forgotten', tokenId });
    });
    siblings?.hear((news) => news.kind === 'token-forgotten' && cache.forgetToken(news.tokenId));
    app.decorate('authCacheSizes', () => ({
      tokens: cache.size,
      maxTokens: MAX_CACHED_TOKENS,
      failingAddresses: failedAuth.size,
      maxFailingAddresses: MAX_TRACKED_ADDRESSES,
    }));

    /** The token's caller, or a 401 (recorded against the address): one lookup a few seconds, then the cache. */
    const authenticateToken = async (request: FastifyRequest, token: string | undefined): Promise<Caller> => {
      const now = clock.now().getTime();
      const refuse = () => {
        failedAuth.recordFailure(request.ip, now);
        return new UnauthorizedError();
      };
      if (!token) throw refuse();
      // Keyed by the token itself, which the request holds anyway: hashing it for every request took 7 % of a kept answer's time.
      let entry = cache.get(token, now);
      if (!entry) {
        failedAuth.check(request.ip, now);
        const tokenHash = hashToken(token);
        if (token.startsWith(INSTALLATION_TOKEN_PREFIX)) {
          entry = await installationCaller(db, tokenHash);
          if (!entry) throw refuse();
        } else {
          const [row] = await callerByTokenHash(db, tokenHash);
          if (!row || row.revokedAt || !row.reachHolds) throw refuse();
          const { expiresAt, revokedAt: _revoked, reachHolds: _holds, ...caller } = row;
          entry = { caller, expiresAt: expiresAt === null ? null : new Date(expiresAt).getTime(), cachedUntil: 0 };
        }
        cache.set(token, entry, now);
      }
      if (entry.expiresAt !== null && entry.expiresAt <= now) throw refuse();
      request.caller = entry.caller;
      return entry.caller;
    };
    // The web reader's sessions and the Git remote take users' tokens only: an installation's is for the API.
    app.decorate('authenticateToken', async (request: FastifyRequest, token: string | undefined) => {
      const caller = await authenticateToken(request, token);
      if (!caller.installation) return caller;
      request.caller = null;
      throw new UnauthorizedError();
    });

    const authenticate = async (request: FastifyRequest) => {
      const caller = await authenticateToken(request, BEARER.exec(request.headers.authorization ?? '')?.[1]);
      const scope = request.routeOptions.config.scope;
      // A route without a scope cannot start (requireScopeOnEveryRoute); refusing here too keeps the check closed.
      if (scope === undefined) throw new ForbiddenError('This operation declares no scope, so no token may call it');
      // An installation's token answers to its integration's scopes and installation, not to OAuth scopes.
      if (caller.installation) return installationReach(db, caller.installation, request);
      if (scope !== 'none' && !scopesAllow(caller.scopes, scope)) {
        throw new ForbiddenError(`This token lacks the "${scope}" scope this operation needs`);
      }
      organizationReach(caller, request);
    };
    app.decorate('authenticate', authenticate);
    app.decorate('authenticateIfPresent', async (request: FastifyRequest) => {
      if (request.headers.authorization !== undefined) await authenticate(request);
    });
  },
  { name: 'auth' },
);

/**
 * An onRoute hook for the /v1 context: a route that does not declare its
 * scope (or `none`) stops the app from starting, so none slips through
 * accepting any valid token.
 */
export function requireScopeOnEveryRoute(route: RouteOptions): void {
  if (route.config?.scope === undefined) {
    throw new Error(
      `${String(route.method)} ${route.url} declares no config.scope; give it the scope it needs, or 'none'`,
    );
  }
}
