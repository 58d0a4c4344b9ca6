import { describe, expect, it } from 'vitest';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

async function orgRow(id: string) {
  return t.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('GET /v1/orgs/{organizationId}', () => {
  it('returns every field of the organization to a member, as the spec describes', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id, {
      title: 'Acme Docs',
      emailDomains: ['acme.com'],
      hostname: 'acme-docs',
    });

    const res = await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: owner.headers });

    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      object: 'organization',
      id: org.id,
      title: 'Acme Docs',
      createdAt: org.created_at.toISOString(),
      emailDomains: ['acme.com'],
      hostname: 'acme-docs',
      type: 'business',
      defaultRole: 'read',
      sso: false,
      ai: false,
      inviteLinks: true,
      plan: 'enterprise_2024',
      internal_isOnNewTrial: true,
      mergeRules: { type: 'none' },
      urls: { location: `${PUBLIC_URL}/v1/orgs/${org.id}`, app: `${PUBLIC_URL}/app/o/${org.id}` },
      trial: { status: 'notapplicable', count: 0 },
      permissions: {
        view: true,
        access: true,
        admin: true,
        ownTeam: false,
        createContent: true,
        createOpenAPISpec: true,
        ingestConversations: true,
        viewBilling: true,
        listMembers: true,
        listTeams: true,
        listIntegrations: true,
        listInstallations: true,
        installIntegration: true,
      },
    });
    expect(body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expectSpecResponse('getOrganizationById', 200, body);
  });

  it('computes permissions from the caller’s role', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id);
    const reader = await t.factory.account();
    const creator = await t.factory.account();
    const guest = await t.factory.account();
    await t.factory.member(org.id, reader.user.id, 'read');
    await t.factory.member(org.id, creator.user.id, 'create');
    await t.factory.member(org.id, guest.user.id, null);

    const permissionsOf = async (headers: { authorization: string }) =>
      (await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers })).json().permissions;

    expect(await permissionsOf(reader.headers)).toMatchObject({
      view: true,
      admin: false,
      createContent: false,
      ingestConversations: false,
      listMembers: true,
      viewBilling: false,
      installIntegration: false,
    });
    expect(await permissionsOf(creator.headers)).toMatchObject({
      view: true,
      admin: false,
      createContent: true,
      ingestConversations: true,
    });
    expect(await permissionsOf(guest.headers)).toMatchObject({
      view: true,
      admin: false,
      createContent: false,
      listMembers: false,
      listTeams: false,
    });
  });

  it('answers 404 for another organization’s id, exactly as for an unknown id', async () => {
    const alice = await t.factory.account();
    const bob = await t.factory.account();
    const bobsOrg = await t.factory.organization(bob.user.id);

    const foreign = await t.app.inject({ method: 'GET', url: `/v1/orgs/${bobsOrg.id}`, headers: alice.headers });
    const unknown = await t.app.inject({ method: 'GET', url: '/v1/orgs/AAAAAAAAAAAAAAAAAAAA', headers: alice.headers });

    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 404, message: 'No organization with this id is visible to you' } });
    expect(unknown.json()).toEqual(foreign.json());
    expectSpecResponse('getOrganizationById', 404, foreign.json());
  });

  it('answers 404 to a disabled member', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id);
    const former = await t.factory.account();
    await t.factory.member(org.id, former.user.id, 'edit', { disabled: true });

    const res = await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: former.headers });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /v1/orgs', () => {
  it('lists only the caller’s organizations, newest first, with the total count', async () => {
    const me = await t.factory.account();
    const other = await t.factory.account();
    const first = await t.factory.organization(me.user.id, { title: 'First' });
    const second = await t.factory.organization(other.user.id, { title: 'Second' });
    await t.factory.member(second.id, me.user.id, 'read');
    await t.factory.organization(other.user.id, { title: 'Not mine' });

    const res = await t.app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers });

    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    expect(body.next).toBeUndefined();
    expect(body.items.map((o: { title: string }) => o.title)).toEqual(['Second', 'First']);
    expect(body.items[0].permissions.admin).toBe(false);
    expect(body.items[1].permissions.admin).toBe(true);
    expect(body.items[1].id).toBe(first.id);
    expectSpecResponse('listOrganizationsForAuthenticatedUser', 200, body);
  });

  it('pages with an opaque cursor until every organization was seen once', async () => {
    const me = await t.factory.account();
    const ids = new Set<string>();
    for (let i = 0; i < 7; i++) ids.add((await t.factory.organization(me.user.id, { title: `Paged ${i}` })).id);

    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/orgs',
        query: { limit: '3', ...(page ? { page } : {}) },
        headers: me.headers,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.count).toBe(7);
      expect(body.items.length).toBeLessThanOrEqual(3);
      seen.push(...body.items.map((o: { id: string }) => o.id));
      page = body.next?.page;
      pages++;
    } while (page);

    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(ids);
  });

  it('orders ties on creation time by id', async () => {
    const me = await t.factory.account();
    const sameTime = new Date('2026-01-01T00:00:00.000Z');
    const orgs = [];
    for (let i = 0; i < 4; i++) orgs.push(await t.factory.organization(me.user.id));
    await t.db
      .updateTable('organizations')
      .set({ created_at: sameTime })
      .where(
        'id',
        'in',
        orgs.map((o) => o.id),
      )
      .execute();

    const ids: string[] = [];
    let page: string | undefined;
    do {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/orgs',
        query: { limit: '1', ...(page ? { page } : {}) },
        headers: me.headers,
      });
      const body = res.json();
      ids.push(...body.items.map((o: { id: string }) => o.id));
      page = body.next?.page;
    } while (page);

    expect(ids).toEqual(
      orgs
        .map((o) => o.id)
        .sort()
        .reverse(),
    );
  });

  it('with limit=0 returns only the count', async () => {
    const me = await t.factory.account();
    await t.factory.organization(me.user.id);
    await t.factory.organization(me.user.id);

    const res = await t.app.inject({ method: 'GET', url: '/v1/orgs?limit=0', headers: me.headers });
    expect(res.json()).toEqual({ count: 2, items: [] });
  });

  it('refuses a limit over 1000, a negative limit and a fractional one', async () => {
    const me = await t.factory.account();
    for (const limit of ['1001', '-1', '2.5', 'many']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/orgs?limit=${limit}`, headers: me.headers });
      expect(res.statusCode, `limit=${limit}`).toBe(400);
      expect(res.json().error.message).toMatch(/^querystring\/limit /);
    }
  });

  it('refuses a malformed, tampered or foreign cursor with 400', async () => {
    const me = await t.factory.account();
    const someoneElse = await t.factory.account();
    for (let i = 0; i < 3; i++) {
      await t.factory.organization(me.user.id);
      await t.factory.organization(someoneElse.user.id);
    }
    const mine = (await t.app.inject({ method: 'GET', url: '/v1/orgs?limit=1', headers: me.headers })).json().next
      .page as string;
    const theirs = (await t.app.inject({ method: 'GET', url: '/v1/orgs?limit=1', headers: someoneElse.headers })).json()
      .next.page as string;
    const [body, signature] = mine.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, t: '2000-01-01T00:00:00.000Z' })).toString('base64url')}.${signature}`;

    for (const page of ['garbage', `${body}.`, forged, theirs, `${mine}x`]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/orgs', query: { page }, headers: me.headers });
      expect(res.statusCode, page).toBe(400);
      expect(res.json().error.message).toMatch(/^querystring\/page /);
    }
  });
});

