import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

const t = useTestApp();

const memberships = async (organizationId: string) =>
  Object.fromEntries(
    (
      await t.db
        .selectFrom('organization_members')
        .innerJoin('users', 'users.id', 'organization_members.user_id')
        .select(['users.email', 'organization_members.role', 'organization_members.sso'])
        .where('organization_id', '=', organizationId)
        .execute()
    ).map((row) => [row.email, [row.role, row.sso]]),
  );

describe('POST /v1/orgs/{organizationId}/invites', () => {
  it('stores pending invitations with their roles, creating no user and no membership', async () => {
    const { admin, organization } = await t.factory.team();
    const existing = await t.factory.user({ email: 'known@invites.example' });
    const membersBefore = await memberships(organization.id);
    const usersBefore = await t.db.selectFrom('users').select('id').execute();
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/invites`,
      headers: admin.headers,
      payload: {
        emails: [
          'New@Invites.example',
          { email: existing.email, role: 'edit' },
          { email: 'guest@invites.example', role: null },
        ],
        role: 'comment',
        sso: true,
      },
    });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('inviteUsersToOrganization', 200, res.json());
    expectNewestSpecResponse('inviteUsersToOrganization', 200, res.json());
    expect(res.json()).toMatchObject({ users: [], invited: 3 });
    // Without SMTP, the inviting admin gets the links to hand over.
    expect(
      res
        .json()
        .acceptLinks.map((link: { email: string }) => link.email)
        .sort(),
    ).toEqual(['guest@invites.example', 'known@invites.example', 'new@invites.example']);
    expect(await memberships(organization.id)).toEqual(membersBefore);
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(usersBefore.length);
    const stored = await t.db
      .selectFrom('organization_email_invitations')
      .select(['email', 'role', 'sso', 'invited_by'])
      .where('organization_id', '=', organization.id)
      .orderBy('email')
      .execute();
    expect(stored).toEqual([
      { email: 'guest@invites.example', role: null, sso: true, invited_by: admin.user.id },
      { email: 'known@invites.example', role: 'edit', sso: true, invited_by: admin.user.id },
      { email: 'new@invites.example', role: 'comment', sso: true, invited_by: admin.user.id },
    ]);

    // A member already in the organization is not invited, nor counted.
    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/invites`,
      headers: admin.headers,
      payload: { emails: [admin.user.email] },
    });
    expect(again.json()).toEqual({ users: [], invited: 0, acceptLinks: [] });
  });

  it('is for admins, and refuses bad e-mails and lists, adding no one', async () => {
    const { admin, organization, member } = await t.factory.team(['create']);
    const before = await memberships(organization.id);
    const cases: Array<[Account, object, number]> = [
      [member('create'), { emails: ['a@b.example'] }, 403],
      [admin, { emails: [] }, 400],
      [admin, { emails: ['not-an-email'] }, 400],
      [admin, { emails: Array.from({ length: 101 }, (_, i) => `u${i}@x.example`) }, 400],
      [admin, { emails: [{ email: 'a@b.example', role: 'owner' }] }, 400],
      [admin, {}, 400],
    ];
    for (const [account, payload, status] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/invites`,
        headers: account.headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(status);
    }
    expect(await memberships(organization.id)).toEqual(before);
    const invitations = t.db
      .selectFrom('organization_email_invitations')
      .selectAll()
      .where('organization_id', '=', organization.id);
    expect(await invitations.execute()).toEqual([]);
  });
});

describe('invite links', () => {
  it('are created, listed, read, re-roled, joined with and deleted', async () => {
    const { admin, organization } = await t.factory.team();
    const base = `/v1/orgs/${organization.id}/link-invites`;
    const created = await t.app.inject({
      method: 'POST',
      url: base,
      headers: admin.headers,
      payload: { role: 'edit' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      object: 'invite',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      role: 'edit',
      redundant: true,
    });
    expectSpecResponse('createOrganizationInvite', 201, created.json());
    const inviteId = created.json().id;

    const list = await t.app.inject({ method: 'GET', url: base, headers: admin.headers });
    expect(list.json().count).toBe(1);
    expectSpecResponse('listOrganizationInviteLinks', 200, list.json());

    const newcomer = await t.factory.account();
    const read = await t.app.inject({ method: 'GET', url: `${base}/${inviteId}`, headers: newcomer.headers });
    expect(read.json()).toMatchObject({ role: 'edit', redundant: false });
    expectSpecResponse('getOrganizationInviteLink', 200, read.json());

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${base}/${inviteId}`,
      headers: admin.headers,
      payload: { role: 'review' },
    });
    expect(patched.json().role).toBe('review');
    expectSpecResponse('updateOrganizationInviteById', 200, patched.json());

    const joined = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/invites/${inviteId}`,
      headers: newcomer.headers,
    });
    expect(joined.statusCode).toBe(200);
    expectSpecResponse('joinOrganizationWithInvite', 200, joined.json());
    expect((await memberships(organization.id))[newcomer.user.email]).toEqual(['review', false]);
    // Joining again keeps the role the member has by now.
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${organization.id}/members/${newcomer.user.id}`,
      headers: admin.headers,
      payload: { role: 'admin' },
    });
    await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/invites/${inviteId}`,
      headers: newcomer.headers,
    });
    expect((await memberships(organization.id))[newcomer.user.email]).toEqual(['admin', false]);

    const deleted = await t.app.inject({ method: 'DELETE', url: `${base}/${inviteId}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    const late = await t.factory.account();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/orgs/${organization.id}/invites/${inviteId}`,
          headers: late.headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('stop working while the organization turns invite links off', async () => {
    const { admin, organization } = await t.factory.team();
    const base = `/v1/orgs/${organization.id}/link-invites`;
    const inviteId = (
      await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: { role: 'read' } })
    ).json().id;
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${organization.id}`,
      headers: admin.headers,
      payload: { inviteLinks: false },
    });

    const stranger = await t.factory.account();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/orgs/${organization.id}/invites/${inviteId}`,
          headers: stranger.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `${base}/${inviteId}`, headers: stranger.headers })).statusCode,
    ).toBe(404);
    const refused = await t.app.inject({
      method: 'POST',
      url: base,
      headers: admin.headers,
      payload: { role: 'read' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Invite links are turned off for this organization (inviteLinks)');
    expect(await memberships(organization.id)).not.toHaveProperty(stranger.user.email);

    await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${organization.id}`,
      headers: admin.headers,
      payload: { inviteLinks: true },
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/orgs/${organization.id}/invites/${inviteId}`,
          headers: stranger.headers,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('are managed by admins only, and refuse space and collection invites', async () => {
    const { admin, organization, member } = await t.factory.team(['create']);
    const base = `/v1/orgs/${organization.id}/link-invites`;
    expect(
      (await t.app.inject({ method: 'POST', url: base, headers: member('create').headers, payload: { role: 'read' } }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: base, headers: member('create').headers })).statusCode).toBe(403);
    const spaceInvite = await t.app.inject({
      method: 'POST',
      url: base,
      headers: admin.headers,
      payload: { level: 'read', space: 'x' },
    });
    expect(spaceInvite.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: {} })).statusCode).toBe(
      400,
    );
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${base}/AAAAAAAAAAAAAAAAAAAA`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      await t.db
        .selectFrom('organization_invites')
        .select('id')
        .where('organization_id', '=', organization.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('invites through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('invites by e-mail, and creates, joins with and deletes a link', async () => {
    const { admin, organization } = await t.factory.team();
    const client = officialClient(endpoint, admin.token);
    expect(
      (await client.orgs.inviteUsersToOrganization(organization.id, { emails: ['client@invites.example'] })).data
        .invited,
    ).toBe(1);
    const link = await client.orgs.createOrganizationInvite(organization.id, { role: 'read' as never });
    expect(link.status).toBe(201);
    const joiner = await t.factory.account();
    expect(
      (await officialClient(endpoint, joiner.token).orgs.joinOrganizationWithInvite(organization.id, link.data.id))
        .status,
    ).toBe(200);
    expect((await client.orgs.listOrganizationInviteLinks(organization.id)).data.count).toBe(1);
    expect((await client.orgs.deleteOrganizationInviteById(organization.id, link.data.id)).status).toBe(205);
  });
});
