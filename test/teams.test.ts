import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

async function setup() {
  const o = await t.factory.team(['edit', 'read', null]);
  const base = `/v1/orgs/${o.organization.id}/teams`;
  const call = (account: Account, method: 'GET' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `${base}${path}`,
      headers: account.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = async (title: string, members: string[] = []) =>
    (await call(o.admin, 'PUT', '', { title, members })).json();
  const teamMembers = async (teamId: string) =>
    Object.fromEntries(
      (await t.db.selectFrom('team_members').select(['user_id', 'role']).where('team_id', '=', teamId).execute()).map(
        (row) => [row.user_id, row.role],
      ),
    );
  return { ...o, call, create, teamMembers };
}

describe('teams', () => {
  it('are created by admins with PUT (201), with initial members, and read back', async () => {
    const o = await setup();
    const res = await o.call(o.admin, 'PUT', '', { title: 'Writers', members: [o.member('edit').user.id] });
    expect(res.statusCode).toBe(201);
    expectSpecResponse('createOrganizationTeam', 201, res.json());
    expect(res.json()).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 1,
      spaces: 0,
      permissions: { view: true, admin: true },
    });
    expect(await o.teamMembers(res.json().id)).toEqual({ [o.member('edit').user.id]: 'member' });

    const read = await o.call(o.member('read'), 'GET', `/${res.json().id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ title: 'Writers', permissions: { view: true, admin: false } });
    expectSpecResponse('getTeamInOrganizationById', 200, read.json());
  });

  it('refuse creation by non-admins, bad titles and non-members, creating nothing', async () => {
    const o = await setup();
    const stranger = await t.factory.user();
    const cases: Array<[Account, unknown, number, RegExp]> = [
      [o.member('edit'), { title: 'Nope' }, 403, /^Creating a team needs the admin role in the organization$/],
      [o.admin, { title: '' }, 400, /^body\/title must NOT have fewer than 1 characters$/],
      [o.admin, { title: 'x'.repeat(65) }, 400, /^body\/title must NOT have more than 64 characters$/],
      [o.admin, {}, 400, /^body\/title is required$/],
      [
        o.admin,
        { title: 'Outsiders', members: [stranger.id] },
        400,
        /^body\/members: not members of the organization: /,
      ],
    ];
    for (const [account, payload, status, message] of cases) {
      const res = await o.call(account, 'PUT', '', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.message).toMatch(message);
    }
    expect(
      await t.db.selectFrom('teams').select('id').where('organization_id', '=', o.organization.id).execute(),
    ).toEqual([]);
  });

  it('are listed with title and owner filters, renamed and deleted by admins', async () => {
    const o = await setup();
    const writers = await o.create('Docs Writers');
    const reviewers = await o.create('Reviewers');
    await o.call(o.admin, 'PUT', `/${reviewers.id}/members/${o.member('edit').user.id}`, { role: 'owner' });

    const list = await o.call(o.member('read'), 'GET', '');
    expect(list.statusCode).toBe(200);
    expectSpecResponse('listTeamsInOrganizationById', 200, list.json());
    expect(list.json().items.map((team: { title: string }) => team.title)).toEqual(['Reviewers', 'Docs Writers']);
    expect((await o.call(o.admin, 'GET', '?title=writer')).json().items.map((team: { id: string }) => team.id)).toEqual(
      [writers.id],
    );
    expect(
      (await o.call(o.admin, 'GET', `?owner=${o.member('edit').user.id}`))
        .json()
        .items.map((team: { id: string }) => team.id),
    ).toEqual([reviewers.id]);
    expect((await o.call(o.admin, 'GET', `?owner=${o.admin.user.id}`)).json().count).toBe(2);
    expect((await o.call(o.member(null), 'GET', '')).statusCode).toBe(403);

    expect((await o.call(o.member('edit'), 'PATCH', `/${writers.id}`, { title: 'Taken' })).statusCode).toBe(403);
    const renamed = await o.call(o.admin, 'PATCH', `/${writers.id}`, { title: 'Authors' });
    expect(renamed.json().title).toBe('Authors');
    expectSpecResponse('updateTeamInOrganizationById', 200, renamed.json());

    expect((await o.call(o.member('edit'), 'DELETE', `/${reviewers.id}`)).statusCode).toBe(403);
    const deleted = await o.call(o.admin, 'DELETE', `/${reviewers.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await o.call(o.admin, 'GET', `/${reviewers.id}`)).statusCode).toBe(404);
    expect(await o.teamMembers(reviewers.id)).toEqual({});
  });
});

