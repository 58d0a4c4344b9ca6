import { createHash } from 'node:crypto';
import { jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../src/db/types.js';
import { newId } from '../src/core/ids.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

const members = (account: Account, organizationId: string, query: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/v1/orgs/${organizationId}/members`, query, headers: account.headers });
const memberRow = (organizationId: string, userId: string) =>
  t.db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

async function teamWith(organizationId: string, title: string, memberships: Array<[string, 'owner' | 'member']>) {
  const id = newId();
  await t.db
    .insertInto('teams')
    .values({ id, organization_id: organizationId, title, created_at: new Date(), updated_at: new Date() })
    .execute();
  for (const [userId, role] of memberships) {
    await t.db
      .insertInto('team_members')
      .values({ team_id: id, organization_id: organizationId, user_id: userId, role, added_at: new Date() })
      .execute();
  }
  return id;
}

describe('GET /v1/orgs/{organizationId}/members', () => {
  it('lists members newest first with their user, counters and every field', async () => {
    const { admin, organization, member } = await t.factory.team(['read', null]);
    await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/spaces`,
      headers: admin.headers,
      payload: { title: 'One' },
    });
    await teamWith(organization.id, 'Writers', [[member('read').user.id, 'member']]);

    const res = await members(admin, organization.id);

    expect(res.statusCode).toBe(200);
    expectSpecResponse('listMembersInOrganizationById', 200, res.json());
    expect(res.json().count).toBe(3);
    const reader = res.json().items.find((m: { id: string }) => m.id === member('read').user.id);
    expect(reader).toEqual({
      object: 'member',
      id: member('read').user.id,
      role: 'read',
      user: {
        object: 'user',
        id: member('read').user.id,
        displayName: member('read').user.display_name,
        email: member('read').user.email,
        urls: { location: `${PUBLIC_URL}/v1/users/${member('read').user.id}` },
      },
      disabled: false,
      joinedAt: expect.stringMatching(/Z$/),
      sso: false,
      spaces: 1,
      teams: 1,
      sites: 0,
    });
    const guest = res.json().items.find((m: { id: string }) => m.id === member(null).user.id);
    expect(guest).toMatchObject({ role: null, spaces: 0, teams: 0, sites: 0 });
  });

  it('finds the members a search names, whether few users or more than a thousand match it', async () => {
    const { admin, organization } = await t.factory.team();
    const tag = newId().slice(0, 8).toLowerCase();
    const user = (name: string, email: string) => ({ id: newId(), display_name: name, email, email_verified_at: null });
    // 1,001 users outside the organization share a name: past the users read first, the members are walked instead.
    const outside = Array.from({ length: 1_001 }, (_, i) =>
      user(`Common ${tag} ${i}`, `c${i}.${tag}@elsewhere.example`),
    );
    const inside = [
      user(`Common ${tag} Ada`, `ada.${tag}@members.example`),
      user(`Rare ${tag} Bo`, `bo.${tag}@x.example`),
    ];
    await t.db
      .insertInto('users')
      .values([...outside, ...inside])
      .execute();
    await t.db
      .insertInto('organization_members')
      .values(
        inside.map((u, i) => ({
          organization_id: organization.id,
          user_id: u.id,
          role: 'read' as const,
          joined_at: new Date(Date.UTC(2026, 0, 1 + i)),
        })),
      )
      .execute();
    const found = async (search: string, query: Record<string, string> = {}) => {
      const res = await members(admin, organization.id, { search, ...query });
      expect(res.statusCode).toBe(200);
      return (res.json().items as Array<{ user: { displayName: string } }>).map((m) => m.user.displayName);
    };
    // Read from the 1,001 + 1 matching users, then from the members: the same one member.
    expect(await found(`common ${tag}`)).toEqual([`Common ${tag} Ada`]);
    expect(await found(`Common ${tag}`, { sort: 'lastSeenAt' })).toEqual([]);
    // Few users match: read from them.
    expect(await found(`rare ${tag}`)).toEqual([`Rare ${tag} Bo`]);
    expect(await found(tag, { order: 'asc' })).toEqual([`Common ${tag} Ada`, `Rare ${tag} Bo`]);
    expect(await found(`${tag}@x.example`, { role: 'read' })).toEqual([`Rare ${tag} Bo`]);
    expect(await found(`${tag}@x.example`, { role: 'admin' })).toEqual([]);
    const page = await members(admin, organization.id, { search: tag, limit: '1' });
    expect(page.json()).toMatchObject({ count: 2, items: [{ user: { displayName: `Rare ${tag} Bo` } }] });
    const rest = await members(admin, organization.id, { search: tag, limit: '1', page: page.json().next.page });
    expect(rest.json()).toMatchObject({ count: 2, items: [{ user: { displayName: `Common ${tag} Ada` } }] });
    // By name: the same members, whichever users the search matches.
    expect(await found(`common ${tag}`, { sort: 'name' })).toEqual([`Common ${tag} Ada`]);
    expect(await found(`rare ${tag}`, { sort: 'name' })).toEqual([`Rare ${tag} Bo`]);
    expect(await found(tag, { sort: 'name', order: 'asc' })).toEqual([`Common ${tag} Ada`, `Rare ${tag} Bo`]);
    const byName = await members(admin, organization.id, { search: tag, sort: 'name', limit: '1' });
    expect(byName.json()).toMatchObject({ count: 2, items: [{ user: { displayName: `Rare ${tag} Bo` } }] });

    // Few users match, and more members than a page: each page counts the same members, in either sort.
    const word = `Pair${tag}`;
    for (const name of ['Ann', 'Ben']) {
      const pair = await t.factory.user({
        name: `${word} ${name}`,
        email: `${name.toLowerCase()}.${tag}@pair.example`,
      });
      await t.factory.member(organization.id, pair.id, 'read');
    }
    for (const sort of ['joinedAt', 'name']) {
      const first = await members(admin, organization.id, { search: word.toLowerCase(), sort, limit: '1' });
      expect(first.json(), sort).toMatchObject({ count: 2, items: [{}] });
      const next = { search: word.toLowerCase(), sort, limit: '1', page: first.json().next.page };
      const second = await members(admin, organization.id, next);
      expect(second.json(), sort).toMatchObject({ count: 2, items: [{}] });
      const both = [first, second].map((res) => res.json().items[0].user.displayName);
      expect(both.sort(), sort).toEqual([`${word} Ann`, `${word} Ben`]);
    }
  });

  it('filters by role, guests and search, sorts by join or last-seen time, in either order, page by page', async () => {
    const { admin, organization } = await t.factory.team();
    const people: Array<[string, Role | null]> = [
      ['Ada Lovelace', 'edit'],
      ['Grace Hopper', 'edit'],
      ['Alan 100% Turing', 'read'],
      ['Barbara Liskov', null],
    ];
    const ids: Record<string, string> = {};
    let at = Date.parse('2026-01-01T00:00:00.000Z');
    for (const [name, role] of people) {
      const user = await t.factory.user({ name, email: `${name.split(' ')[0]!.toLowerCase()}@Members.example` });
      await t.factory.member(organization.id, user.id, role);
      await t.db
        .updateTable('organization_members')
        .set({ joined_at: new Date((at += 1000)) })
        .where('user_id', '=', user.id)
        .execute();
      ids[name] = user.id;
    }
    await t.db
      .updateTable('organization_members')
      .set({ last_seen_at: new Date(at + 5000) })
      .where('user_id', '=', ids['Ada Lovelace']!)
      .execute();
    await t.db
      .updateTable('organization_members')
      .set({ last_seen_at: new Date(at + 9000) })
      .where('user_id', '=', ids['Barbara Liskov']!)
      .execute();
    const names = async (query: Record<string, string>) =>
      (await members(admin, organization.id, query))
        .json()
        .items.map((m: { user: { displayName: string } }) => m.user.displayName);

    expect(await names({ role: 'edit' })).toEqual(['Grace Hopper', 'Ada Lovelace']);
    expect(await names({ role: 'guest' })).toEqual(['Barbara Liskov']);
    expect(await names({ search: 'LOVE' })).toEqual(['Ada Lovelace']);
    expect(await names({ search: 'members.EXAMPLE', order: 'asc' })).toEqual([
      'Ada Lovelace',
      'Grace Hopper',
      'Alan 100% Turing',
      'Barbara Liskov',
    ]);
    expect(await names({ search: '100%' })).toEqual(['Alan 100% Turing']);
    expect(await names({ search: '%' })).toEqual(['Alan 100% Turing']);
    expect(await names({ search: 'a_a' })).toEqual([]);
    expect(await names({ sort: 'lastSeenAt' })).toEqual(['Barbara Liskov', 'Ada Lovelace']);
    expect(await names({ role: 'edit', search: 'grace' })).toEqual(['Grace Hopper']);
    // A search short of a page counts its rows; one that fills a page counts every match.
    expect((await members(admin, organization.id, { search: 'members.example' })).json().count).toBe(4);
    const searchPage = await members(admin, organization.id, { search: 'members.example', limit: '3' });
    expect(searchPage.json().count).toBe(4);
    const searchRest = await members(admin, organization.id, {
      search: 'members.example',
      limit: '3',
      page: searchPage.json().next.page,
    });
    expect(searchRest.json()).toMatchObject({ count: 4, items: [{ user: { displayName: 'Ada Lovelace' } }] });
    expect(searchRest.json().next).toBeUndefined();
    const counted = await members(admin, organization.id, { role: 'edit', limit: '1' });
    expect(counted.json().count).toBe(2);
    const second = await members(admin, organization.id, { role: 'edit', limit: '1', page: counted.json().next.page });
    expect(second.json().items.map((m: { id: string }) => m.id)).toEqual([ids['Ada Lovelace']]);
    // A cursor belongs to its filters.
    expect(
      (await members(admin, organization.id, { role: 'read', limit: '1', page: counted.json().next.page })).statusCode,
    ).toBe(400);
  });

  it('is refused to guests with 403, to strangers with 404, and refuses bad filters with 400', async () => {
    const { admin, organization, member } = await t.factory.team([null]);
    expect((await members(member(null), organization.id)).statusCode).toBe(403);
    expect((await members(await t.factory.account(), organization.id)).statusCode).toBe(404);
    const badQueries: Array<Record<string, string>> = [
      { role: 'owner' },
      { sort: 'title' },
      { order: 'up' },
      { search: '' },
      { search: 'x'.repeat(101) },
    ];
    for (const query of badQueries) {
      const res = await members(admin, organization.id, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('a single member', () => {
  it('changes role only by an admin, makes guests with null, and never leaves the organization without an admin', async () => {
    const { admin, organization, member } = await t.factory.team(['edit']);
    const patch = (account: Account, userId: string, payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: `/v1/orgs/${organization.id}/members/${userId}`,
        headers: account.headers,
        payload,
      });

    const promoted = await patch(admin, member('edit').user.id, { role: 'create' });
    expect(promoted.statusCode).toBe(200);
    expectSpecResponse('updateMemberInOrganizationById', 200, promoted.json());
    expect(promoted.json().role).toBe('create');
    expect((await patch(admin, member('edit').user.id, { role: null })).json()).toMatchObject({
      role: null,
      spaces: 0,
    });

    const refused = await patch(member('edit'), admin.user.id, { role: 'read' });
    expect(refused.statusCode).toBe(403);
    const lastAdmin = await patch(admin, admin.user.id, { role: 'edit' });
    expect(lastAdmin.statusCode).toBe(409);
    expect(lastAdmin.json()).toEqual({
      error: { code: 409, message: 'The organization must keep at least one admin' },
    });
    expect((await memberRow(organization.id, admin.user.id))!.role).toBe('admin');
    expect((await patch(admin, 'AAAAAAAAAAAAAAAAAAAA', { role: 'read' })).statusCode).toBe(404);
    expect((await patch(admin, member('edit').user.id, { role: 'owner' })).statusCode).toBe(400);
  });

  it('lets only one of two admins demote the other at the same time', async () => {
    const { admin, organization } = await t.factory.team();
    const second = await t.factory.account();
    await t.factory.member(organization.id, second.user.id, 'admin');
    const results = await Promise.all([
      t.app.inject({
        method: 'PATCH',
        url: `/v1/orgs/${organization.id}/members/${second.user.id}`,
        headers: admin.headers,
        payload: { role: 'read' },
      }),
      t.app.inject({
        method: 'PATCH',
        url: `/v1/orgs/${organization.id}/members/${admin.user.id}`,
        headers: second.headers,
        payload: { role: 'read' },
      }),
    ]);
    // The loser is refused either way: 409 if both passed the admin check together, 403 if it checked after the winner.
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await t.db
      .selectFrom('organization_members')
      .select('user_id')
      .where('organization_id', '=', organization.id)
      .where('role', '=', 'admin')
      .execute();
    expect(admins).toHaveLength(1);
  });

  it('removes a member with their team memberships; members may leave; the last admin may not', async () => {
    const { admin, organization, member } = await t.factory.team(['edit', 'read']);
    const teamId = await teamWith(organization.id, 'Crew', [
      [member('edit').user.id, 'owner'],
      [member('read').user.id, 'member'],
    ]);
    const remove = (account: Account, userId: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/v1/orgs/${organization.id}/members/${userId}`,
        headers: account.headers,
      });

    expect((await remove(member('read'), member('edit').user.id)).statusCode).toBe(403);
    const removed = await remove(admin, member('edit').user.id);
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect(await memberRow(organization.id, member('edit').user.id)).toBeUndefined();
    expect(await t.db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).execute()).toEqual([
      { user_id: member('read').user.id },
    ]);

    expect((await remove(member('read'), member('read').user.id)).statusCode).toBe(204);
    expect((await remove(admin, admin.user.id)).statusCode).toBe(409);
    expect(await memberRow(organization.id, admin.user.id)).toBeDefined();
    expect((await remove(admin, member('read').user.id)).statusCode).toBe(404);
  });

  it('records the caller as seen and hands back signed visitor claims', async () => {
    const { organization, member } = await t.factory.team([null]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/ping`,
      headers: member(null).headers,
    });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('updateOrganizationMemberLastSeenAt', 200, res.json());
    expect((await memberRow(organization.id, member(null).user.id))!.last_seen_at).toBeInstanceOf(Date);
    const key = createHash('sha256').update(`visitor-claims:${t.app.serviceSecret}`).digest();
    const { payload } = await jwtVerify(res.json().serviceVisitorClaims, key);
    expect(payload).toMatchObject({ sub: member(null).user.id, organization: organization.id, role: null });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/orgs/${organization.id}/ping`,
          headers: (await t.factory.account()).headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('marks a member as SSO member, by admins only', async () => {
    const { admin, organization, member } = await t.factory.team(['edit']);
    const url = `/v1/orgs/${organization.id}/members/${member('edit').user.id}/sso`;
    expect((await t.app.inject({ method: 'POST', url, headers: member('edit').headers })).statusCode).toBe(403);
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().sso).toBe(true);
    expectSpecResponse('setUserAsSSOMemberForOrganization', 200, res.json());
  });
});

describe('a member’s spaces and teams', () => {
  it('lists the spaces a member reaches with their role on each', async () => {
    const { admin, organization, member } = await t.factory.team(['read', null]);
    const collection = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/collections`,
        headers: admin.headers,
        payload: { title: 'C' },
      })
    ).json();
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${collection.id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'edit' },
    });
    const inside = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/spaces`,
        headers: admin.headers,
        payload: { title: 'In', parent: collection.id },
      })
    ).json();
    const outside = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/spaces`,
        headers: admin.headers,
        payload: { title: 'Out' },
      })
    ).json();

    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/members/${member('read').user.id}/spaces`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('listSpacesForOrganizationMember', 200, res.json());
    expect(
      res.json().items.map((item: { permission: string; space: { id: string } }) => [item.space.id, item.permission]),
    ).toEqual([
      [outside.id, 'read'],
      [inside.id, 'edit'],
    ]);
    const guest = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/members/${member(null).user.id}/spaces`,
      headers: admin.headers,
    });
    expect(guest.json()).toEqual({ count: 0, items: [] });
  });

  it('lists the teams a member is in, filtered by title', async () => {
    const { admin, organization, member } = await t.factory.team(['read']);
    await teamWith(organization.id, 'Docs Writers', [[member('read').user.id, 'owner']]);
    await teamWith(organization.id, 'Reviewers', [
      [member('read').user.id, 'member'],
      [admin.user.id, 'member'],
    ]);
    await teamWith(organization.id, 'Not theirs', [[admin.user.id, 'owner']]);
    const url = `/v1/orgs/${organization.id}/members/${member('read').user.id}/teams`;

    const all = await t.app.inject({ method: 'GET', url, headers: member('read').headers });
    expect(all.statusCode).toBe(200);
    expectSpecResponse('listTeamsForOrganizationMember', 200, all.json());
    expect(all.json().count).toBe(2);
    const byTitle = Object.fromEntries(
      all
        .json()
        .items.map(
          (item: { team: { title: string; members: number; permissions: object }; member: { role: string } }) => [
            item.team.title,
            [item.member.role, item.team.members, item.team.permissions],
          ],
        ),
    );
    expect(byTitle).toEqual({
      'Docs Writers': ['owner', 1, { view: true, admin: true }],
      Reviewers: ['member', 2, { view: true, admin: false }],
    });
    const filtered = await t.app.inject({
      method: 'GET',
      url,
      query: { title: 'WRITER' },
      headers: member('read').headers,
    });
    expect(filtered.json().items.map((item: { team: { title: string } }) => item.team.title)).toEqual(['Docs Writers']);
  });
});

