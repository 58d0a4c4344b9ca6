import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Who may call each route of a collection's grants: members with a role on
 * it read them, its admins change them. A route missing here fails the test.
 */
const EXPECTED: Record<string, { may: 'read' | 'admin'; payload?: () => object }> = {
  listUserPermissionsInCollection: { may: 'read' },
  listTeamPermissionsInCollection: { may: 'read' },
  listPermissionsAggregateInCollection: { may: 'read' },
  inviteToCollection: { may: 'admin', payload: () => ({ role: 'edit', users: [reader.user.id] }) },
  updateUserPermissionInCollection: { may: 'admin', payload: () => ({ role: 'comment' }) },
  removeUserFromCollection: { may: 'admin' },
  updateTeamPermissionInCollection: { may: 'admin', payload: () => ({ role: 'comment' }) },
  removeTeamFromCollection: { may: 'admin' },
};

interface Route {
  method: Method;
  path: string;
  operationId: string;
}

/** Every registered route under a collection's permissions, from the app's own OpenAPI document. */
function grantRoutes(): Route[] {
  const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, { operationId: string }>> };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/v1/collections/{collectionId}/permissions'))
    .flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase() as Method,
        path,
        operationId: operation.operationId,
      })),
    );
}

let admin: Account;
let reader: Account;
let guest: Account;
let grantedGuest: Account;
let stranger: Account;
let collectionId: string;
let teamId: string;

function send(account: Account, route: Route) {
  const url = route.path
    .replace('{collectionId}', collectionId)
    .replace('{userId}', reader.user.id)
    .replace('{teamId}', teamId);
  const payload = EXPECTED[route.operationId]?.payload?.();
  return t.app.inject({ method: route.method, url, headers: account.headers, ...(payload ? { payload } : {}) });
}

const grants = () =>
  t.db
    .selectFrom('content_grants')
    .select(['user_id', 'team_id', 'role'])
    .where('collection_id', '=', collectionId)
    .orderBy('id')
    .execute();

beforeAll(async () => {
  const o = await t.factory.team(['read', null]);
  admin = o.admin;
  reader = o.member('read');
  guest = o.member(null);
  grantedGuest = await t.factory.account();
  await t.factory.member(o.organization.id, grantedGuest.user.id, null);
  stranger = await t.factory.account();
  const post = async (method: 'POST' | 'PUT', url: string, payload: object) => {
    const res = await t.app.inject({ method, url, headers: admin.headers, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  collectionId = (await post('POST', `/v1/orgs/${o.organization.id}/collections`, { title: 'Box' })).json().id;
  teamId = (await post('PUT', `/v1/orgs/${o.organization.id}/teams`, { title: 'Team', members: [] })).json().id;
  await post('POST', `/v1/collections/${collectionId}/permissions`, {
    role: 'admin',
    users: [grantedGuest.user.id],
    teams: [teamId],
  });
});

describe('the routes of a collection’s grants', () => {
  it('are all in the table of who may call them', () => {
    const ids = grantRoutes().map((route) => route.operationId);
    expect(ids.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('answer 404 to non-members and to guests nothing is granted to, 403 to guests with a grant, changing nothing', async () => {
    const before = await grants();
    for (const [account, status] of [
      [stranger, 404],
      [guest, 404],
      [grantedGuest, 403],
    ] as const) {
      for (const route of grantRoutes()) {
        const res = await send(account, route);
        expect(res.statusCode, `${route.operationId}: ${res.body}`).toBe(status);
      }
    }
    expect(await grants()).toEqual(before);
  });

  it('let a member with a role read them, and only the collection’s admins change them', async () => {
    const before = await grants();
    for (const route of grantRoutes()) {
      const res = await send(reader, route);
      if (EXPECTED[route.operationId]!.may === 'read') {
        expect(res.statusCode, route.operationId).toBe(200);
        expectSpecResponse(route.operationId, 200, res.json());
      } else {
        expect(res.statusCode, route.operationId).toBe(403);
        expect(res.json().error.message).toBe('Changing who can reach a collection needs the admin role on it');
      }
    }
    expect(await grants()).toEqual(before);
    for (const route of grantRoutes().filter((candidate) => EXPECTED[candidate.operationId]!.may === 'admin')) {
      const res = await send(admin, route);
      expect([204, 205], `${route.operationId}: ${res.body}`).toContain(res.statusCode);
    }
  });
});