describe('team members: the state table of Part B, row by row', () => {
  it('PUT …/members/{userId} with a role sets it, adding the user if absent (204)', async () => {
    const o = await setup();
    const team = await o.create('Crew');
    const userId = o.member('read').user.id;

    const added = await o.call(o.admin, 'PUT', `/${team.id}/members/${userId}`, { role: 'member' });
    expect(added.statusCode).toBe(204);
    expect(await o.teamMembers(team.id)).toEqual({ [userId]: 'member' });
    expect((await o.call(o.admin, 'PUT', `/${team.id}/members/${userId}`, { role: 'owner' })).statusCode).toBe(204);
    expect(await o.teamMembers(team.id)).toEqual({ [userId]: 'owner' });
    expect((await o.call(o.admin, 'PUT', `/${team.id}/members/${userId}`, { role: 'member' })).statusCode).toBe(204);
    expect(await o.teamMembers(team.id)).toEqual({ [userId]: 'member' });
  });

  it('PUT …/members/{userId} without a body adds a member; a JSON null is refused and changes nothing', async () => {
    const o = await setup();
    const team = await o.create('Crew');
    const userId = o.member('read').user.id;
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/v1/orgs/${o.organization.id}/teams/${team.id}/members/${userId}`,
      headers: { ...o.admin.headers, 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: { code: 400, message: 'body must be object' } });
    expect(await o.teamMembers(team.id)).toEqual({});
    expect((await o.call(o.admin, 'PUT', `/${team.id}/members/${userId}`)).statusCode).toBe(204);
    expect(await o.teamMembers(team.id)).toEqual({ [userId]: 'member' });
  });

  it('DELETE …/members/{userId} makes the user not a member (204)', async () => {
    const o = await setup();
    const userId = o.member('read').user.id;
    const team = await o.create('Crew', [userId]);
    const res = await o.call(o.admin, 'DELETE', `/${team.id}/members/${userId}`);
    expect(res.statusCode).toBe(204);
    expect(await o.teamMembers(team.id)).toEqual({});
    expect((await o.call(o.admin, 'DELETE', `/${team.id}/members/${userId}`)).statusCode).toBe(204);
  });

  it('PUT …/members with the same user in add and remove leaves them not a member (204)', async () => {
    const o = await setup();
    const team = await o.create('Crew');
    const reader = o.member('read').user;
    const editor = o.member('edit').user;

    const res = await o.call(o.admin, 'PUT', `/${team.id}/members`, {
      add: [reader.id, editor.email.toUpperCase()],
      remove: [reader.email],
    });
    expect(res.statusCode).toBe(204);
    expect(await o.teamMembers(team.id)).toEqual({ [editor.id]: 'member' });

    // A member already in the team, in both lists, is removed too.
    await o.call(o.admin, 'PUT', `/${team.id}/members`, {
      add: [editor.id],
      remove: [editor.id],
      memberships: { [reader.id]: { role: 'owner' } },
    });
    expect(await o.teamMembers(team.id)).toEqual({ [reader.id]: 'owner' });
  });
});

describe('managing a team’s members', () => {
  it('is for admins and the team’s owners, and refuses unknown users without changing anything', async () => {
    const o = await setup();
    const owner = o.member('edit');
    const team = await o.create('Owned', [owner.user.id]);
    await o.call(o.admin, 'PUT', `/${team.id}/members/${owner.user.id}`, { role: 'owner' });
    const other = await o.create('Other');

    // No body at all: the default role.
    expect((await o.call(owner, 'PUT', `/${team.id}/members/${o.member('read').user.id}`)).statusCode).toBe(204);
    expect((await o.teamMembers(team.id))[o.member('read').user.id]).toBe('member');
    expect((await o.call(owner, 'PUT', `/${other.id}/members/${o.member('read').user.id}`, {})).statusCode).toBe(403);
    expect((await o.call(o.member('read'), 'PUT', `/${team.id}/members`, { remove: [owner.user.id] })).statusCode).toBe(
      403,
    );

    const before = await o.teamMembers(team.id);
    const unknown = await o.call(owner, 'PUT', `/${team.id}/members`, {
      add: ['nobody@example.com'],
      remove: [o.member('read').user.id],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('body: not members of the organization: nobody@example.com');
    expect(await o.teamMembers(team.id)).toEqual(before);
    expect((await o.call(owner, 'PUT', `/${team.id}/members/AAAAAAAAAAAAAAAAAAAA`, {})).statusCode).toBe(404);
    expect(
      (await o.call(owner, 'PUT', `/${team.id}/members/${o.member('read').user.id}`, { role: 'captain' })).statusCode,
    ).toBe(400);
  });

  it('lists a team’s members with their organization membership and team role', async () => {
    const o = await setup();
    const team = await o.create('Listed', [o.member('read').user.id, o.member('edit').user.id]);
    const res = await o.call(o.member('read'), 'GET', `/${team.id}/members`);
    expect(res.statusCode).toBe(200);
    expectSpecResponse('listTeamMembersInOrganizationById', 200, res.json());
    expect(res.json().count).toBe(2);
    expect(
      res
        .json()
        .items.map((item: { organization: { id: string; role: string }; team: { role: string } }) => [
          item.organization.role,
          item.team.role,
        ])
        .sort(),
    ).toEqual([
      ['edit', 'member'],
      ['read', 'member'],
    ]);
    const member = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${o.organization.id}/members/${o.member('read').user.id}`,
      headers: o.admin.headers,
    });
    expect(member.json().teams).toBe(1);
  });
});