describe('members through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('lists, reads, updates, pings, marks SSO, lists spaces and teams, and removes', async () => {
    const { admin, organization, member } = await t.factory.team(['read']);
    const client = officialClient(endpoint, admin.token);
    const userId = member('read').user.id;

    expect(
      (
        await client.orgs.listMembersInOrganizationById(organization.id, { search: member('read').user.email })
      ).data.items.map((m) => m.id),
    ).toEqual([userId]);
    expectSpecResponse(
      'getMemberInOrganizationById',
      200,
      (await client.orgs.getMemberInOrganizationById(organization.id, userId)).data,
    );
    const updated = await client.orgs.updateMemberInOrganizationById(organization.id, userId, {
      role: 'edit' as never,
    });
    expect(updated.data.role).toBe('edit');
    expect(
      (await officialClient(endpoint, member('read').token).orgs.updateOrganizationMemberLastSeenAt(organization.id))
        .status,
    ).toBe(200);
    expect((await client.orgs.setUserAsSsoMemberForOrganization(organization.id, userId)).data.sso).toBe(true);
    expect((await client.orgs.listSpacesForOrganizationMember(organization.id, userId)).data.count).toBe(0);
    expect((await client.orgs.listTeamsForOrganizationMember(organization.id, userId)).data.count).toBe(0);
    expect((await client.orgs.removeMemberFromOrganizationById(organization.id, userId)).status).toBe(204);
    expect(await memberRow(organization.id, userId)).toBeUndefined();
  });
});
