import type { FastifyInstance, FastifyRequest, RouteOptions, preHandlerAsyncHookHandler } from 'fastify';
import { findMembership } from './membership.js';
import { ApiError } from '../core/errors.js';
import { LRUCache } from 'lru-cache';

/** An organization's budget when RATE_LIMIT_ORGANIZATION_MAX is not given: five users' worth. */
const USERS_PER_ORGANIZATION_BUDGET = 5;

interface RateLimitSettings {
  max: number;
  windowMs: number;
  organizationMax?: number;
}

/**
 * How long whether a user is a member of an organization is kept for this
 * budget, and for how many pairs: it only decides whose requests count, so a
 * membership a few seconds stale changes nothing that matters, while a query
 * per request cost the organization's routes a third of their throughput.
 */
const MEMBERSHIP_TTL_MS = 5_000;
const MEMBERSHIPS_KEPT = 10_000;

const organizationOf = (request: FastifyRequest) => (request.params as { organizationId?: unknown }).organizationId;

/**
 * The second budget of the routes under `/orgs/{organizationId}`: every
 * request of the organization's members to it counts against it, after the
 * caller's own budget. Users cost nothing to make, so the per-user limit alone
 * could be multiplied by the users of an attacker's organization.
 *
 * An `onRoute` hook that adds the check to such routes, as a preHandler
 * after the per-user limit (so that the caller's own budget is spent first).
 * It shares the rate-limit plugin's store: with RATE_LIMIT_REDIS_URL it holds
 * across instances.
 */
export function organizationRateLimit(app: FastifyInstance, settings: RateLimitSettings) {
  const max = settings.organizationMax ?? settings.max * USERS_PER_ORGANIZATION_BUDGET;
  const count = app.createRateLimit({
    max,
    timeWindow: settings.windowMs,
    keyGenerator: (request) => `org:${String(organizationOf(request))}`,
  });
  const memberships = new LRUCache<string, boolean>({ max: MEMBERSHIPS_KEPT, ttl: MEMBERSHIP_TTL_MS });
  const isMember = async (request: FastifyRequest, organizationId: string, userId: string): Promise<boolean> => {
    const key = `${organizationId}:${userId}`;
    const kept = memberships.get(key);
    if (kept !== undefined) return kept;
    const member = (await findMembership(request.server.context.db, organizationId, userId)) !== undefined;
    memberships.set(key, member);
    return member;
  };
  const check: preHandlerAsyncHookHandler = async (request, reply) => {
    // Only the organization's own members spend its budget: anyone else is refused by the route
    // anyway, on their own budget, and must not be able to use up another organization's.
    const organizationId = organizationOf(request);
    if (!request.caller || typeof organizationId !== 'string') return;
    if (!(await isMember(request, organizationId, request.caller.userId))) return;
    const outcome = await count(request);
    if (outcome.isAllowed || !outcome.isExceeded) return;
    const seconds = String(outcome.ttlInSeconds);
    reply.header('ratelimit-limit', outcome.max);
    reply.header('ratelimit-remaining', 0);
    reply.header('ratelimit-reset', seconds);
    throw new ApiError(
      429,
      `Rate limit of the organization exceeded: ${outcome.max} requests per ${settings.windowMs / 1000} s ` +
        'from all its callers together; retry after the time in Retry-After',
      { 'retry-after': seconds },
    );
  };
  return (route: RouteOptions) => {
    if (!route.url.includes(':organizationId') || route.config?.rateLimit === false) return;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? [check] : [...(Array.isArray(existing) ? existing : [existing]), check];
  };
}
