import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/access/scopes.js';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';

/**
 * Who may call each translation-settings route, checked on every route of the
 * route table: a route under /v1/orgs/:organizationId/translations missing
 * from EXPECTED fails the first test, so a new route has to say who may call it.
 */

const t = useTestApp();

const PREFIX = '/v1/orgs/:organizationId/translations';

interface Expectation {
  /** `read`: members of any role but guests; `write`: admins only. */
  access: 'read' | 'write';
  scope: Scope;
  /** What the admin gets. */
  status: number;
  body?: object;
}

const EXPECTED: Record<string, Expectation> = {
  listTranslations: { access: 'read', scope: 'organization:read', status: 200 },
  getTranslation: { access: 'read', scope: 'organization:read', status: 200 },
  createTranslation: { access: 'write', scope: 'organization:write', status: 201, body: { title: 'New' } },
  updateTranslation: {
    access: 'write',
    scope: 'organization:write',
    status: 200,
    body: { title: 'Renamed', languages: ['ko'] },
  },
  deleteTranslation: { access: 'write', scope: 'organization:write', status: 205 },
  // No engine runs translations here: a run asked for is recorded in the audit log, and changes no settings.
  runTranslation: { access: 'write', scope: 'organization:write', status: 204 },
};

let organizationId: string;
let admin: Account;
let members: { read: Account; edit: Account; guest: Account };
let outsider: Account;

beforeAll(async () => {
  const team = await t.factory.team(['read', 'edit', null]);
  organizationId = team.organization.id;
  admin = team.admin;
  members = { read: team.member('read'), edit: team.member('edit'), guest: team.member(null) };
  outsider = await t.factory.account();
});

// The glossary (`/translations-glossary`) is a resource of its own, with its own tests.
const routes = () => t.app.routeTable.filter((route) => route.url === PREFIX || route.url.startsWith(`${PREFIX}/`));

/** Fresh settings for each call, so that the admin's write has something to change. */
async function freshSettings(): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/translations`,
    headers: admin.headers,
    payload: { title: 'Fixture', languages: ['en'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function snapshot() {
  return {
    settings: await t.db.selectFrom('translation_settings').selectAll().orderBy('id').execute(),
    audit: await t.db
      .selectFrom('audit_events')
      .select(['id', 'action'])
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute(),
  };
}

async function call(route: { method: string; url: string }, account: Account | undefined, settingsId: string) {
  const operation = t.app.routeTable.find((r) => r.method === route.method && r.url === route.url)!.operationId!;
  const body = EXPECTED[operation]!.body;
  return t.app.inject({
    method: route.method as 'GET',
    url: route.url.replace(':organizationId', organizationId).replace(':translationSettingsId', settingsId),
    headers: account?.headers ?? {},
    ...(body ? { payload: body } : {}),
  });
}

describe('who may call the translation-settings routes', () => {
  it('lists every route with its access and scope', () => {
    const found = routes().map((route) => route.operationId);
    expect(found.sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const route of routes()) expect(route.scope, route.operationId).toBe(EXPECTED[route.operationId!]!.scope);
  });

  it('answers each caller as its access says, and refused writes change nothing', async () => {
    for (const route of routes()) {
      const expectation = EXPECTED[route.operationId!]!;
      const names = route.url.includes(':translationSettingsId');
      const settingsId = await freshSettings();
      const before = await snapshot();
      const refusals: Array<[string, Account | undefined, number]> = [
        ['no token', undefined, 401],
        ['outsider', outsider, 404],
        // A guest sees none of the organization's own resources: a 403 where the route names none, else a 404.
        ['guest', members.guest, names ? 404 : 403],
      ];
      if (expectation.access === 'write') {
        refusals.push(['read member', members.read, 403], ['edit member', members.edit, 403]);
      }
      const narrow = await t.factory.token(admin.user.id, {
        scopes: [expectation.scope === 'organization:read' ? 'space:read' : 'organization:read'],
      });
      refusals.push(['token without the scope', narrow, 403]);
      for (const [who, account, status] of refusals) {
        const res = await call(route, account, settingsId);
        expect(res.statusCode, `${route.operationId} as ${who}`).toBe(status);
      }
      expect(await snapshot(), `${route.operationId}: refusals changed nothing`).toEqual(before);
      if (expectation.access === 'read') {
        for (const [who, account] of [
          ['read member', members.read],
          ['edit member', members.edit],
        ] as const) {
          expect((await call(route, account, settingsId)).statusCode, `${route.operationId} as ${who}`).toBe(200);
        }
      }
      const scoped = await t.factory.token(admin.user.id, { scopes: [expectation.scope] });
      const res = await call(route, scoped, settingsId);
      expect(res.statusCode, `${route.operationId} as admin`).toBe(expectation.status);
      if (expectation.access === 'write') expect(await snapshot()).not.toEqual(before);
    }
  });
});
