import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app.js';
import { randomString } from '../src/core/ids.js';
import type { Scope } from '../src/access/scopes.js';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectSpecResponse } from './support/spec.js';
import { fanOutEvents } from '../src/integrations/events/fan-out.js';

/**
 * Who may call each integration route, checked on every route of the route
 * table: a route under /v1/integrations that is not in EXPECTED fails the
 * first test, so a new route has to say who may call it.
 */

const t = useTestApp();

const INTEGRATION_ROUTES = '/v1/integrations';

/**
 * `anyone`: any authenticated caller (what they see is filtered);
 * `publish`: admins of the organization named in the body;
 * `owner-admin`: admins of the organization that publishes the integration;
 * `organization-admin`: admins of the organization to install on;
 * `installation-read`: admins of the installation's organization, and of the publisher;
 * `installation-write`: admins of the installation's organization (for a
 * space, of the space).
 */
type Access = 'anyone' | 'publish' | 'owner-admin' | 'organization-admin' | 'installation-read' | 'installation-write';

/** A public integration of the owner organization, installed there, on a space and on a site. */
interface Fixture {
  organizationId: string;
  integrationName: string;
  installationId: string;
  spaceId: string;
  siteId: string;
  /** A space and a site of the organization it is not installed on. */
  spareSpaceId: string;
  spareSiteId: string;
  /** A delivered event of the integration (its installation's), or none when not installed. */
  eventId: string;
}

interface FixtureOptions {
  installed: boolean;
  /** In development mode, with a tunnel. */
  developing: boolean;
}

interface Expectation {
  access: Access;
  scope: Scope;
  /** What the owner's admin gets. */
  status: number;
  body?: (fixture: Fixture) => object;
  /** The admin's write runs on a new fixture built with these options (default: installed). */
  fresh?: Partial<FixtureOptions>;
}

const publishBody = (f: Fixture) => ({
  title: 'Republished',
  description: 'A new version',
  script: 'export default {}',
  organization: f.organizationId,
  visibility: 'public',
  // Never reached: the tests fan events out but send none.
  endpoint: 'https://93.184.215.14/events',
});
const changed = () => ({ externalIds: ['changed'] });

