import type { FastifyInstance } from 'fastify';
import type { Seeded } from './seed.js';
import { MEMBER_SEARCH, MEMBER_SEARCH_MATCHES } from './seed-members.js';
import { SPACES_IN_BIG_ORGANIZATION } from './seed-spaces.js';

/**
 * One endpoint under load. To benchmark another endpoint, add an entry to
 * SCENARIOS (and, if it needs data, to seed.ts).
 */
export interface Scenario {
  name: string;
  /** Path and query string, from the seeded ids. */
  path: (seed: Seeded) => string;
  headers: (seed: Seeded) => Record<string, string>;
  /**
   * The least share of the baseline's requests/s this endpoint should reach.
   * Null for the baseline itself.
   */
  aim: number | null;
  /** The most the 99th percentile latency should take, in ms. */
  p99AimMs?: number;
  /** Checked on one response before the load starts: a message when the body is not what the scenario is meant to measure. */
  check?: (body: unknown, seed: Seeded) => string | undefined;
}

const authorized = (seed: Seeded) => ({ authorization: seed.authorization });

/**
 * The floor every endpoint is compared against: the same Fastify app, global
 * hooks (request id, rate limit) and database pool, but one primary-key query
 * and no auth, schema validation or presentation. The service has no such
 * route; run.ts adds it with registerBaselineRoute before the app is ready.
 */
export function registerBaselineRoute(app: FastifyInstance): void {
  app.get<{ Params: { id: string } }>('/bench/baseline/:id', async (request, reply) => {
    const row = await app.db
      .selectFrom('organizations')
      .select(['id', 'title'])
      .where('id', '=', request.params.id)
      .executeTakeFirst();
    return row ?? reply.code(404).send({ error: { code: 404, message: 'No such organization' } });
  });
}

export const BASELINE: Scenario = {
  name: 'baseline',
  path: (seed) => `/bench/baseline/${seed.memberOrganizationIds[0]!}`,
  headers: () => ({}),
  aim: null,
};

export const SCENARIOS: Scenario[] = [
  BASELINE,
  {
    name: 'GET /v1/orgs/{id}',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}`,
    headers: authorized,
    aim: 0.6,
  },
  {
    name: 'GET /v1/orgs (3 orgs)',
    path: () => '/v1/orgs',
    headers: (seed) => ({ authorization: seed.typicalAuthorization }),
    aim: 0.6,
    check: (body) => ((body as { items?: unknown[] }).items?.length === 3 ? undefined : 'expected the typical user’s 3 organizations'),
  },
  {
    name: 'GET /v1/orgs (50 orgs)',
    path: () => '/v1/orgs',
    headers: authorized,
    aim: 0.6,
    // A full default page of 50 organizations: the heaviest answer this list gives.
    check: (body, seed) => {
      const items = (body as { items?: unknown[] }).items;
      const expected = Math.min(seed.memberOrganizationIds.length, 50);
      return items?.length === expected ? undefined : `expected ${expected} items, got ${items?.length ?? 'no items array'}`;
    },
  },
  {
    name: 'GET /v1/spaces/{id}',
    path: (seed) => `/v1/spaces/${seed.spaces.spaceId}`,
    headers: authorized,
    aim: 0.5,
  },
  {
    name: 'GET /v1/orgs/{id}/spaces (first page)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/spaces`,
    headers: authorized,
    aim: 0.5,
    check: (body) => fullSpacesPage(body),
  },
  {
    name: 'GET /v1/orgs/{id}/spaces (19,000 in)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/spaces?page=${encodeURIComponent(seed.spaces.deepPage)}`,
    headers: authorized,
    aim: 0.5,
    check: (body) => fullSpacesPage(body),
  },
  {
    name: 'GET /v1/collections/{id}/spaces',
    path: (seed) => `/v1/collections/${seed.spaces.collectionId}/spaces`,
    headers: authorized,
    aim: 0.5,
    check: (body) => fullSpacesPage(body, 200),
  },
  {
    name: 'GET /v1/orgs/{id}/members?search (50,000 members)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/members?search=${MEMBER_SEARCH}`,
    headers: authorized,
    aim: null,
    p99AimMs: 50,
    check: (body) => {
      const count = (body as { count?: number }).count;
      return count === MEMBER_SEARCH_MATCHES ? undefined : `expected ${MEMBER_SEARCH_MATCHES} matching members, got ${count}`;
    },
  },
];

/** A page of 50 spaces out of `total`: a shorter page would flatter the scenario. */
function fullSpacesPage(body: unknown, total = SPACES_IN_BIG_ORGANIZATION): string | undefined {
  const page = body as { items?: unknown[]; count?: number };
  if (page.items?.length !== 50) return `expected 50 spaces, got ${page.items?.length ?? 'no items array'}`;
  return page.count === total ? undefined : `expected a count of ${total}, got ${page.count}`;
}
