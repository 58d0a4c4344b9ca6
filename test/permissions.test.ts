import { MemberRole } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import type { Role } from '../src/db/types.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

async function call(account: Account, method: Method, url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: account.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** An organization with an admin, one member per role given, and helpers to make content and teams. */
async function organization(roles: Array<Role | null> = ['read', 'edit', null]) {
  const o = await t.factory.team(roles);
  const orgId = o.organization.id;
  const made = async (url: string, payload: unknown) => {
    const res = await call(o.admin, url.endsWith('/teams') ? 'PUT' : 'POST', url, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  return {
    ...o,
    orgId,
    space: (title: string, parent?: string) =>
      made(`/v1/orgs/${orgId}/spaces`, { title, ...(parent ? { parent } : {}) }) as Promise<{ id: string }>,
    collection: (title: string, parent?: string) =>
      made(`/v1/orgs/${orgId}/collections`, { title, ...(parent ? { parent } : {}) }) as Promise<{ id: string }>,
    teamOf: (title: string, members: string[]) =>
      made(`/v1/orgs/${orgId}/teams`, { title, members }) as Promise<{ id: string }>,
    /** A member added with `role` (null: a guest). */
    newMember: async (role: Role | null) => {
      const account = await t.factory.account();
      await t.factory.member(orgId, account.user.id, role);
      return account;
    },
  };
}

/** The grants stored on a space or collection, users' first, each kind by id (one invitation makes them at once). */
const grantsIn = async (column: 'space_id' | 'collection_id', id: string) =>
  (
    await t.db.selectFrom('content_grants').select(['user_id', 'team_id', 'role']).where(column, '=', id).execute()
  ).sort(
    (a, b) => (a.team_id ?? '').localeCompare(b.team_id ?? '') || (a.user_id ?? '').localeCompare(b.user_id ?? ''),
  );
const byId = <T extends { user_id: string | null }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.user_id ?? '').localeCompare(b.user_id ?? ''));

describe('grants on a space', () => {
  it('are given to members and teams by the space admins, listed, changed and taken away', async () => {
    const o = await organization();
    const space = await o.space('Handbook');
    const team = await o.teamOf('Writers', [o.member('read').user.id]);
    const base = `/v1/spaces/${space.id}/permissions`;

    const invited = await call(o.admin, 'POST', base, {
      role: 'edit',
      users: [o.member('read').user.id, o.member(null).user.id],
      teams: [team.id],
    });
    expect(invited.statusCode, invited.body).toBe(204);
    expect(await grantsIn('space_id', space.id)).toEqual([
      ...byId([
        { user_id: o.member('read').user.id, team_id: null, role: 'edit' },
        { user_id: o.member(null).user.id, team_id: null, role: 'edit' },
      ]),
      { user_id: null, team_id: team.id, role: 'edit' },
    ]);

    const users = await call(o.member('read'), 'GET', `${base}/users`);
    expect(users.statusCode).toBe(200);
    expectSpecResponse('listUserPermissionsInSpace', 200, users.json());
    expect(users.json().count).toBe(2);
    // One invitation gives its grants at once: the list orders them by grant id.
    expect(
      users
        .json()
        .items.map((item: { permission: string; user: { id: string } }) => [item.permission, item.user.id])
        .sort((a: string[], b: string[]) => a[1]!.localeCompare(b[1]!)),
    ).toEqual(
      [
        ['edit', o.member('read').user.id],
        ['edit', o.member(null).user.id],
      ].sort((a, b) => a[1]!.localeCompare(b[1]!)),
    );
    const teams = await call(o.member('read'), 'GET', `${base}/teams`);
    expectSpecResponse('listTeamPermissionsInSpace', 200, teams.json());
    expect(teams.json().items).toEqual([
      {
        permission: 'edit',
        team: expect.objectContaining({ id: team.id, title: 'Writers', permissions: { view: true, admin: false } }),
      },
    ]);

    // A second invitation replaces the role; PATCH sets one.
    expect((await call(o.admin, 'POST', base, { role: 'comment', users: [o.member(null).user.id] })).statusCode).toBe(
      204,
    );
    const patched = await call(o.admin, 'PATCH', `${base}/teams/${team.id}`, { role: 'review' });
    expect(patched.statusCode).toBe(204);
    expect(await grantsIn('space_id', space.id)).toEqual([
      ...byId([
        { user_id: o.member('read').user.id, team_id: null, role: 'edit' },
        { user_id: o.member(null).user.id, team_id: null, role: 'comment' },
      ]),
      { user_id: null, team_id: team.id, role: 'review' },
    ]);

    // DELETE: 205 when there was a grant, 204 when there was none; PATCH null takes it away too.
    expect((await call(o.admin, 'DELETE', `${base}/users/${o.member('read').user.id}`)).statusCode).toBe(205);
    expect((await call(o.admin, 'DELETE', `${base}/users/${o.member('read').user.id}`)).statusCode).toBe(204);
    expect((await call(o.admin, 'PATCH', `${base}/teams/${team.id}`, { role: null })).statusCode).toBe(204);
    expect((await call(o.admin, 'POST', base, { role: null, users: [o.member(null).user.id] })).statusCode).toBe(204);
    expect(await grantsIn('space_id', space.id)).toEqual([]);
  });

  it('refuse bad input, unknown grantees, non-admins, guests and non-members, changing nothing', async () => {
    const o = await organization();
    const space = await o.space('Handbook');
    const other = await organization([]);
    const foreignTeam = await other.teamOf('Elsewhere', []);
    const stranger = await t.factory.account();
    const base = `/v1/spaces/${space.id}/permissions`;
    const reader = o.member('read').user.id;
    const cases: Array<[Account, Method, string, unknown, number, RegExp]> = [
      [o.admin, 'POST', base, { role: 'edit' }, 400, /^body must name users or teams$/],
      [o.admin, 'POST', base, { role: 'owner', users: [reader] }, 400, /^body\/role/],
      [o.admin, 'POST', base, { users: [reader] }, 400, /^body\/role is required$/],
      [o.admin, 'POST', base, { role: 'edit', users: [] }, 400, /^body\/users must NOT have fewer than 1 items$/],
      [o.admin, 'POST', base, { role: 'edit', users: [reader, reader] }, 400, /duplicate items/],
      [
        o.admin,
        'POST',
        base,
        { role: 'edit', users: Array.from({ length: 101 }, (_, i) => `u${i}`) },
        400,
        /^body\/users must NOT have more than 100 items$/,
      ],
      [
        o.admin,
        'POST',
        base,
        { role: 'edit', users: [reader, stranger.user.id] },
        404,
        /^No member ".+" in the space's organization$/,
      ],
      [
        o.admin,
        'POST',
        base,
        { role: 'edit', teams: [foreignTeam.id] },
        404,
        /^No team ".+" in the space's organization$/,
      ],
      [o.admin, 'PATCH', `${base}/users/${stranger.user.id}`, { role: 'edit' }, 404, /^No member/],
      [o.admin, 'PATCH', `${base}/users/${reader}`, {}, 400, /^body\/role is required$/],
      [o.member('edit'), 'POST', base, { role: 'admin', users: [reader] }, 403, /needs the admin role on it$/],
      [o.member('edit'), 'DELETE', `${base}/users/${reader}`, undefined, 403, /needs the admin role on it$/],
      [o.member(null), 'GET', `${base}/users`, undefined, 404, /^No space/],
      [stranger, 'GET', `${base}/aggregate`, undefined, 404, /^No space/],
      [stranger, 'POST', base, { role: 'edit', users: [reader] }, 404, /^No space/],
    ];
    for (const [account, method, url, payload, status, message] of cases) {
      const res = await call(account, method, url, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      expect(res.json().error.message).toMatch(message);
    }
    expect(await grantsIn('space_id', space.id)).toEqual([]);

    // A guest with a role on the space still does not read who can reach it.
    await call(o.admin, 'POST', base, { role: 'admin', users: [o.member(null).user.id] });
    const guestList = await call(o.member(null), 'GET', `${base}/users`);
    expect(guestList.statusCode).toBe(403);
    expect(guestList.json().error.message).toBe('Guests cannot see or change who can reach a space');
  });

  it('aggregate everyone who reaches the space with their role and why, filtered by role', async () => {
    const o = await organization(['read', 'edit', null]);
    const box = await o.collection('Box');
    await call(o.admin, 'PATCH', `/v1/collections/${box.id}`, { defaultLevel: 'comment' });
    const space = await o.space('Inside', box.id);
    const outsider = await o.newMember(null);
    const team = await o.teamOf('Reviewers', [o.member(null).user.id]);
    await call(o.admin, 'POST', `/v1/collections/${box.id}/permissions`, { role: 'review', teams: [team.id] });
    await call(o.admin, 'POST', `/v1/spaces/${space.id}/permissions`, {
      role: 'create',
      users: [o.member('read').user.id],
    });

    const res = await call(o.admin, 'GET', `/v1/spaces/${space.id}/permissions/aggregate`);
    expect(res.statusCode).toBe(200);
    expectSpecResponse('listPermissionsAggregateInSpace', 200, res.json());
    const byUser = Object.fromEntries(
      res
        .json()
        .items.map((item: { user: { id: string }; permission: string; via: unknown[] }) => [
          item.user.id,
          { permission: item.permission, via: item.via },
        ]),
    );
    expect(res.json().count).toBe(4);
    expect(byUser[outsider.user.id]).toBeUndefined();
    expect(byUser[o.admin.user.id]).toEqual({
      permission: 'admin',
      via: [
        { kind: 'organization', role: 'admin' },
        { kind: 'default-level', role: 'comment', collection: box.id },
      ],
    });
    expect(byUser[o.member('read').user.id]).toEqual({
      permission: 'create',
      via: [
        { kind: 'organization', role: 'read' },
        { kind: 'default-level', role: 'comment', collection: box.id },
        { kind: 'user', role: 'create', space: space.id },
      ],
    });
    expect(byUser[o.member('edit').user.id].permission).toBe('edit');
    expect(byUser[o.member(null).user.id]).toEqual({
      permission: 'review',
      via: [{ kind: 'team', role: 'review', team: team.id, collection: box.id }],
    });

    const reviewers = await call(o.admin, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?role=review`);
    expect(reviewers.json().count).toBe(1);
    expect(reviewers.json().items[0].user.id).toBe(o.member(null).user.id);

    const paged = await call(o.admin, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=3`);
    expect(paged.json().items).toHaveLength(3);
    const rest = await call(
      o.admin,
      'GET',
      `/v1/spaces/${space.id}/permissions/aggregate?limit=3&page=${paged.json().next.page}`,
    );
    expect(rest.json().items).toHaveLength(1);
    expect(rest.json().next).toBeUndefined();
  });
});

describe('what grants open', () => {
  it('a team granted edit on a collection edits every space in it and nothing else', async () => {
    const o = await organization(['read', null]);
    const box = await o.collection('Box');
    const inner = await o.collection('Inner', box.id);
    const spaces = [await o.space('One', box.id), await o.space('Two', inner.id)];
    const outside = await o.space('Outside');
    const team = await o.teamOf('Editors', [o.member('read').user.id, o.member(null).user.id]);
    const grant = await call(o.admin, 'POST', `/v1/collections/${box.id}/permissions`, {
      role: 'edit',
      teams: [team.id],
    });
    expect(grant.statusCode).toBe(204);

    for (const account of [o.member('read'), o.member(null)]) {
      for (const space of spaces) {
        const res = await call(account, 'PATCH', `/v1/spaces/${space.id}`, { title: 'Edited' });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().permissions).toMatchObject({ edit: true, admin: false });
      }
    }
    // Outside the collection: the reader stays a reader, the guest sees nothing.
    const refused = await call(o.member('read'), 'PATCH', `/v1/spaces/${outside.id}`, { title: 'No' });
    expect(refused.statusCode).toBe(403);
    expect((await call(o.member(null), 'GET', `/v1/spaces/${outside.id}`)).statusCode).toBe(404);
    // The collections themselves: editors there too, but not admins.
    const read = await call(o.member(null), 'GET', `/v1/collections/${inner.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().permissions).toMatchObject({ view: true, create: false, admin: false });
  });

  it('a guest invited to one space sees that space and nothing else, everywhere', async () => {
    const o = await organization(['read', null]);
    const guest = o.member(null);
    const box = await o.collection('Box');
    const shared = await o.space('Shared', box.id);
    const hidden = await o.space('Hidden', box.id);
    await call(o.admin, 'PATCH', `/v1/spaces/${hidden.id}`, { visibility: 'public' });
    await call(o.admin, 'POST', `/v1/spaces/${shared.id}/permissions`, { role: 'comment', users: [guest.user.id] });

    const spaces = await call(guest, 'GET', `/v1/orgs/${o.orgId}/spaces`);
    expect(spaces.statusCode).toBe(200);
    expect(spaces.json().count).toBe(1);
    expect(spaces.json().items.map((space: { id: string }) => space.id)).toEqual([shared.id]);
    expect(spaces.json().items[0].permissions).toMatchObject({ view: true, comment: true, edit: false });
    expect((await call(guest, 'GET', `/v1/orgs/${o.orgId}/collections`)).json()).toEqual({ count: 0, items: [] });
    expect((await call(guest, 'GET', `/v1/collections/${box.id}`)).statusCode).toBe(404);
    expect((await call(guest, 'GET', `/v1/collections/${box.id}/spaces`)).statusCode).toBe(404);
    const own = await call(o.admin, 'GET', `/v1/orgs/${o.orgId}/members/${guest.user.id}/spaces`);
    expect(
      own.json().items.map((item: { space: { id: string }; permission: string }) => [item.space.id, item.permission]),
    ).toEqual([[shared.id, 'comment']]);
    // The workshop of the shared space is theirs to read and comment; the public one only as a visitor.
    expect((await call(guest, 'GET', `/v1/spaces/${shared.id}/change-requests`)).statusCode).toBe(200);
    expect((await call(guest, 'GET', `/v1/spaces/${shared.id}/comments`)).statusCode).toBe(200);
    expect((await call(guest, 'GET', `/v1/spaces/${hidden.id}/comments`)).statusCode).toBe(404);
    const search = await call(guest, 'GET', `/v1/orgs/${o.orgId}/search?query=anything`);
    expect(search.statusCode).toBe(200);

    // Taken away: nothing again.
    await call(o.admin, 'DELETE', `/v1/spaces/${shared.id}/permissions/users/${guest.user.id}`);
    expect((await call(guest, 'GET', `/v1/orgs/${o.orgId}/spaces`)).json()).toEqual({ count: 0, items: [] });
    expect((await call(guest, 'GET', `/v1/spaces/${shared.id}`)).statusCode).toBe(404);
  });

  it('a guest granted a collection sees it, what is inside, and its top level as theirs', async () => {
    const o = await organization([null]);
    const guest = o.member(null);
    const outer = await o.collection('Outer');
    const box = await o.collection('Box', outer.id);
    const inner = await o.collection('Inner', box.id);
    const inBox = await o.space('In box', box.id);
    const inInner = await o.space('In inner', inner.id);
    await o.space('In outer', outer.id);
    await call(o.admin, 'PATCH', `/v1/collections/${box.id}`, { defaultLevel: 'create' });
    await call(o.admin, 'POST', `/v1/collections/${box.id}/permissions`, { role: 'read', users: [guest.user.id] });

    const all = await call(guest, 'GET', `/v1/orgs/${o.orgId}/collections`);
    expect(new Set(all.json().items.map((c: { id: string }) => c.id))).toEqual(new Set([box.id, inner.id]));
    // A guest gets nothing from default levels: read, as granted.
    expect(all.json().items[0].permissions).toMatchObject({ view: true, create: false });
    const top = await call(guest, 'GET', `/v1/orgs/${o.orgId}/collections?nested=false`);
    expect(top.json().items.map((c: { id: string }) => c.id)).toEqual([box.id]);
    const spaces = await call(guest, 'GET', `/v1/orgs/${o.orgId}/spaces`);
    expect(new Set(spaces.json().items.map((s: { id: string }) => s.id))).toEqual(new Set([inBox.id, inInner.id]));
    expect(spaces.json().count).toBe(2);
    expect((await call(guest, 'GET', `/v1/collections/${inner.id}/spaces`)).json().count).toBe(1);
    expect((await call(guest, 'GET', `/v1/collections/${outer.id}`)).statusCode).toBe(404);
  });
});

describe('concurrent grants', () => {
  it('keep one grant per person and leave none to someone who left meanwhile', async () => {
    const o = await organization(['read']);
    const space = await o.space('Busy');
    const base = `/v1/spaces/${space.id}/permissions`;
    const roles: Role[] = ['read', 'comment', 'review', 'edit', 'create', 'admin', 'read', 'edit'];
    const answers = await Promise.all(
      roles.map((role) => call(o.admin, 'POST', base, { role, users: [o.member('read').user.id] })),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(roles.map(() => 204));
    const stored = await grantsIn('space_id', space.id);
    expect(stored).toHaveLength(1);
    expect(roles).toContain(stored[0]!.role);

    for (let round = 0; round < 4; round++) {
      const person = await o.newMember(null);
      const [invited, removed] = await Promise.all([
        call(o.admin, 'POST', base, { role: 'edit', users: [person.user.id] }),
        call(o.admin, 'DELETE', `/v1/orgs/${o.orgId}/members/${person.user.id}`),
      ]);
      expect(removed.statusCode).toBeLessThan(300);
      // Invited before the removal (then removed with it), or refused as no longer a member.
      expect([204, 404], invited.body).toContain(invited.statusCode);
      const left = await t.db.selectFrom('content_grants').select('id').where('user_id', '=', person.user.id).execute();
      expect(left).toEqual([]);
    }
  });
});

describe('grants follow people, teams and content', () => {
  it('go when the member leaves, when the team is deleted, and with the content', async () => {
    const o = await organization(['read', null]);
    const space = await o.space('Handbook');
    const box = await o.collection('Box');
    const team = await o.teamOf('Writers', [o.member('read').user.id]);
    await call(o.admin, 'POST', `/v1/spaces/${space.id}/permissions`, {
      role: 'edit',
      users: [o.member(null).user.id, o.member('read').user.id],
      teams: [team.id],
    });
    await call(o.admin, 'POST', `/v1/collections/${box.id}/permissions`, {
      role: 'edit',
      users: [o.member(null).user.id],
    });

    const left = await call(o.admin, 'DELETE', `/v1/orgs/${o.orgId}/members/${o.member(null).user.id}`);
    expect(left.statusCode).toBeLessThan(300);
    expect((await call(o.admin, 'DELETE', `/v1/orgs/${o.orgId}/teams/${team.id}`)).statusCode).toBeLessThan(300);
    expect(await grantsIn('space_id', space.id)).toEqual([
      { user_id: o.member('read').user.id, team_id: null, role: 'edit' },
    ]);
    expect(await grantsIn('collection_id', box.id)).toEqual([]);

    await call(o.admin, 'DELETE', `/v1/collections/${box.id}`);
    expect(await grantsIn('collection_id', box.id)).toEqual([]);
  });

  it('a transfer keeps the grants of members of the new organization and drops the others', async () => {
    const o = await organization(['read', 'edit']);
    const target = await t.factory.organization(o.admin.user.id, { title: 'Target' });
    await t.factory.member(target.id, o.member('read').user.id, 'read');
    const box = await o.collection('Box');
    const inner = await o.collection('Inner', box.id);
    const space = await o.space('Inside', inner.id);
    const alone = await o.space('Alone');
    const team = await o.teamOf('Writers', [o.member('read').user.id]);
    for (const url of [
      `/v1/collections/${inner.id}/permissions`,
      `/v1/spaces/${space.id}/permissions`,
      `/v1/spaces/${alone.id}/permissions`,
    ]) {
      const res = await call(o.admin, 'POST', url, {
        role: 'edit',
        users: [o.member('read').user.id, o.member('edit').user.id],
        teams: [team.id],
      });
      expect(res.statusCode).toBe(204);
    }

    const moved = await call(o.admin, 'POST', `/v1/collections/${box.id}/transfer`, { organization: target.id });
    expect(moved.statusCode, moved.body).toBe(200);
    const kept = [{ user_id: o.member('read').user.id, team_id: null, role: 'edit' }];
    expect(await grantsIn('collection_id', inner.id)).toEqual(kept);
    expect(await grantsIn('space_id', space.id)).toEqual(kept);
    const single = await call(o.admin, 'POST', `/v1/spaces/${alone.id}/transfer`, { organization: target.id });
    expect(single.statusCode, single.body).toBe(200);
    expect(await grantsIn('space_id', alone.id)).toEqual(kept);
    const rows = await t.db
      .selectFrom('content_grants')
      .select('organization_id')
      .where((eb) => eb.or([eb('space_id', 'in', [space.id, alone.id]), eb('collection_id', '=', inner.id)]))
      .execute();
    expect(new Set(rows.map((row) => row.organization_id))).toEqual(new Set([target.id]));
  });
});

describe('what grants count in', () => {
  it('the spaces of a team and of a guest member, and who may be asked to review', async () => {
    const o = await organization(['edit', null]);
    const box = await o.collection('Box');
    const inner = await o.collection('Inner', box.id);
    await o.space('One', box.id);
    await o.space('Two', inner.id);
    const alone = await o.space('Alone');
    const team = await o.teamOf('Writers', [o.member(null).user.id]);
    await call(o.admin, 'POST', `/v1/collections/${box.id}/permissions`, { role: 'review', teams: [team.id] });
    await call(o.admin, 'POST', `/v1/spaces/${alone.id}/permissions`, { role: 'read', teams: [team.id] });

    const read = await call(o.admin, 'GET', `/v1/orgs/${o.orgId}/teams/${team.id}`);
    expect(read.json()).toMatchObject({ id: team.id, members: 1, spaces: 3 });
    const guest = await call(o.admin, 'GET', `/v1/orgs/${o.orgId}/members/${o.member(null).user.id}`);
    expect(guest.json()).toMatchObject({ role: null, spaces: 3 });

    // The guest reviews through the team's grant on the collection; on the lone space they only read.
    const inBox = (await call(o.admin, 'GET', `/v1/collections/${box.id}/spaces`)).json().items[0].id as string;
    for (const [spaceId, status] of [
      [inBox, 200],
      [alone.id, 400],
    ] as const) {
      const created = await call(o.member('edit'), 'POST', `/v1/spaces/${spaceId}/change-requests`, {
        subject: 'Review me',
      });
      expect(created.statusCode).toBe(201);
      const asked = await call(
        o.member('edit'),
        'POST',
        `/v1/spaces/${spaceId}/change-requests/${created.json().id}/requested-reviewers`,
        { users: [o.member(null).user.id] },
      );
      expect(asked.statusCode, asked.body).toBe(status);
    }
  });
});

describe('the grants matrix', () => {
  const ORGANIZATION_ROLES: Array<Role | null> = [null, 'read', 'edit'];
  const strongest = (...roles: Array<Role | null>) => {
    const order: Role[] = ['read', 'comment', 'review', 'edit', 'create', 'admin'];
    return roles.reduce<Role | null>(
      (best, role) => (role && (!best || order.indexOf(role) > order.indexOf(best)) ? role : best),
      null,
    );
  };

  it('the effective role is the strongest of organization role, default level, direct grant and team grant, everywhere', async () => {
    const o = await organization([]);
    const plain = await o.collection('Plain');
    const raised = await o.collection('Raised');
    await call(o.admin, 'PATCH', `/v1/collections/${raised.id}`, { defaultLevel: 'comment' });
    const spaces = [
      { space: await o.space('In plain', plain.id), collection: plain.id, level: null },
      { space: await o.space('In raised', raised.id), collection: raised.id, level: 'comment' as const },
    ];
    const people: Array<{ account: Account; role: Role | null; direct: boolean; team: boolean }> = [];
    for (const role of ORGANIZATION_ROLES)
      for (const direct of [false, true])
        for (const team of [false, true]) people.push({ account: await o.newMember(role), role, direct, team });
    const teamId = (
      await o.teamOf(
        'Matrix',
        people.filter((p) => p.team).map((p) => p.account.user.id),
      )
    ).id;
    const direct = people.filter((p) => p.direct).map((p) => p.account.user.id);
    for (const { space, collection } of spaces) {
      await call(o.admin, 'POST', `/v1/spaces/${space.id}/permissions`, { role: 'review', users: direct });
      await call(o.admin, 'POST', `/v1/collections/${collection}/permissions`, { role: 'create', teams: [teamId] });
    }

    for (const { space, level } of spaces) {
      const aggregate = await call(o.admin, 'GET', `/v1/spaces/${space.id}/permissions/aggregate?limit=100`);
      const reached = new Map<string, string>(
        aggregate
          .json()
          .items.map((item: { user: { id: string }; permission: string }) => [item.user.id, item.permission]),
      );
      for (const person of people) {
        const expected = strongest(
          person.role,
          person.role === null ? null : level,
          person.direct ? 'review' : null,
          person.team ? 'create' : null,
        );
        const label = `${person.role ?? 'guest'} direct=${person.direct} team=${person.team} level=${level}`;
        expect(reached.get(person.account.user.id) ?? null, label).toBe(expected);

        const read = await call(person.account, 'GET', `/v1/spaces/${space.id}`);
        const listed = (await call(person.account, 'GET', `/v1/orgs/${o.orgId}/spaces`)).json();
        const inList = listed.items.find((item: { id: string }) => item.id === space.id);
        if (expected === null) {
          expect(read.statusCode, label).toBe(404);
          expect(inList, label).toBeUndefined();
          continue;
        }
        expect(read.statusCode, label).toBe(200);
        const permissions = read.json().permissions;
        expect(permissions, label).toMatchObject({
          view: true,
          comment: expected !== 'read',
          review: ['review', 'edit', 'create', 'admin'].includes(expected),
          edit: ['edit', 'create', 'admin'].includes(expected),
          admin: expected === 'admin',
        });
        expect(inList?.permissions, label).toEqual(permissions);
      }
    }
  });
});

describe('grants through the official client', () => {
  it('invites, lists and removes', async () => {
    const o = await organization(['read']);
    const space = await o.space('Client');
    const url = await listen(t.app);
    const client = officialClient(url, o.admin.token);
    await client.spaces.inviteToSpace(space.id, { role: MemberRole.Review, users: [o.member('read').user.id] });
    const users = await client.spaces.listUserPermissionsInSpace(space.id);
    expect(users.data.items.map((item) => [item.permission, item.user.id])).toEqual([
      ['review', o.member('read').user.id],
    ]);
    const aggregate = await client.spaces.listPermissionsAggregateInSpace(space.id, { role: MemberRole.Review });
    expect(aggregate.data.items.map((item) => item.user.id)).toEqual([o.member('read').user.id]);
    await client.spaces.updateUserPermissionInSpace(space.id, o.member('read').user.id, { role: MemberRole.Edit });
    expect(await grantsIn('space_id', space.id)).toEqual([
      { user_id: o.member('read').user.id, team_id: null, role: MemberRole.Edit },
    ]);
    const removed = await client.spaces.removeUserFromSpace(space.id, o.member('read').user.id);
    expect(removed.status).toBe(205);
    const box = await o.collection('Box');
    await client.collections.inviteToCollection(box.id, { role: MemberRole.Edit, users: [o.member('read').user.id] });
    const inBox = await client.collections.listUserPermissionsInCollection(box.id);
    expect(inBox.data.count).toBe(1);
  });
});
