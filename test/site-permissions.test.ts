import { MemberRole } from '@gitbook/api-next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../src/db/types.js';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (account: Account | undefined, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: account?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

type Org = Awaited<ReturnType<typeof organization>>;

/** An organization with an admin, one member per role given (null: a guest), and its sites and teams. */
async function organization(roles: Array<Role | null> = ['read', 'edit', null]) {
  const o = await t.factory.team(roles);
  const orgId = o.organization.id;
  return {
    ...o,
    orgId,
    site: async (title = 'Docs') => {
      const res = await call(o.admin, 'POST', `/v1/orgs/${orgId}/sites`, { title });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    },
    teamOf: async (title: string, members: string[]) => {
      const res = await call(o.admin, 'PUT', `/v1/orgs/${orgId}/teams`, { title, members });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    },
  };
}

const sitePath = (org: Org, siteId: string) => `/v1/orgs/${org.orgId}/sites/${siteId}`;
const permissionsOf = (org: Org, siteId: string) => `${sitePath(org, siteId)}/permissions`;

/** The grants stored on a site, users' first, each kind by id. */
const siteGrants = async (siteId: string) =>
  (
    await t.db
      .selectFrom('content_grants')
      .select(['organization_id', 'user_id', 'team_id', 'role'])
      .where('site_id', '=', siteId)
      .execute()
  ).sort(
    (a, b) => (a.team_id ?? '').localeCompare(b.team_id ?? '') || (a.user_id ?? '').localeCompare(b.user_id ?? ''),
  );

const siteAudit = (org: Org, siteId: string) =>
  t.db
    .selectFrom('audit_events')
    .select(['action', 'target_type', 'target_id', 'payload'])
    .where('organization_id', '=', org.orgId)
    .where('target_id', '=', siteId)
    .execute();

let endpoint: Promise<string> | undefined;
const client = async (account: Account) => {
  endpoint ??= listen(t.app);
  return newestOfficialClient(await endpoint, account.token);
};

describe('roles given on a site', () => {
  let org: Org;
  let siteId: string;
  let reader: Account;
  let editor: Account;
  beforeAll(async () => {
    org = await organization();
    siteId = await org.site();
    reader = org.member('read');
    editor = org.member('edit');
  });

  it('are given, listed, changed and taken away by the site’s admins, as 0.202.0 answers, with audit events', async () => {
    const teamId = await org.teamOf('Writers', [editor.user.id]);
    const invited = await call(org.admin, 'POST', permissionsOf(org, siteId), {
      role: 'edit',
      users: [reader.user.id],
      teams: [teamId],
    });
    expect(invited.statusCode, invited.body).toBe(204);
    expect(await siteGrants(siteId)).toEqual(
      [
        { organization_id: org.orgId, user_id: reader.user.id, team_id: null, role: 'edit' },
        { organization_id: org.orgId, user_id: null, team_id: teamId, role: 'edit' },
      ].sort((a, b) => (a.team_id ?? '').localeCompare(b.team_id ?? '')),
    );

    const users = await call(reader, 'GET', `${permissionsOf(org, siteId)}/users`);
    expect(users.statusCode, users.body).toBe(200);
    expectNewestSpecResponse('listUserPermissionsInSite', 200, users.json());
    expect(users.json()).toEqual({
      count: 1,
      items: [{ permission: 'edit', user: expect.objectContaining({ object: 'user', id: reader.user.id }) }],
    });

    const teams = await call(reader, 'GET', `${permissionsOf(org, siteId)}/teams`);
    expect(teams.statusCode, teams.body).toBe(200);
    expectNewestSpecResponse('listTeamPermissionsInSite', 200, teams.json());
    expect(teams.json()).toEqual({
      count: 1,
      items: [{ permission: 'edit', team: expect.objectContaining({ object: 'team', id: teamId, title: 'Writers' }) }],
    });

    const updated = await call(org.admin, 'PATCH', `${permissionsOf(org, siteId)}/users/${reader.user.id}`, {
      role: 'admin',
    });
    expect(updated.statusCode, updated.body).toBe(204);
    const teamUpdated = await call(org.admin, 'PATCH', `${permissionsOf(org, siteId)}/teams/${teamId}`, {
      role: 'review',
    });
    expect(teamUpdated.statusCode, teamUpdated.body).toBe(204);
    expect((await siteGrants(siteId)).map((grant) => grant.role).sort()).toEqual(['admin', 'review']);

    expect((await call(org.admin, 'DELETE', `${permissionsOf(org, siteId)}/users/${reader.user.id}`)).statusCode).toBe(
      205,
    );
    expect((await call(org.admin, 'DELETE', `${permissionsOf(org, siteId)}/users/${reader.user.id}`)).statusCode).toBe(
      204,
    );
    expect((await call(org.admin, 'DELETE', `${permissionsOf(org, siteId)}/teams/${teamId}`)).statusCode).toBe(205);
    expect((await call(org.admin, 'DELETE', `${permissionsOf(org, siteId)}/teams/${teamId}`)).statusCode).toBe(204);
    expect(await siteGrants(siteId)).toEqual([]);

    // In any order: two events of one millisecond have no order between them.
    const audit = await siteAudit(org, siteId);
    expect(audit.filter((row) => row.action.startsWith('permission.'))).toHaveLength(5);
    expect(audit.filter((row) => row.action.startsWith('permission.'))).toEqual(
      expect.arrayContaining([
        {
          action: 'permission.granted',
          target_type: 'site',
          target_id: siteId,
          payload: { users: [reader.user.id], teams: [teamId], after: { role: 'edit' } },
        },
        {
          action: 'permission.granted',
          target_type: 'site',
          target_id: siteId,
          payload: { users: [reader.user.id], teams: [], after: { role: 'admin' } },
        },
        {
          action: 'permission.granted',
          target_type: 'site',
          target_id: siteId,
          payload: { users: [], teams: [teamId], after: { role: 'review' } },
        },
        {
          action: 'permission.revoked',
          target_type: 'site',
          target_id: siteId,
          payload: { users: [reader.user.id], teams: [] },
        },
        {
          action: 'permission.revoked',
          target_type: 'site',
          target_id: siteId,
          payload: { users: [], teams: [teamId] },
        },
      ]),
    );
  });

  it('take a role away with role: null in an invitation', async () => {
    const other = await org.site('Other');
    expect(
      (await call(org.admin, 'POST', permissionsOf(org, other), { role: 'read', users: [editor.user.id] })).statusCode,
    ).toBe(204);
    expect(
      (await call(org.admin, 'POST', permissionsOf(org, other), { role: null, users: [editor.user.id] })).statusCode,
    ).toBe(204);
    expect(await siteGrants(other)).toEqual([]);
  });

  it('raise a member’s role on that site only: a reader made admin changes and publishes it', async () => {
    const granted = await org.site('Granted');
    const untouched = await org.site('Untouched');
    const patch = (id: string) => call(reader, 'PATCH', sitePath(org, id), { title: 'Renamed by a reader' });

    const before = await patch(granted);
    expect(before.statusCode).toBe(403);
    expect((await call(reader, 'GET', sitePath(org, granted))).json().permissions).toMatchObject({
      view: true,
      access: true,
      edit: false,
      admin: false,
    });

    const invited = await call(org.admin, 'POST', permissionsOf(org, granted), {
      role: 'admin',
      users: [reader.user.id],
    });
    expect(invited.statusCode).toBe(204);

    const site = await call(reader, 'GET', sitePath(org, granted));
    expect(site.statusCode).toBe(200);
    expect(site.json().permissions).toEqual({
      view: true,
      access: true,
      edit: true,
      create: true,
      admin: true,
      installIntegration: true,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: true,
    });
    const changed = await patch(granted);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().title).toBe('Renamed by a reader');
    const published = await call(reader, 'POST', `${sitePath(org, granted)}/publish`);
    expect(published.statusCode, published.body).toBe(200);

    // The grant reaches no other site of the organization.
    expect((await patch(untouched)).statusCode).toBe(403);
    const listed = await call(reader, 'GET', `/v1/orgs/${org.orgId}/sites?limit=100`);
    const permissions = new Map(
      (listed.json().items as Array<{ id: string; permissions: { admin: boolean } }>).map((s) => [s.id, s.permissions]),
    );
    expect(permissions.get(granted)?.admin).toBe(true);
    expect(permissions.get(untouched)?.admin).toBe(false);

    // A site admin by grant manages who may reach it, as the space rules allow.
    expect(
      (await call(reader, 'POST', permissionsOf(org, granted), { role: 'edit', users: [editor.user.id] })).statusCode,
    ).toBe(204);

    // Taken away, the reader is back to reading.
    expect((await call(org.admin, 'DELETE', `${permissionsOf(org, granted)}/users/${reader.user.id}`)).statusCode).toBe(
      205,
    );
    expect((await patch(granted)).statusCode).toBe(403);
    expect((await call(reader, 'GET', sitePath(org, granted))).json().permissions.admin).toBe(false);
  });

  it('reach the members of a team given a role on the site', async () => {
    const o = await organization(['read']);
    const id = await o.site();
    const member = o.member('read');
    const teamId = await o.teamOf('Site admins', [member.user.id]);
    const rename = () => call(member, 'PATCH', sitePath(o, id), { title: 'By the team' });
    expect((await rename()).statusCode).toBe(403);
    expect(
      (await call(o.admin, 'PATCH', `${permissionsOf(o, id)}/teams/${teamId}`, { role: 'admin' })).statusCode,
    ).toBe(204);
    expect((await rename()).statusCode).toBe(200);
  });

  it('cannot lower an organization admin below their organization role', async () => {
    const o = await organization([]);
    const id = await o.site();
    const second = await t.factory.account();
    await t.factory.member(o.orgId, second.user.id, 'admin');
    expect(
      (await call(o.admin, 'POST', permissionsOf(o, id), { role: 'read', users: [second.user.id] })).statusCode,
    ).toBe(204);
    expect((await call(second, 'PATCH', sitePath(o, id), { title: 'Still admin' })).statusCode).toBe(200);
    const aggregate = await call(o.admin, 'GET', `${permissionsOf(o, id)}/aggregate?role=admin&order=asc`);
    expect(aggregate.json().items).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ id: o.admin.user.id }), permission: 'admin' }),
      expect.objectContaining({
        user: expect.objectContaining({ id: second.user.id }),
        permission: 'admin',
        origin: { type: 'organization', organization: o.orgId },
      }),
    ]);
  });
});

