import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app.js';
import { newId } from '../src/core/ids.js';
import type { Scope } from '../src/access/scopes.js';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

/**
 * Who may call each OpenAPI spec route, checked on every route of the route
 * table: a route under /v1/orgs/:organizationId/openapi that is not in
 * EXPECTED fails the first test, so a new route has to say who may call it.
 */

const t = useTestApp();

const SPEC_ROUTES = '/v1/orgs/:organizationId/openapi';

/** `read`: members of any role; `write`: admins. Guests get 403 on the organization-level routes, 404 elsewhere. */
type Access = 'read' | 'write';

interface Expectation {
  access: Access;
  scope: Scope;
  /** What the admin gets. */
  status: number;
  body?: () => object;
  /** Not an operation of the GitBook spec: its answer is not checked against it. */
  ownOperation?: boolean;
  /** An operation of @gitbook/api 0.202.0 only: its answer is checked against that spec. */
  newest?: boolean;
}

const read = (extra: Partial<Expectation> = {}): Expectation => ({
  access: 'read',
  scope: 'openapi:read',
  status: 200,
  ...extra,
});
const write = (status: number, body?: () => object): Expectation => ({
  access: 'write',
  scope: 'openapi:write',
  status,
  ...(body ? { body } : {}),
});

const TEXT = '{"openapi":"3.0.3","info":{"title":"Changed","version":"2"},"paths":{}}';

/** Every spec operation, by operationId. Each write's body would change the tables if it went through. */
const EXPECTED: Record<string, Expectation> = {
  listOpenAPISpecs: read(),
  createOpenAPISpec: write(201, () => ({ slug: `another-${newId().toLowerCase()}`, source: { text: TEXT } })),
  getOpenAPISpecBySlug: read(),
  createOrUpdateOpenAPISpecBySlug: write(200, () => ({ source: { text: TEXT } })),
  updateOpenAPISpecBySlug: write(200, () => ({ visibility: 'public' })),
  deleteOpenAPISpecBySlug: write(205),
  listOpenAPISpecVersions: read(),
  getLatestOpenAPISpecVersion: read(),
  getLatestOpenAPISpecVersionContent: read(),
  getOpenAPISpecVersionById: read(),
  getOpenAPISpecVersionContentById: read(),
  getOpenAPISpecVersionRawById: read({ ownOperation: true }),
  getLatestOpenAPISpecVersionContentRaw: read({ newest: true }),
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface SpecRoute {
  method: Method;
  url: string;
  operationId: string;
  scope: string | undefined;
}

interface Fixture {
  organizationId: string;
  specSlug: string;
  versionId: string;
}

const keyOf = (route: RouteEntry) => route.operationId ?? `${route.method} ${route.url}`;

function allSpecRoutes(): SpecRoute[] {
  return t.app.routeTable
    .filter((route) => route.url === SPEC_ROUTES || route.url.startsWith(`${SPEC_ROUTES}/`))
    .map((route) => ({
      method: route.method as Method,
      url: route.url,
      operationId: keyOf(route),
      scope: route.scope,
    }));
}
const specRoutes = () => allSpecRoutes().filter((route) => route.operationId in EXPECTED);
const expectationOf = (route: SpecRoute) => EXPECTED[route.operationId]!;
const isWrite = (route: SpecRoute) => route.method !== 'GET';
const isOrganizationLevel = (route: SpecRoute) => route.url === SPEC_ROUTES;

function urlOf(route: SpecRoute, values: Fixture): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name as keyof Fixture];
    if (value === undefined) throw new Error(`No fixture value for :${name} in ${route.method} ${route.url}`);
    return value;
  });
}

function send(account: Account | null, route: SpecRoute, fixture: Fixture) {
  const body = expectationOf(route).body?.();
  return t.app.inject({
    method: route.method,
    url: urlOf(route, fixture),
    ...(account ? { headers: account.headers } : {}),
    ...(body ? { payload: body } : {}),
  });
}

let admin: Account;
let reader: Account;
let guest: Account;
let stranger: Account;
/** The admin's token, limited to a scope that covers no spec route. */
let narrowToken: Account;
let organizationId: string;
let fixture: Fixture;

