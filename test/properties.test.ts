import fc from 'fast-check';
import { sql, type RawBuilder } from 'kysely';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import {
  RouteArbitraries,
  describeRequest,
  injectOptions,
  routeOperations,
  type GeneratedRequest,
  type RouteOperation,
} from './support/route-arbitraries.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';
import { keptFingerprint, watchRowWrites } from './support/row-writes.js';
import { buildWorld, type World } from './support/world.js';

/**
 * Requests generated from the service's own OpenAPI document, valid and
 * broken, for every operation, sent by an organization's admin to a world
 * with one of everything. Whatever the request: never a 5xx, every 4xx in the
 * error shape, a refused write changes nothing stored, a broken request is
 * refused, and a 2xx of a GitBook operation matches the reference spec.
 *
 * PROPERTY_RUNS=<n> sends n requests of each kind per operation (default 3);
 * PROPERTY_SEED=<n> changes the seed. A failure prints its request as a curl
 * command line, and the seed of its operation.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 3);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_251_123);
// Long runs get the time they need; the default run takes about a minute.
const TIMEOUT_MS = Math.max(120_000, RUNS * 60_000);

const t = useTestApp();

const require = createRequire(import.meta.url);
const referenceSpec = require('@gitbook/api/spec/openapi.json') as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
/** The GitBook operations: a 2xx of one of these must match the reference spec. */
const gitbookOperations = new Set(
  Object.values(referenceSpec.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId)),
);

/**
 * Where the service departs from the reference spec on purpose. Translation
 * settings follow the seeds, not the spec's translation jobs (docs/api/translations.md):
 * not checked. A SAML provider still pending has an empty `ssoURL`, which the
 * spec requires as a URI before one can exist (test/sso.test.ts): a
 * placeholder stands in for it and the rest is checked.
 */
const UNCHECKED_OPERATIONS = new Set([
  'listTranslations',
  'createTranslation',
  'getTranslation',
  'updateTranslation',
  'deleteTranslation',
]);
/**
 * GitBook operations the seeds do not name, built to the newest spec
 * (DECISIONS.md), where the reference spec differs: its cancelImportRun
 * answered 201, the newest answers 200 with the run. Site redirects: the
 * reference spec's have no wildcard sources, drafts or times. A site's
 * structure with an external link in it (the world's sites have one) is an
 * item the reference spec does not know.
 */
const NEWEST_SPEC_OPERATIONS = new Set([
  'getSiteStructure',
  'getPublishedContentSite',
  'startImportRun',
  'listImportRuns',
  'getImportRun',
  'cancelImportRun',
  'listSiteRedirects',
  'createSiteRedirect',
  'bulkUpsertSiteRedirects',
  'updateSiteRedirectById',
  'deleteSiteRedirectById',
  'getSiteRedirectBySource',
]);

/**
 * Integration scopes the reference spec lacks: the seeds' `space:views:read`
 * and 0.202.0's `site:visitor:claims` (docs/api/conventions.md). They are left
 * out of an integration's `scopes` and the rest is checked.
 */
const SCOPES_BEYOND_THE_SPEC = new Set(['space:views:read', 'site:visitor:claims']);

function withoutScopesBeyondTheSpec(body: unknown): unknown {
  const fix = (item: unknown) => {
    const scopes = (item as { scopes?: unknown } | null)?.scopes;
    if (!Array.isArray(scopes)) return item;
    return { ...(item as object), scopes: scopes.filter((scope) => !SCOPES_BEYOND_THE_SPEC.has(scope as string)) };
  };
  const list = body as { items?: unknown } | null;
  return Array.isArray(list?.items) ? { ...list, items: list.items.map(fix) } : fix(body);
}

/**
 * Operations that call the integration's own endpoint: the world's is a port
 * nothing listens on, so a valid request is a 502 (in the error shape, changing
 * nothing), not a fault of the service.
 */
const UPSTREAM_OPERATIONS = new Set(['renderIntegrationUIWithGet', 'renderIntegrationUIWithPost']);

function withoutKnownDeviations(operationId: string, body: unknown): unknown {
  if (operationId.includes('Integration')) return withoutScopesBeyondTheSpec(body);
  if (!operationId.includes('SAMLProvider')) return body;
  const fill = (provider: { ssoURL?: unknown }) =>
    provider.ssoURL === '' ? { ...provider, ssoURL: 'https://idp.invalid/sso' } : provider;
  const list = body as { items?: unknown };
  return Array.isArray(list.items) ? { ...list, items: list.items.map(fill) } : fill(body as { ssoURL?: unknown });
}