describe('guests and a site', () => {
  it('a guest sees a site only once given a role on it, and never its roster', async () => {
    const o = await organization([null]);
    const id = await o.site();
    const guest = o.member(null);
    expect((await call(guest, 'GET', sitePath(o, id))).statusCode).toBe(404);
    expect(
      (await call(o.admin, 'POST', permissionsOf(o, id), { role: 'read', users: [guest.user.id] })).statusCode,
    ).toBe(204);

    const site = await call(guest, 'GET', sitePath(o, id));
    expect(site.statusCode, site.body).toBe(200);
    // The guest's member record counts the site they now read.
    expect((await call(o.admin, 'GET', `/v1/orgs/${o.orgId}/members/${guest.user.id}`)).json().sites).toBe(1);
    expect(site.json().permissions).toMatchObject({ view: true, access: true, edit: false, admin: false });
    expect((await call(guest, 'PATCH', sitePath(o, id), { title: 'No' })).statusCode).toBe(403);
    // Who may reach the site is for members with a role, as for spaces.
    for (const path of ['users', 'teams', 'aggregate']) {
      expect((await call(guest, 'GET', `${permissionsOf(o, id)}/${path}`)).statusCode).toBe(403);
    }

    const aggregate = await call(o.admin, 'GET', `${permissionsOf(o, id)}/aggregate?role=guest`);
    expect(aggregate.statusCode).toBe(200);
    expectNewestSpecResponse('listPermissionsAggregateInSite', 200, aggregate.json());
    expect(aggregate.json()).toEqual({
      count: 1,
      items: [
        {
          permission: 'read',
          user: expect.objectContaining({ id: guest.user.id }),
          origin: { type: 'site', site: id, reason: 'member' },
          disabled: false,
        },
      ],
    });
  });

  it('someone outside the organization cannot be given a role: 404, and nothing is stored', async () => {
    const o = await organization([]);
    const id = await o.site();
    const stranger = await t.factory.account();
    const res = await call(o.admin, 'POST', permissionsOf(o, id), { role: 'admin', users: [stranger.user.id] });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toContain(stranger.user.id);
    const patched = await call(o.admin, 'PATCH', `${permissionsOf(o, id)}/users/${stranger.user.id}`, { role: 'read' });
    expect(patched.statusCode).toBe(404);
    expect(await siteGrants(id)).toEqual([]);
    expect((await call(stranger, 'GET', sitePath(o, id))).statusCode).toBe(404);
  });
});