describe('PATCH /v1/orgs/{organizationId}', () => {
  it('updates every accepted field and returns the organization', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id);

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: owner.headers,
      payload: {
        title: 'Renamed',
        emailDomains: ['Example.COM', 'example.com', 'docs.example.org'],
        hostname: 'renamed-org',
        defaultRole: null,
        defaultContent: null,
        logo: 'https://cdn.example.com/logo.png',
        sso: true,
        ai: true,
        inviteLinks: false,
      },
    });

    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      title: 'Renamed',
      emailDomains: ['example.com', 'docs.example.org'],
      hostname: 'renamed-org',
      defaultRole: null,
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://cdn.example.com/logo.png' },
    });
    expectSpecResponse('updateOrganizationById', 200, body);
    const stored = await orgRow(org.id);
    expect(stored).toMatchObject({
      title: 'Renamed',
      hostname: 'renamed-org',
      default_role: null,
      sso: true,
      ai: true,
      invite_links: false,
    });
    expect(stored.updated_at.getTime()).toBeGreaterThanOrEqual(org.updated_at.getTime());

    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: owner.headers,
      payload: { logo: null, defaultRole: 'edit' },
    });
    expect(cleared.json().urls.logo).toBeUndefined();
    expect(cleared.json().defaultRole).toBe('edit');
    expect(cleared.json().title).toBe('Renamed');
  });

  it('leaves everything as it was for an empty body', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id, { title: 'Unchanged' });
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/orgs/${org.id}`, headers: owner.headers, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('Unchanged');
  });

  const badBodies: Array<[string, Record<string, unknown>, RegExp]> = [
    ['title shorter than 2', { title: 'A' }, /^body\/title must NOT have fewer than 2 characters$/],
    ['title longer than 255', { title: 'x'.repeat(256) }, /^body\/title must NOT have more than 255 characters$/],
    ['title not a string', { title: 42 }, /^body\/title must be string$/],
    ['hostname shorter than 3', { hostname: 'ab' }, /^body\/hostname must NOT have fewer than 3 characters$/],
    ['hostname longer than 32', { hostname: 'a'.repeat(33) }, /^body\/hostname must NOT have more than 32 characters$/],
    ['hostname not a DNS label', { hostname: 'Acme Docs' }, /^body\/hostname must match pattern/],
    ['hostname ending with a dash', { hostname: 'acme-' }, /^body\/hostname must match pattern/],
    ['emailDomains not an array', { emailDomains: 'acme.com' }, /^body\/emailDomains must be array$/],
    [
      'an email domain that is not a domain',
      { emailDomains: ['not a domain'] },
      /^body\/emailDomains\/0 must match pattern/,
    ],
    [
      'too many email domains',
      { emailDomains: Array.from({ length: 51 }, (_, i) => `d${i}.com`) },
      /^body\/emailDomains must NOT have more than 50 items$/,
    ],
    [
      'an unknown defaultRole',
      { defaultRole: 'owner' },
      /^body\/defaultRole must be one of: "read", "comment", "review", "edit", "create", "admin", null$/,
    ],
    ['defaultContent of another type', { defaultContent: { type: 'space', space: 'x' } }, /^body\/defaultContent/],
    [
      'defaultContent pointing at a site that does not exist',
      { defaultContent: { type: 'site', site: 'nope' } },
      /^body\/defaultContent\/site: no site "nope"/,
    ],
    ['logo that is not a URL', { logo: 'not a url' }, /^body\/logo must match (format "uri"|pattern)/],
    [
      'logo longer than 2048',
      { logo: `https://example.com/${'x'.repeat(2048)}` },
      /^body\/logo must NOT have more than 2048 characters$/,
    ],
    ['logo with another scheme', { logo: 'javascript:alert(1)' }, /^body\/logo must match pattern/],
    ['sso not a boolean', { sso: 'yes' }, /^body\/sso must be boolean$/],
    ['ai not a boolean', { ai: 1 }, /^body\/ai must be boolean$/],
    ['inviteLinks not a boolean', { inviteLinks: null }, /^body\/inviteLinks must be boolean$/],
    ['an unknown field', { plan: 'free' }, /^body\/plan is not an accepted field$/],
  ];

  it.each(badBodies)('refuses %s with 400 and changes nothing', async (_case, payload, message) => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id, {
      title: 'Before',
      hostname: `h${Math.random().toString(36).slice(2, 10)}`,
    });
    const before = await orgRow(org.id);

    const res = await t.app.inject({ method: 'PATCH', url: `/v1/orgs/${org.id}`, headers: owner.headers, payload });

    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe(400);
    expect(res.json().error.message).toMatch(message);
    expect(await orgRow(org.id)).toEqual(before);
  });

  it('accepts the bounds themselves', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id);
    for (const payload of [
      { title: 'ab' },
      { title: 'x'.repeat(255) },
      { hostname: 'abc' },
      { hostname: `a${'b'.repeat(30)}c` },
      { emailDomains: [] },
    ]) {
      const res = await t.app.inject({ method: 'PATCH', url: `/v1/orgs/${org.id}`, headers: owner.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
    }
  });

  it('refuses a hostname another organization has with 409', async () => {
    const owner = await t.factory.account();
    await t.factory.organization(owner.user.id, { hostname: 'taken-name' });
    const org = await t.factory.organization(owner.user.id, { title: 'Second' });

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: owner.headers,
      payload: { hostname: 'taken-name', title: 'Changed' },
    });

    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 409, message: 'hostname is already in use' } });
    expect((await orgRow(org.id)).title).toBe('Second');
  });

  it('is refused with 403 to a member who is not an admin, and changes nothing', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id, { title: 'Kept' });
    const creator = await t.factory.account();
    await t.factory.member(org.id, creator.user.id, 'create');

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: creator.headers,
      payload: { title: 'Hijacked' },
    });

    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: { code: 403, message: 'Only organization admins can update the organization' },
    });
    expect((await orgRow(org.id)).title).toBe('Kept');
  });

  it('is a 404 for a caller outside the organization', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id, { title: 'Private' });
    const stranger = await t.factory.account();

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: stranger.headers,
      payload: { title: 'Hijacked' },
    });

    expect(res.statusCode).toBe(404);
    expect((await orgRow(org.id)).title).toBe('Private');
  });

  it('keeps both changes of two concurrent updates to different fields', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id);

    const [a, b] = await Promise.all([
      t.app.inject({
        method: 'PATCH',
        url: `/v1/orgs/${org.id}`,
        headers: owner.headers,
        payload: { title: 'Concurrent' },
      }),
      t.app.inject({ method: 'PATCH', url: `/v1/orgs/${org.id}`, headers: owner.headers, payload: { ai: true } }),
    ]);

    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await orgRow(org.id)).toMatchObject({ title: 'Concurrent', ai: true });
  });

  it('lets only one of two organizations claim the same hostname at once', async () => {
    const owner = await t.factory.account();
    const first = await t.factory.organization(owner.user.id);
    const second = await t.factory.organization(owner.user.id);

    const results = await Promise.all(
      [first, second].map((org) =>
        t.app.inject({
          method: 'PATCH',
          url: `/v1/orgs/${org.id}`,
          headers: owner.headers,
          payload: { hostname: 'race-name' },
        }),
      ),
    );

    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const holders = await t.db.selectFrom('organizations').select('id').where('hostname', '=', 'race-name').execute();
    expect(holders).toHaveLength(1);
  });
});