/**
 * Operations that take no body as an empty one, though the document (where
 * @fastify/swagger marks every body required) says otherwise.
 */
const OPTIONAL_BODIES = new Set(['addMemberToOrganizationTeamById']);

/** Generated ids; a path parameter of this shape is sometimes replaced by a random one. */
const ID_SHAPE = /^[A-Za-z0-9]{20}$/;

/**
 * Writes that leave the world less usable for the writes after them (an
 * archived or merged change request, an unpublished site, a space sent to
 * another organization, a locked space): after the others, in this order.
 * Deletes come last, then restores.
 */
const LATE_WRITES = [
  /^PATCH \/v1\/spaces\/\{spaceId\}\/change-requests\/\{changeRequestId\}$/,
  /\/merge$/,
  /\/unpublish$/,
  /^PATCH \/v1\/orgs\/\{organizationId\}$/,
  /\/transfer$/,
  /^PATCH \/v1\/spaces\/\{spaceId\}$/,
];
const RESTORES = /\/restore$/;

type Kind = 'valid' | 'invalid';

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  specChecked: number;
}

let world: World;
let arbitraries: RouteArbitraries;
let operations: RouteOperation[];

beforeAll(async () => {
  const document = t.app.swagger();
  operations = routeOperations(document).map((operation) =>
    OPTIONAL_BODIES.has(operation.operationId ?? '') ? { ...operation, bodyRequired: false } : operation,
  );
  world = await buildWorld(t, 'P');
  fingerprint = keptFingerprint(await watchRowWrites(t.db), hashEveryTable);
  // Somewhere to transfer spaces and collections to.
  const elsewhere = await t.factory.organization(world.admin.user.id);
  const { ids, extra } = world;
  const spaces = [ids.spaceId, extra.otherSpaceId, extra.spareSpaceId];
  const siteSpaces = [ids.siteSpaceId, extra.sectionSiteSpaceId];
  arbitraries = new RouteArbitraries(document, {
    // Bodies name the world's resources most of the time, so that they reach past "not found".
    knownValues: {
      spaceId: spaces,
      space: spaces,
      parent: [ids.collectionId],
      collection: [ids.collectionId],
      organization: [ids.organizationId, elsewhere.id],
      users: [ids.userId],
      members: [ids.userId],
      add: [ids.userId],
      remove: [ids.userId],
      teams: [ids.teamId],
      defaultTeam: [ids.teamId],
      sectionId: [ids.siteSectionId],
      sections: [ids.siteSectionId],
      defaultSiteSection: [ids.siteSectionId],
      siteId: [ids.siteId],
      siteSpaceId: siteSpaces,
      siteSpaceIds: siteSpaces,
      currentSiteSpace: siteSpaces,
      includedSiteSpaces: siteSpaces,
      defaultSiteSpace: siteSpaces,
      page: [ids.pageId],
      pageId: [ids.pageId],
      file: [ids.fileId],
      reusableContent: [ids.reusableContentId],
    },
    // A cursor is opaque: a generated one is refused before anything else is looked at.
    rareQueryParams: ['page'],
    // The random stand-ins, mostly of an id's shape; the real values come from the world (withWorldParams).
    pathParam: (name) =>
      name in ids && ID_SHAPE.test(ids[name as keyof typeof ids])
        ? fc.oneof(
            { arbitrary: fc.stringMatching(ID_SHAPE), weight: 3 },
            { arbitrary: fc.string({ minLength: 1, maxLength: 24, unit: 'grapheme' }), weight: 1 },
          )
        : undefined,
  });
  process.stdout.write(`properties: seed ${SEED}, ${RUNS} runs of each kind for ${operations.length} operations\n`);
}, 300_000);

/** The world's value for each path parameter of the operation, as `world.fill` chooses it. */
function realParams(operation: RouteOperation): Record<string, string> {
  const template = operation.path.split('/');
  const filled = world.fill(operation.path).split('/');
  return Object.fromEntries(
    template.flatMap((segment, i) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      return name ? [[name, decodeURIComponent(filled[i]!)]] : [];
    }),
  );
}

/**
 * The world's real ids in the path (so that requests reach the handlers),
 * except in one request in five, where one of them is a random value of its
 * shape, and where the path itself is what is broken.
 */