describe('the aggregate of a site', () => {
  it('lists everyone who reaches it with where their role comes from, filtered, sorted and paged', async () => {
    const o = await organization(['read', 'edit', null]);
    const id = await o.site();
    const reader = o.member('read');
    const guest = o.member(null);
    const teamId = await o.teamOf('Crew', [reader.user.id]);
    await call(o.admin, 'PATCH', `${permissionsOf(o, id)}/teams/${teamId}`, { role: 'create' });

    const all = await call(o.admin, 'GET', `${permissionsOf(o, id)}/aggregate?order=asc`);
    expect(all.statusCode, all.body).toBe(200);
    expectNewestSpecResponse('listPermissionsAggregateInSite', 200, all.json());
    // The guest reaches nothing: not listed.
    expect(all.json().count).toBe(3);
    const byUser = new Map((all.json().items as Array<{ user: { id: string } }>).map((item) => [item.user.id, item]));
    expect(byUser.has(guest.user.id)).toBe(false);
    expect(byUser.get(reader.user.id)).toEqual({
      permission: 'create',
      user: expect.objectContaining({ id: reader.user.id }),
      origin: { type: 'site', site: id, reason: 'team', team: teamId },
      disabled: false,
    });
    expect(byUser.get(o.member('edit').user.id)).toMatchObject({
      permission: 'edit',
      origin: { type: 'organization', organization: o.orgId },
    });

    const ofTeam = await call(o.admin, 'GET', `${permissionsOf(o, id)}/aggregate?team=${teamId}`);
    expect(ofTeam.json().items.map((item: { user: { id: string } }) => item.user.id)).toEqual([reader.user.id]);
    const byRole = await call(o.admin, 'GET', `${permissionsOf(o, id)}/aggregate?role=create`);
    expect(byRole.json()).toMatchObject({ count: 1, items: [{ user: { id: reader.user.id } }] });
    const searched = await call(
      o.admin,
      'GET',
      `${permissionsOf(o, id)}/aggregate?search=${encodeURIComponent(reader.user.email.slice(0, 8))}`,
    );
    expect(searched.json().items.map((item: { user: { id: string } }) => item.user.id)).toEqual([reader.user.id]);

    // By name, one at a time: every user once, in order, with the total on each page.
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await call(
        o.admin,
        'GET',
        `${permissionsOf(o, id)}/aggregate?sort=name&order=asc&limit=1${page ? `&page=${page}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().count).toBe(3);
      seen.push(...res.json().items.map((item: { user: { displayName: string } }) => item.user.displayName));
      page = res.json().next?.page;
    } while (page);
    expect(seen).toEqual([...seen].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(seen).toHaveLength(3);

    // A cursor of another list is refused.
    const first = await call(o.admin, 'GET', `${permissionsOf(o, id)}/aggregate?sort=name&limit=1`);
    const foreign = await call(
      o.admin,
      'GET',
      `${permissionsOf(o, id)}/aggregate?sort=joinedAt&limit=1&page=${first.json().next.page}`,
    );
    expect(foreign.statusCode).toBe(400);
    const none = await call(o.admin, 'GET', `${permissionsOf(o, id)}/aggregate?limit=0`);
    expect(none.json()).toEqual({ count: 3, items: [] });
  });
});