describe('teams through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('creates, lists, renames, manages members and deletes', async () => {
    const o = await setup();
    const client = officialClient(endpoint, o.admin.token);
    const created = await client.orgs.createOrganizationTeam(o.organization.id, { title: 'Client team' });
    expect(created.status).toBe(201);
    const teamId = created.data.id;
    expect(
      (await client.orgs.listTeamsInOrganizationById(o.organization.id)).data.items.map((team) => team.id),
    ).toEqual([teamId]);
    expect(
      (await client.orgs.updateTeamInOrganizationById(o.organization.id, teamId, { title: 'Renamed' })).data.title,
    ).toBe('Renamed');
    expect(
      (
        await client.orgs.addMemberToOrganizationTeamById(o.organization.id, teamId, o.member('edit').user.id, {
          role: 'owner' as never,
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await client.orgs.updateMembersInOrganizationTeam(o.organization.id, teamId, {
          add: [o.member('read').user.id],
        })
      ).status,
    ).toBe(204);
    const members = await client.orgs.listTeamMembersInOrganizationById(o.organization.id, teamId);
    expect(members.data.count).toBe(2);
    expect(
      (await client.orgs.deleteMemberFromOrganizationTeamById(o.organization.id, teamId, o.member('read').user.id))
        .status,
    ).toBe(204);
    expect((await client.orgs.getTeamInOrganizationById(o.organization.id, teamId)).data.members).toBe(1);
    expect((await client.orgs.removeTeamFromOrganizationById(o.organization.id, teamId)).status).toBe(204);
  });
});