const EXPECTED: Record<string, Expectation> = {
  listIntegrations: { access: 'anyone', scope: 'integration:read', status: 200 },
  getIntegrationByName: { access: 'anyone', scope: 'integration:read', status: 200 },
  publishIntegration: { access: 'publish', scope: 'integration:publish', status: 200, body: publishBody },
  unpublishIntegration: { access: 'owner-admin', scope: 'integration:delete', status: 204 },

  listIntegrationInstallations: { access: 'anyone', scope: 'integration:installations:read', status: 200 },
  installIntegration: {
    access: 'organization-admin',
    scope: 'integration:installations:write',
    status: 201,
    body: (f) => ({ organization: f.organizationId }),
    fresh: { installed: false },
  },
  getIntegrationInstallationById: { access: 'installation-read', scope: 'integration:installations:read', status: 200 },
  updateIntegrationInstallation: {
    access: 'installation-write',
    scope: 'integration:installations:write',
    status: 200,
    body: changed,
  },
  uninstallIntegration: { access: 'installation-write', scope: 'integration:installations:write', status: 205 },

  listIntegrationInstallationSpaces: {
    access: 'installation-read',
    scope: 'integration:installations:read',
    status: 200,
  },
  installIntegrationOnSpace: {
    access: 'installation-write',
    scope: 'integration:installations:write',
    status: 201,
    body: (f) => ({ space: f.spareSpaceId }),
  },
  getIntegrationSpaceInstallation: {
    access: 'installation-read',
    scope: 'integration:installations:read',
    status: 200,
  },
  updateIntegrationSpaceInstallation: {
    access: 'installation-write',
    scope: 'integration:installations:write',
    status: 200,
    body: changed,
  },
  uninstallIntegrationFromSpace: {
    access: 'installation-write',
    scope: 'integration:installations:write',
    status: 205,
  },

  listIntegrationInstallationSites: {
    access: 'installation-read',
    scope: 'integration:installations:read',
    status: 200,
  },
  installIntegrationOnSite: {
    access: 'installation-write',
    scope: 'integration:installations:write',
    status: 201,
    body: (f) => ({ siteId: f.spareSiteId }),
  },
  getIntegrationSiteInstallation: { access: 'installation-read', scope: 'integration:installations:read', status: 200 },
  updateIntegrationSiteInstallation: {
    access: 'installation-write',
    scope: 'integration:installations:write',
    status: 200,
    body: changed,
  },
  uninstallIntegrationFromSite: { access: 'installation-write', scope: 'integration:installations:write', status: 205 },

  // The events sent to the integration, its signing secret and its tasks: the publisher's.
  listIntegrationEvents: { access: 'owner-admin', scope: 'integration:read', status: 200 },
  getIntegrationEvent: { access: 'owner-admin', scope: 'integration:read', status: 200 },
  redeliverIntegrationEvent: { access: 'owner-admin', scope: 'integration:publish', status: 200 },
  rotateIntegrationSigningSecret: { access: 'owner-admin', scope: 'integration:publish', status: 200 },
  queueIntegrationTask: {
    access: 'owner-admin',
    scope: 'integration:publish',
    status: 204,
    body: () => ({ task: { run: 1 } }),
  },

  // The integration platform's calls: the publisher's, on any installation of its integration.
  createIntegrationInstallationToken: { access: 'owner-admin', scope: 'integration:publish', status: 200 },
  setIntegrationDevelopmentMode: {
    access: 'owner-admin',
    scope: 'integration:publish',
    status: 204,
    body: () => ({ tunnelUrl: 'https://93.184.215.14/tunnel' }),
  },
  disableIntegrationDevelopmentMode: {
    access: 'owner-admin',
    scope: 'integration:publish',
    status: 205,
    fresh: { developing: true },
  },
  listIntegrationSpaceInstallations: { access: 'owner-admin', scope: 'integration:installations:read', status: 200 },
  listIntegrationSiteInstallations: { access: 'owner-admin', scope: 'integration:installations:read', status: 200 },
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Routes this table's fixture cannot answer: a render goes to the integration's endpoint, which the
 * fixture's integration lacks. Who may render, where, is tested in integration-render.test.ts.
 */
const TESTED_ELSEWHERE = new Set(['renderIntegrationUIWithGet', 'renderIntegrationUIWithPost']);
interface IntegrationRoute {
  method: Method;
  url: string;
  operationId: string;
  scope: string | undefined;
}

/** This service's own operations, which no GitBook spec describes. */
const SERVICE_OPERATIONS = new Set(['redeliverIntegrationEvent', 'rotateIntegrationSigningSecret']);

const keyOf = (route: RouteEntry) => route.operationId ?? `${route.method} ${route.url}`;

/** Every route of the app under /v1/integrations, in the order they were registered. */
function allIntegrationRoutes(): IntegrationRoute[] {
  return t.app.routeTable
    .filter((route) => route.url === INTEGRATION_ROUTES || route.url.startsWith(`${INTEGRATION_ROUTES}/`))
    .map((route) => ({
      method: route.method as Method,
      url: route.url,
      operationId: keyOf(route),
      scope: route.scope,
    }));
}

const integrationRoutes = () => allIntegrationRoutes().filter((route) => route.operationId in EXPECTED);
const expectationOf = (route: IntegrationRoute) => EXPECTED[route.operationId]!;
const isWrite = (route: IntegrationRoute) => route.method !== 'GET';

function urlOf(route: IntegrationRoute, fixture: Fixture): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => {
    const value = (fixture as unknown as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`No fixture id for :${name} in ${route.method} ${route.url}`);
    return value;
  });
}

function send(account: Account | null, route: IntegrationRoute, fixture: Fixture) {
  const body = expectationOf(route).body?.(fixture);
  return t.app.inject({
    method: route.method,
    url: urlOf(route, fixture),
    ...(account ? { headers: account.headers } : {}),
    ...(body ? { payload: body } : {}),
  });
}

// ---- The fixture, built through the API ----

let ownerAdmin: Account;
let ownerReader: Account;
let otherAdmin: Account;
/** A user of no organization. */
let loner: Account;
/** The owner admin's token, limited to a scope that covers no integration route. */
let narrowToken: Account;
let organizationId: string;
let spaceId: string;
let spareSpaceId: string;
let siteId: string;
let spareSiteId: string;
let shared: Fixture;