describe('bad requests and callers without the right', () => {
  let o: Org;
  let id: string;
  beforeAll(async () => {
    o = await organization(['read', 'edit']);
    id = await o.site();
  });

  it('refuse bad input with a 400 naming the field, and store nothing', async () => {
    const reader = o.member('read').user.id;
    const bad: Array<[Method, string, unknown]> = [
      ['POST', permissionsOf(o, id), { role: 'edit' }],
      ['POST', permissionsOf(o, id), { role: 'owner', users: [reader] }],
      ['POST', permissionsOf(o, id), { users: [reader] }],
      ['POST', permissionsOf(o, id), { role: 'edit', users: [] }],
      ['POST', permissionsOf(o, id), { role: 'edit', users: [reader, reader] }],
      ['POST', permissionsOf(o, id), { role: 'edit', users: Array.from({ length: 101 }, (_, i) => `u${i}`) }],
      ['POST', permissionsOf(o, id), { role: 'edit', users: [reader], extra: true }],
      ['PATCH', `${permissionsOf(o, id)}/users/${reader}`, { role: null }],
      ['PATCH', `${permissionsOf(o, id)}/users/${reader}`, {}],
      ['PATCH', `${permissionsOf(o, id)}/teams/x`, { role: 'guest' }],
      ['GET', `${permissionsOf(o, id)}/aggregate?sort=role`, undefined],
      ['GET', `${permissionsOf(o, id)}/aggregate?role=owner`, undefined],
      ['GET', `${permissionsOf(o, id)}/aggregate?limit=1001`, undefined],
      ['GET', `${permissionsOf(o, id)}/aggregate?page=forged`, undefined],
      ['GET', `${permissionsOf(o, id)}/users?page=forged`, undefined],
    ];
    for (const [method, url, payload] of bad) {
      const res = await call(o.admin, method, url, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(res.json()).toEqual({ error: { code: 400, message: expect.any(String) } });
    }
    expect(await siteGrants(id)).toEqual([]);
  });

  it('answer 401 without a token, 403 to members who are not its admins or whose token lacks the scope', async () => {
    const reader = o.member('read');
    expect((await call(undefined, 'GET', `${permissionsOf(o, id)}/users`)).statusCode).toBe(401);
    expect(
      (await call(undefined, 'POST', permissionsOf(o, id), { role: 'read', users: [reader.user.id] })).statusCode,
    ).toBe(401);

    const editor = o.member('edit');
    const writes: Array<[Method, string, unknown]> = [
      ['POST', permissionsOf(o, id), { role: 'admin', users: [editor.user.id] }],
      ['PATCH', `${permissionsOf(o, id)}/users/${editor.user.id}`, { role: 'admin' }],
      ['DELETE', `${permissionsOf(o, id)}/users/${editor.user.id}`, undefined],
    ];
    for (const [method, url, payload] of writes) {
      const res = await call(editor, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // Members read who may reach the site.
    expect((await call(editor, 'GET', `${permissionsOf(o, id)}/aggregate`)).statusCode).toBe(200);

    const readOnly = await t.factory.token(o.admin.user.id, { scopes: ['site:permissions:read'] });
    expect((await call(readOnly, 'GET', `${permissionsOf(o, id)}/users`)).statusCode).toBe(200);
    expect(
      (await call(readOnly, 'POST', permissionsOf(o, id), { role: 'admin', users: [editor.user.id] })).statusCode,
    ).toBe(403);
    expect(await siteGrants(id)).toEqual([]);
  });

  it('answer 404 to another organization, whose grants reach none of its sites', async () => {
    const attacker = await organization(['read']);
    const attackerSite = await attacker.site();
    const victimReader = o.member('read');
    const paths: Array<[Method, string, unknown]> = [
      ['POST', permissionsOf(o, id), { role: 'admin', users: [attacker.admin.user.id] }],
      ['GET', `${permissionsOf(o, id)}/users`, undefined],
      ['GET', `${permissionsOf(o, id)}/teams`, undefined],
      ['GET', `${permissionsOf(o, id)}/aggregate`, undefined],
      ['PATCH', `${permissionsOf(o, id)}/users/${attacker.admin.user.id}`, { role: 'admin' }],
      ['DELETE', `${permissionsOf(o, id)}/users/${victimReader.user.id}`, undefined],
      ['PATCH', `${permissionsOf(o, id)}/teams/whatever`, { role: 'admin' }],
      ['DELETE', `${permissionsOf(o, id)}/teams/whatever`, undefined],
      // The victim's site named under the attacker's organization.
      [
        'POST',
        `/v1/orgs/${attacker.orgId}/sites/${id}/permissions`,
        { role: 'admin', users: [attacker.admin.user.id] },
      ],
      ['GET', `/v1/orgs/${attacker.orgId}/sites/${id}/permissions/aggregate`, undefined],
    ];
    for (const [method, url, payload] of paths) {
      const res = await call(attacker.admin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // Inviting a member or team of another organization on one's own site is a 404.
    const victimTeam = await o.teamOf('Victims', [victimReader.user.id]);
    expect(
      (await call(attacker.admin, 'POST', permissionsOf(attacker, attackerSite), { role: 'read', teams: [victimTeam] }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await call(attacker.admin, 'POST', permissionsOf(attacker, attackerSite), {
          role: 'read',
          users: [victimReader.user.id],
        })
      ).statusCode,
    ).toBe(404);
    expect(await siteGrants(id)).toEqual([]);
    expect(await siteGrants(attackerSite)).toEqual([]);
    // The attacker's admin grant on its own site gives nothing on the victim's.
    await call(attacker.admin, 'POST', permissionsOf(attacker, attackerSite), {
      role: 'admin',
      users: [attacker.member('read').user.id],
    });
    expect((await call(attacker.member('read'), 'PATCH', sitePath(o, id), { title: 'Taken' })).statusCode).toBe(404);
  });
});

describe('the newest official client', () => {
  it('gives, lists, changes and takes away roles on a site', async () => {
    const o = await organization(['read']);
    const id = await o.site();
    const reader = o.member('read');
    const teamId = await o.teamOf('Docs team', [reader.user.id]);
    const api = await client(o.admin);

    const invited = await api.orgs.inviteToSite(o.orgId, id, { role: MemberRole.Edit, users: [reader.user.id] });
    expect(invited.status).toBe(204);
    await api.orgs.updateTeamPermissionInSite(o.orgId, id, teamId, { role: MemberRole.Admin });

    const users = await api.orgs.listUserPermissionsInSite(o.orgId, id);
    expect(users.data.items.map((item) => [item.user.id, item.permission])).toEqual([[reader.user.id, 'edit']]);
    const teams = await api.orgs.listTeamPermissionsInSite(o.orgId, id);
    expect(teams.data.items.map((item) => [item.team.id, item.permission])).toEqual([[teamId, 'admin']]);
    const aggregate = await api.orgs.listPermissionsAggregateInSite(o.orgId, id, {
      role: MemberRole.Admin,
      sort: 'name',
    });
    expect(aggregate.data.items.map((item) => item.user.id).sort()).toEqual([o.admin.user.id, reader.user.id].sort());

    await api.orgs.updateUserPermissionInSite(o.orgId, id, reader.user.id, { role: MemberRole.Read });
    expect((await api.orgs.removeUserFromSite(o.orgId, id, reader.user.id)).status).toBe(205);
    expect((await api.orgs.removeTeamFromSite(o.orgId, id, teamId)).status).toBe(205);
    expect(await siteGrants(id)).toEqual([]);
  });
});