/** A spec with one version, made through the API and a version row as a worker would store it. */
async function buildSpec(): Promise<Fixture> {
  const specSlug = `spec-${newId().toLowerCase()}`;
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/openapi`,
    headers: admin.headers,
    payload: { slug: specSlug, source: { url: 'https://example.com/openapi.json' } },
  });
  expect(res.statusCode, res.body).toBe(201);
  const specId = res.json().id as string;
  const versionId = newId();
  await t.db
    .insertInto('openapi_spec_versions')
    .values({
      id: versionId,
      organization_id: organizationId,
      spec_id: specId,
      source_url: 'https://example.com/openapi.json',
      content_hash: 'a'.repeat(64),
      entry_text: TEXT,
      entry_format: 'json',
      filesystem: JSON.stringify({
        entrypoint: 'https://example.com/openapi.json',
        files: [{ path: 'https://example.com/openapi.json', isEntrypoint: true, specification: JSON.parse(TEXT) }],
      }),
      outline: JSON.stringify({ info: { title: 'T', version: '1' }, tags: [], operations: [], operationCount: 0 }),
    })
    .execute();
  await t.db
    .updateTable('openapi_specs')
    .set({ last_version_id: versionId, processing_state: 'complete' })
    .where('id', '=', specId)
    .execute();
  await t.db.deleteFrom('openapi_spec_jobs').where('spec_id', '=', specId).execute();
  return { organizationId, specSlug, versionId };
}

/** Every row of the spec tables in the organization: what a refused write must leave as it was. */
async function specTables() {
  const org = organizationId;
  return {
    openapi_specs: await t.db
      .selectFrom('openapi_specs')
      .selectAll()
      .where('organization_id', '=', org)
      .orderBy('id')
      .execute(),
    openapi_spec_versions: await t.db
      .selectFrom('openapi_spec_versions')
      .select(['id', 'spec_id', 'content_hash'])
      .where('organization_id', '=', org)
      .orderBy('id')
      .execute(),
    openapi_spec_jobs: await t.db
      .selectFrom('openapi_spec_jobs')
      .selectAll()
      .where('organization_id', '=', org)
      .orderBy('id')
      .execute(),
  };
}
type Tables = Awaited<ReturnType<typeof specTables>>;
const changedTables = (before: Tables, after: Tables) =>
  (Object.keys(before) as Array<keyof Tables>).filter((table) => !isDeepStrictEqual(before[table], after[table]));

beforeAll(async () => {
  const team = await t.factory.team(['read', null]);
  admin = team.admin;
  organizationId = team.organization.id;
  reader = team.member('read');
  guest = team.member(null);
  stranger = await t.factory.account();
  // The stranger is an admin elsewhere: that must open nothing here.
  await t.factory.organization(stranger.user.id);
  narrowToken = await t.factory.token(admin.user.id, { scopes: ['space:read'] });
  fixture = await buildSpec();
});

/**
 * Sends every spec route as `account` and compares the statuses with
 * `expected`, all at once so that one run shows every difference; a write
 * answered with an error must leave the spec tables as they were, and a 404
 * must say exactly what an unknown organization and spec say.
 */
async function expectAnswers(account: Account | null, expected: (route: SpecRoute) => number) {
  const answers: Record<string, number> = {};
  const wanted: Record<string, number> = {};
  const problems: string[] = [];
  for (const route of specRoutes()) {
    const before = isWrite(route) ? await specTables() : undefined;
    const res = await send(account, route, fixture);
    answers[route.operationId] = res.statusCode;
    wanted[route.operationId] = expected(route);
    if (res.statusCode < 400) continue;
    if (before) {
      const changed = changedTables(before, await specTables());
      if (changed.length > 0)
        problems.push(`${route.operationId} answered ${res.statusCode} but changed ${changed.join(', ')}`);
    }
    const error = res.json<{ error?: { code: number } }>().error;
    if (error?.code !== res.statusCode) problems.push(`${route.operationId}: error body ${res.body}`);
    if (res.statusCode === 404) {
      const unknown = await send(account, route, {
        organizationId: newId(),
        specSlug: 'no-such-spec',
        versionId: newId(),
      });
      if (unknown.body !== res.body) {
        problems.push(`${route.operationId}: 404 says ${res.body}, for an unknown spec ${unknown.body}`);
      }
    }
  }
  expect({ answers, problems }).toEqual({ answers: wanted, problems: [] });
}

describe('the OpenAPI spec routes', () => {
  it('are all in the table of who may call them, and the table names no route that is gone', () => {
    const names = allSpecRoutes().map((route) => route.operationId);
    expect(names.length).toBeGreaterThanOrEqual(11);
    expect(
      names.filter((name) => !(name in EXPECTED)),
      'spec routes missing from EXPECTED: decide who may call them',
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((name) => !names.includes(name)),
      'EXPECTED names operations that are not registered',
    ).toEqual([]);
  });

  it('each declare the scope the table gives them: reads a read scope, writes a write scope', () => {
    for (const route of specRoutes()) {
      const { access, scope } = expectationOf(route);
      expect(route.scope, route.operationId).toBe(scope);
      expect(access === 'write', `${route.operationId} is a ${route.method}`).toBe(isWrite(route));
    }
  });
});

describe('an admin of the organization', () => {
  it('reads every spec route, each answer as the GitBook spec describes it', async () => {
    for (const route of specRoutes().filter((route) => !isWrite(route))) {
      const res = await send(admin, route, fixture);
      expect(res.statusCode, `${route.operationId}: ${res.body}`).toBe(200);
      const { ownOperation, newest } = expectationOf(route);
      if (newest) expectNewestSpecResponse(route.operationId, 200, res.json());
      else if (!ownOperation) expectSpecResponse(route.operationId, 200, res.json());
    }
  });

  it('makes every write, each on a spec of its own, and each changes the spec tables', async () => {
    for (const route of specRoutes().filter(isWrite)) {
      const own = await buildSpec();
      const before = await specTables();
      const res = await send(admin, route, own);
      expect(res.statusCode, `${route.operationId}: ${res.body}`).toBe(expectationOf(route).status);
      if (res.statusCode === 205) expect(res.body).toBe('');
      else expectSpecResponse(route.operationId, res.statusCode, res.json());
      expect(changedTables(before, await specTables()), route.operationId).not.toEqual([]);
    }
  });
});

describe('other callers', () => {
  it('a read member reads, and is refused every write (403)', async () => {
    await expectAnswers(reader, (route) => (expectationOf(route).access === 'read' ? 200 : 403));
  });

  it('a guest is refused the organization’s list and create (403), and sees no spec (404)', async () => {
    await expectAnswers(guest, (route) => (isOrganizationLevel(route) ? 403 : 404));
  });

  it('a non-member sees nothing (404)', async () => {
    await expectAnswers(stranger, () => 404);
  });

  it('a token without an openapi scope is refused everything (403)', async () => {
    await expectAnswers(narrowToken, () => 403);
  });

  it('a request without a token is refused everything (401)', async () => {
    await expectAnswers(null, () => 401);
  });
});