describe('POST /v1/orgs', () => {
  it('creates an organization with the caller as its admin and a Location header', async () => {
    const me = await t.factory.account();

    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: me.headers,
      payload: {
        title: 'Brand new',
        emailDomains: ['brand.example'],
        type: 'community',
        communityType: 'openSource',
        useCase: 'openSourceDocs',
      },
    });

    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(res.headers.location).toBe(`${PUBLIC_URL}/v1/orgs/${body.id}`);
    expect(body).toMatchObject({
      title: 'Brand new',
      type: 'community',
      communityType: 'openSource',
      useCase: 'openSourceDocs',
      emailDomains: ['brand.example'],
    });
    expect(body.permissions.admin).toBe(true);
    expectSpecResponse('getOrganizationById', 200, body);
    const membership = await t.db
      .selectFrom('organization_members')
      .selectAll()
      .where('organization_id', '=', body.id)
      .execute();
    expect(membership).toEqual([expect.objectContaining({ user_id: me.user.id, role: 'admin', disabled: false })]);

    const read = await t.app.inject({ method: 'GET', url: `/v1/orgs/${body.id}`, headers: me.headers });
    expect(read.json()).toEqual(body);
  });

  it('refuses a missing title and unknown enum values, creating nothing', async () => {
    const me = await t.factory.account();
    for (const [payload, message] of [
      [{}, /^body\/title is required$/],
      [{ title: 'Fine', type: 'enterprise' }, /^body\/type must be one of: "business", "community"$/],
      [{ title: 'Fine', useCase: 'fun' }, /^body\/useCase must be one of/],
      [{ title: 'Fine', extra: true }, /^body\/extra is not an accepted field$/],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/orgs', headers: me.headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    const memberships = await t.db
      .selectFrom('organization_members')
      .select('organization_id')
      .where('user_id', '=', me.user.id)
      .execute();
    expect(memberships).toEqual([]);
  });
});

describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
  it('lists the organizations at the caller’s own verified domain, and nothing for another domain', async () => {
    const insider = await t.factory.account({ email: 'insider@widgets.example', verified: true });
    const outsider = await t.factory.account({ email: 'outsider@elsewhere.example', verified: true });
    const colleague = await t.factory.account({ email: 'colleague@widgets.example', verified: true });
    const unproven = await t.factory.account({ email: 'claims@widgets.example' });
    const widgets = await t.factory.organization(insider.user.id, {
      title: 'Widgets',
      emailDomains: ['widgets.example'],
    });
    const unrelated = await t.factory.organization(insider.user.id, {
      title: 'Unrelated',
      emailDomains: ['other.example'],
    });

    const forInsider = await t.app.inject({
      method: 'GET',
      url: '/v1/email-domains/WIDGETS.example/orgs',
      headers: insider.headers,
    });
    expect(forInsider.statusCode).toBe(200);
    expect(forInsider.json().organizations.map((o: { id: string }) => o.id)).toEqual([widgets.id]);
    expectSpecResponse('getOrganizationsForEmailDomain', 200, forInsider.json());

    const forColleague = (
      await t.app.inject({ method: 'GET', url: '/v1/email-domains/widgets.example/orgs', headers: colleague.headers })
    ).json();
    expect(forColleague.organizations.map((o: { id: string }) => o.id)).toEqual([widgets.id]);
    expect(forColleague.organizations[0].permissions).toMatchObject({ view: false, admin: false });

    // Another domain lists nothing, even one of the caller's own organizations.
    for (const [account, domain] of [
      [outsider, 'widgets.example'],
      [insider, 'other.example'],
      [unproven, 'widgets.example'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/email-domains/${domain}/orgs`,
        headers: account.headers,
      });
      expect([res.statusCode, res.json()], `${account.user.email} ${domain}`).toEqual([200, { organizations: [] }]);
    }
    expect(unrelated.id).toBeTruthy();
  });

  it('refuses something that is not a domain', async () => {
    const me = await t.factory.account();
    const res = await t.app.inject({ method: 'GET', url: '/v1/email-domains/not_a_domain/orgs', headers: me.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^params\/emailDomain must match pattern/);
  });
});