async function call<T>(method: Method, url: string, payload: object | undefined, status: number): Promise<T> {
  const res = await t.app.inject({
    method,
    url: `/v1${url}`,
    headers: ownerAdmin.headers,
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json<T>();
}

async function buildFixture({ installed = true, developing = false }: Partial<FixtureOptions> = {}): Promise<Fixture> {
  const integrationName = `access-${randomString(8).toLowerCase()}`;
  await call('POST', `/integrations/${integrationName}`, publishBody({ organizationId } as Fixture), 200);
  if (developing) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/integrations/${integrationName}/dev`,
      headers: ownerAdmin.headers,
      payload: { tunnelUrl: 'https://93.184.215.14/' },
    });
    expect(res.statusCode, res.body).toBe(204);
  }
  let installationId = 'not-installed';
  if (installed) {
    const installation = await call<{ id: string }>(
      'POST',
      `/integrations/${integrationName}/installations`,
      { organization: organizationId },
      201,
    );
    installationId = installation.id;
    const base = `/integrations/${integrationName}/installations/${installationId}`;
    await call('POST', `${base}/spaces`, { space: spaceId }, 201);
    await call('POST', `${base}/sites`, { siteId }, 201);
  }
  // Its installation's events become deliveries, marked delivered (none is sent).
  await fanOutEvents(t.db);
  const delivered = await t.db
    .updateTable('event_deliveries')
    .set({ status: 'success' })
    .where('integration_id', 'in', (eb) =>
      eb.selectFrom('integrations').select('id').where('name', '=', integrationName),
    )
    .returning('id')
    .execute();
  const eventId = delivered[0]?.id ?? 'no-event';
  return { organizationId, integrationName, installationId, spaceId, siteId, spareSpaceId, spareSiteId, eventId };
}

/** Every row of the integration tables: what a refused write must leave as it was. */
async function integrationTables() {
  const tables = [
    'integrations',
    'integration_assets',
    'integration_secrets',
    'integration_installations',
    'integration_space_installations',
    'integration_site_installations',
    'integration_installation_tokens',
    'events',
    'event_deliveries',
  ];
  const snapshot: Record<string, string[]> = {};
  for (const table of tables) {
    snapshot[table] = (
      await sql<{ row: string }>`select t::text as row from ${sql.table(table)} t order by 1`.execute(t.db)
    ).rows.map((r) => r.row);
  }
  return snapshot;
}

const changedTables = (before: Record<string, string[]>, after: Record<string, string[]>) =>
  Object.keys(before).filter((table) => !isDeepStrictEqual(before[table], after[table]));

beforeAll(async () => {
  const team = await t.factory.team(['read']);
  ownerAdmin = team.admin;
  ownerReader = team.member('read');
  organizationId = team.organization.id;
  otherAdmin = await t.factory.account();
  await t.factory.organization(otherAdmin.user.id);
  loner = await t.factory.account();
  narrowToken = await t.factory.token(ownerAdmin.user.id, { scopes: ['organization:read'] });
  spaceId = (await call<{ id: string }>('POST', `/orgs/${organizationId}/spaces`, { title: 'Installed' }, 201)).id;
  spareSpaceId = (await call<{ id: string }>('POST', `/orgs/${organizationId}/spaces`, { title: 'Spare' }, 201)).id;
  siteId = (await insertSite(t.db, organizationId)).id;
  spareSiteId = (await insertSite(t.db, organizationId)).id;
  shared = await buildFixture();
});

// ---- Checking a caller's answers ----

/**
 * Sends every integration route as `account` on the shared fixture and
 * compares the statuses with `expected`, all at once so that one run shows
 * every difference; 2xx bodies must match the spec, and a write answered
 * with an error must leave the integration tables as they were.
 */
async function expectAnswers(
  account: Account | null,
  expected: (route: IntegrationRoute) => number,
  forbidden?: (route: IntegrationRoute) => string | RegExp,
) {
  const answers: Record<string, number> = {};
  const wanted: Record<string, number> = {};
  const problems: string[] = [];
  for (const route of integrationRoutes()) {
    const before = isWrite(route) ? await integrationTables() : undefined;
    const res = await send(account, route, shared);
    const name = route.operationId;
    answers[name] = res.statusCode;
    wanted[name] = expected(route);
    if (res.statusCode >= 400) {
      if (before) {
        const changed = changedTables(before, await integrationTables());
        if (changed.length > 0) problems.push(`${name} answered ${res.statusCode} but changed ${changed.join(', ')}`);
      }
      const error = res.json<{ error?: { code: number; message: string } }>().error ?? { code: 0, message: '' };
      if (error.code !== res.statusCode) problems.push(`${name}: error body ${res.body}`);
      const message = forbidden?.(route);
      if (res.statusCode === 403 && message !== undefined && !error.message.match(message)) {
        problems.push(`${name}: 403 says "${error.message}", not ${String(message)}`);
      }
    } else if (res.statusCode < 300 && res.body !== '') {
      try {
        if (!SERVICE_OPERATIONS.has(name)) expectSpecResponse(name, res.statusCode, res.json());
      } catch (failure) {
        problems.push((failure as Error).message);
      }
    }
  }
  expect({ answers, problems }).toEqual({ answers: wanted, problems: [] });
}

/** A member of the owner organization without the admin role: they see the organization, so a 403. */
const ownerMemberAnswer = (route: IntegrationRoute) => (expectationOf(route).access === 'anyone' ? 200 : 403);

/**
 * A caller with no role in the owner organization: the public integration is
 * theirs to read, and its unpublishing a 403 (they see it); the organization
 * and its installations are a 404.
 */
const outsiderAnswer = (route: IntegrationRoute) => {
  const { access } = expectationOf(route);
  if (access === 'anyone') return 200;
  return access === 'owner-admin' ? 403 : 404;
};

// ---- The tests ----

describe('the integration routes', () => {
  it('are all in the table of who may call them, and the table names no route that is gone', () => {
    const names = allIntegrationRoutes().map((route) => route.operationId);
    expect(names.length).toBe(31);
    expect(
      names.filter((name) => !(name in EXPECTED) && !TESTED_ELSEWHERE.has(name)),
      'integration routes missing from EXPECTED: decide who may call them',
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((name) => !names.includes(name)),
      'EXPECTED names operations that are not registered',
    ).toEqual([]);
  });

  it('each declare the scope the table gives them, reads a read scope and writes another', () => {
    const declared = Object.fromEntries(integrationRoutes().map((route) => [route.operationId, route.scope]));
    const wanted = Object.fromEntries(
      integrationRoutes().map((route) => [route.operationId, expectationOf(route).scope]),
    );
    expect(declared).toEqual(wanted);
    for (const route of integrationRoutes()) {
      expect(expectationOf(route).scope.endsWith(':read'), route.operationId).toBe(!isWrite(route));
    }
  });
});

describe('an admin of the owner organization', () => {
  it('reads every integration route', async () => {
    const reads = integrationRoutes().filter((route) => !isWrite(route));
    const answers: Record<string, number> = {};
    for (const route of reads) {
      const res = await send(ownerAdmin, route, shared);
      answers[route.operationId] = res.statusCode;
      if (res.statusCode === 200) expectSpecResponse(route.operationId, 200, res.json());
    }
    expect(answers).toEqual(Object.fromEntries(reads.map((route) => [route.operationId, 200])));
  });

  it('makes every write, each on an integration of its own, and each changes the integration tables', async () => {
    const answers: Record<string, number> = {};
    const wanted: Record<string, number> = {};
    const unchanged: string[] = [];
    for (const route of integrationRoutes().filter(isWrite)) {
      const expectation = expectationOf(route);
      const fixture = await buildFixture(expectation.fresh);
      const before = await integrationTables();
      const res = await send(ownerAdmin, route, fixture);
      answers[route.operationId] = res.statusCode;
      wanted[route.operationId] = expectation.status;
      if ((res.statusCode === 200 || res.statusCode === 201) && !SERVICE_OPERATIONS.has(route.operationId)) {
        expectSpecResponse(route.operationId, res.statusCode, res.json());
      }
      if (res.statusCode === 204 || res.statusCode === 205) expect(res.body, route.operationId).toBe('');
      if (changedTables(before, await integrationTables()).length === 0) unchanged.push(route.operationId);
    }
    expect({ answers, unchanged }).toEqual({ answers: wanted, unchanged: [] });
  });
});

describe('a member of the owner organization with the read role', () => {
  it('reads the integration and its list of installations (none theirs), and gets 403 on everything else, changing nothing', async () => {
    await expectAnswers(ownerReader, ownerMemberAnswer, () => /needs the admin role/);
  });
});

describe('an admin of another organization', () => {
  it('reads the public integration, gets 403 on unpublishing it and 404 on the rest, changing nothing', async () => {
    await expectAnswers(otherAdmin, outsiderAnswer);
  });
});

describe('a user of no organization', () => {
  it('reads the public integration, gets 403 on unpublishing it and 404 on the rest, changing nothing', async () => {
    await expectAnswers(loner, outsiderAnswer);
  });
});

describe('the owner admin’s token limited to organization:read', () => {
  it('gets 403 on every integration route, naming the scope the route needs, and changes nothing', async () => {
    await expectAnswers(
      narrowToken,
      () => 403,
      (route) => `This token lacks the "${route.scope}" scope this operation needs`,
    );
  });
});

describe('a request without a token', () => {
  it('gets 401 on every integration route and changes nothing', async () => {
    await expectAnswers(null, () => 401);
  });
});