function withWorldParams(operation: RouteOperation, requests: fc.Arbitrary<GeneratedRequest>) {
  const real = realParams(operation);
  const count = operation.pathParams.length;
  return fc.tuple(requests, fc.nat(5 * Math.max(count, 1) - 1)).map(([request, dice]) => {
    const broken = request.mutation?.startsWith('path ') ? request.mutation.slice('path '.length).split(':')[0] : '';
    const randomized = dice < count ? operation.pathParams[dice]!.name : '';
    const params = Object.fromEntries(
      operation.pathParams.map(({ name }) => [
        name,
        name === broken || name === randomized ? request.params[name]! : real[name]!,
      ]),
    );
    return { ...request, params };
  });
}

let fingerprintQuery: RawBuilder<{ name: string; digest: string }> | undefined;

/**
 * An md5 of each table's rows, every table and every column: nothing stored
 * moves on its own here (the purge and spec workers are not started) or on
 * every request (tokens keep no last-used time; rate-limit and failed-auth
 * counters live in memory).
 */
async function hashEveryTable(): Promise<Map<string, string>> {
  if (!fingerprintQuery) {
    const { rows: tables } = await sql<{ name: string }>`SELECT table_name::text AS name
      FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(t.db);
    const digests = tables.map(
      ({ name }) =>
        sql`SELECT ${name}::text AS name,
          (SELECT md5(coalesce(string_agg(row_text, '|' ORDER BY row_text), ''))
            FROM (SELECT to_jsonb(r)::text AS row_text FROM ${sql.table(name)} r) rows) AS digest`,
    );
    fingerprintQuery = sql<{ name: string; digest: string }>`${sql.join(digests, sql` UNION ALL `)}`;
  }
  const { rows } = await fingerprintQuery.execute(t.db);
  return new Map(rows.map((row) => [row.name, row.digest]));
}

/** The data's fingerprint, hashed again only once some row was written (support/row-writes.ts). */
let fingerprint: () => Promise<Map<string, string>>;

function isErrorShape(body: unknown, status: number): boolean {
  if (typeof body !== 'object' || body === null || Object.keys(body).length !== 1) return false;
  const error = (body as { error?: unknown }).error as { code?: unknown; message?: unknown } | undefined;
  return (
    typeof error === 'object' &&
    error !== null &&
    Object.keys(error).length === 2 &&
    error.code === status &&
    typeof error.message === 'string' &&
    error.message.length > 0
  );
}

/** Sends one request and checks every property; returns what is wrong, if anything. */
async function check(request: GeneratedRequest, kind: Kind, tally: Tally): Promise<string | undefined> {
  const { operation } = request;
  if (kind === 'valid' && !arbitraries.accepts(request)) {
    return 'the generator made a request the schemas refuse (test/support/route-arbitraries.ts)';
  }
  const writes = operation.method !== 'GET';
  const before = writes ? await fingerprint() : undefined;
  const res = await t.app.inject(injectOptions(request, world.admin.headers));
  const status = res.statusCode;
  tally.requests++;
  tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  const answer = `${status} ${res.body.slice(0, 500)}`;

  if (status >= 500 && !(status === 502 && UPSTREAM_OPERATIONS.has(operation.operationId ?? '')))
    return `a ${status}: ${answer}`;
  if (status >= 400) {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      return `a ${status} whose body is not JSON: ${answer}`;
    }
    if (!isErrorShape(body, status)) return `a ${status} not in the error shape: ${answer}`;
    if (before) {
      const after = await fingerprint();
      const changed = [...after].filter(([name, digest]) => before.get(name) !== digest).map(([name]) => name);
      if (changed.length > 0) return `refused (${status}) but changed ${changed.join(', ')}: ${answer}`;
    }
    return undefined;
  }
  if (kind === 'invalid') return `a broken request was accepted: ${answer}`;
  accepted.add(operation);
  const { operationId } = operation;
  if (operationId && gitbookOperations.has(operationId) && !UNCHECKED_OPERATIONS.has(operationId) && res.body) {
    tally.specChecked++;
    try {
      const check = NEWEST_SPEC_OPERATIONS.has(operationId) ? expectNewestSpecResponse : expectSpecResponse;
      check(operationId, status, withoutKnownDeviations(operationId, res.json()));
    } catch (error) {
      return `${(error as Error).message}\n  body: ${res.body.slice(0, 1000)}`;
    }
  }
  return undefined;
}

const failures: string[] = [];
const tallies = new Map<string, Tally>();
/** Operations some valid request of which was accepted. */
const accepted = new Set<RouteOperation>();

/** Sends RUNS generated requests to one operation; the first failure is kept with its request. */
async function exercise(operation: RouteOperation, kind: Kind, seed: number): Promise<void> {
  const requests = kind === 'valid' ? arbitraries.valid(operation) : arbitraries.invalid(operation);
  if (!requests) return;
  const key = `${kind} ${operation.method}`;
  const tally = tallies.get(key) ?? { requests: 0, byStatus: new Map(), specChecked: 0 };
  tallies.set(key, tally);
  let failed: { request: GeneratedRequest; problem: string } | undefined;
  const result = await fc.check(
    fc.asyncProperty(withWorldParams(operation, requests), async (request) => {
      const problem = await check(request, kind, tally);
      if (problem) failed ??= { request, problem };
      return problem === undefined;
    }),
    // Every request may change the world, so a shrunk one would meet another world: no shrinking.
    { numRuns: RUNS, seed, endOnFailure: true },
  );
  if (!result.failed) return;
  const what = failed ? `${failed.problem}\n  ${describeRequest(failed.request)}` : String(result.errorInstance);
  failures.push(`${kind} ${operation.method} ${operation.path} (seed ${seed}): ${what}`);
}

/** Runs the operations that `pick` selects, in the order it gives, and expects no failure. */
async function run(name: string, kind: Kind, pick: (all: RouteOperation[]) => RouteOperation[]): Promise<void> {
  const started = Date.now();
  failures.length = 0;
  // Each operation has a seed of its own, so that one can be replayed alone.
  for (const operation of pick(operations)) await exercise(operation, kind, SEED + operations.indexOf(operation));
  process.stdout.write(`properties: ${name} in ${Date.now() - started} ms\n`);
  expect(failures).toEqual([]);
}

describe('requests generated from the route schemas', () => {
  it(
    'refuses every broken request with a 4xx in the error shape, and stores nothing',
    () => run('broken requests', 'invalid', (all) => all),
    TIMEOUT_MS,
  );

  it(
    'answers every valid read without a 5xx, and as the spec says',
    () => run('valid reads', 'valid', (all) => all.filter((operation) => operation.method === 'GET')),
    TIMEOUT_MS,
  );

  it(
    'answers every valid write without a 5xx, stores nothing when it refuses, and succeeds as the spec says',
    () => {
      const lateness = (operation: RouteOperation) =>
        LATE_WRITES.findIndex((pattern) => pattern.test(`${operation.method} ${operation.path}`));
      return run('valid writes', 'valid', (all) =>
        all
          .filter((op) => op.method !== 'GET' && op.method !== 'DELETE' && !RESTORES.test(op.path))
          .sort((a, b) => lateness(a) - lateness(b)),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'answers every valid delete and restore without a 5xx, deepest resources first (a 404 once one is gone)',
    async () => {
      // The writes before may have locked the space; deleting in it would only be refused.
      const unlocked = await t.app.inject({
        method: 'PATCH',
        url: world.fill('/v1/spaces/{spaceId}'),
        headers: world.admin.headers,
        payload: { editMode: 'live' },
      });
      expect(unlocked.statusCode, unlocked.body).toBe(200);
      const depth = (operation: RouteOperation) => operation.path.split('/').length;
      await run('valid deletes and restores', 'valid', (all) => [
        ...all.filter((operation) => operation.method === 'DELETE').sort((a, b) => depth(b) - depth(a)),
        ...all.filter((operation) => RESTORES.test(operation.path)),
      ]);
    },
    TIMEOUT_MS,
  );

  it('counts what was sent', () => {
    let total = 0;
    for (const [key, tally] of [...tallies].sort()) {
      total += tally.requests;
      const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      process.stdout.write(
        `properties: ${key}: ${tally.requests} requests (${statuses.join(' ')}), ${tally.specChecked} checked against the spec\n`,
      );
    }
    const neverAccepted = operations.filter((operation) => !accepted.has(operation));
    process.stdout.write(
      `properties: ${total} requests; no valid request accepted (yet) by ${neverAccepted.length} operations: ${neverAccepted
        .map((operation) => operation.operationId)
        .join(', ')}\n`,
    );
    // Every operation was sent at least one request of each kind it has.
    expect(total).toBeGreaterThanOrEqual(operations.length * RUNS);
  });
});
