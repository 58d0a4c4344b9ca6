import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient, officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

/** Request fields @gitbook/api 0.202.0 allows in operations the service already served without them. */
const t = useTestApp();
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;
let outsider: Team;

beforeAll(async () => {
  team = await t.factory.team(['read', null]);
  admin = team.admin;
  outsider = await t.factory.team();
});

let endpoint: Promise<string> | undefined;
const address = () => (endpoint ??= listen(t.app));
const newest = async (account: Account) => newestOfficialClient(await address(), account.token);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (account: Account, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });

async function space(owner: Team, title: string) {
  const created = await api.createSpace(owner.admin, owner.organization.id, { title });
  await api.change(owner.admin, created.id, [
    { operation: 'insert_page', title: 'Welcome', document: { markdown: `Welcome to ${title}.` } },
  ]);
  return created.id;
}

async function site(owner: Team, title = 'Acme Docs') {
  const created = await call(owner.admin, 'POST', `/orgs/${owner.organization.id}/sites`, { title });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as { id: string }).id;
}

describe('listMembersInOrganizationById with sort=name', () => {
  it('orders by display name, any case, in both orders, page by page through the newest client', async () => {
    const owner = await t.factory.team();
    const names = ['delta', 'Bravo', 'alpha', 'Charlie', 'bravo'];
    for (const name of names) {
      const member = await t.factory.account({ name });
      await t.factory.member(owner.organization.id, member.user.id, 'read');
    }
    const client = await newest(owner.admin);
    const pages = async (order: 'asc' | 'desc') => {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const res = await client.orgs.listMembersInOrganizationById(owner.organization.id, {
          sort: 'name',
          order,
          limit: 2,
          ...(page ? { page } : {}),
        });
        expectNewestSpecResponse('listMembersInOrganizationById', 200, res.data);
        expect(res.data.count).toBe(names.length + 1);
        seen.push(...res.data.items.map((member) => member.user.displayName));
        page = res.data.next?.page;
      } while (page);
      return seen;
    };
    const adminName = owner.admin.user.display_name;
    const expected = [...names, adminName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    const ascending = await pages('asc');
    expect(ascending.map((name) => name.toLowerCase())).toEqual(expected.map((name) => name.toLowerCase()));
    expect(new Set(ascending)).toEqual(new Set(expected));
    const descending = await pages('desc');
    expect(descending.map((name) => name.toLowerCase())).toEqual(
      [...expected].reverse().map((name) => name.toLowerCase()),
    );
  });

  it('keeps the role filter and search, refuses another list’s cursor, and hides the roster from guests', async () => {
    const filtered = await call(admin, 'GET', `/orgs/${team.organization.id}/members?sort=name&role=read`);
    expect(filtered.statusCode).toBe(200);
    expect((filtered.json() as { items: Array<{ role: string }> }).items.map((member) => member.role)).toEqual([
      'read',
    ]);
    const byJoin = await call(admin, 'GET', `/orgs/${team.organization.id}/members?limit=1`);
    const cursor = (byJoin.json() as { next: { page: string } }).next.page;
    const mixed = await call(admin, 'GET', `/orgs/${team.organization.id}/members?sort=name&page=${cursor}`);
    expect(mixed.statusCode).toBe(400);
    expect((await call(team.member(null), 'GET', `/orgs/${team.organization.id}/members?sort=name`)).statusCode).toBe(
      403,
    );
    expect((await call(outsider.admin, 'GET', `/orgs/${team.organization.id}/members?sort=name`)).statusCode).toBe(404);
  });
});

describe('siteSectionGroupId on a site section', () => {
  async function siteWithGroup() {
    const siteId = await site(team);
    const base = `/orgs/${team.organization.id}/sites/${siteId}`;
    const first = await call(admin, 'POST', `${base}/sections`, { spaceId: await space(team, 'Guides') });
    expect(first.statusCode, first.body).toBe(201);
    const group = await call(admin, 'POST', `${base}/section-groups`, { title: 'Products' });
    expect(group.statusCode, group.body).toBe(201);
    return { siteId, base, groupId: (group.json() as { id: string }).id, firstId: (first.json() as { id: string }).id };
  }

  const groupOf = async (sectionId: string) =>
    (await t.db.selectFrom('site_sections').select('group_id').where('id', '=', sectionId).executeTakeFirstOrThrow())
      .group_id;

  it('adds a section into a group and moves sections in and out, through the newest client', async () => {
    const { siteId, groupId, firstId } = await siteWithGroup();
    const client = await newest(admin);
    const added = await client.orgs.addSectionToSite(team.organization.id, siteId, {
      spaceId: await space(team, 'API'),
      siteSectionGroupId: groupId,
    });
    expectNewestSpecResponse('addSectionToSite', 201, added.data);
    expect(added.data.sectionGroup).toBe(groupId);
    expect(await groupOf(added.data.id)).toBe(groupId);

    const moved = await client.orgs.updateSiteSectionById(team.organization.id, siteId, firstId, {
      siteSectionGroupId: groupId,
    });
    expectNewestSpecResponse('updateSiteSectionById', 200, moved.data);
    expect(moved.data.sectionGroup).toBe(groupId);
    const inGroup = await t.db
      .selectFrom('site_sections')
      .select('id')
      .where('group_id', '=', groupId)
      .orderBy('position')
      .execute();
    expect(inGroup.map((section) => section.id)).toEqual([added.data.id, firstId]);

    const out = await client.orgs.updateSiteSectionById(team.organization.id, siteId, firstId, {
      siteSectionGroupId: null,
    });
    expect(out.data.sectionGroup).toBeUndefined();
    expect(await groupOf(firstId)).toBeNull();
  });

  it('refuses a group the site lacks (400), another organization’s included, and changes nothing', async () => {
    const { base, firstId } = await siteWithGroup();
    const theirSite = await site(outsider, 'Theirs');
    await call(outsider.admin, 'POST', `/orgs/${outsider.organization.id}/sites/${theirSite}/sections`, {
      spaceId: await space(outsider, 'Theirs'),
    });
    const theirGroup = await call(
      outsider.admin,
      'POST',
      `/orgs/${outsider.organization.id}/sites/${theirSite}/section-groups`,
      {
        title: 'Theirs',
      },
    );
    const foreignGroupId = (theirGroup.json() as { id: string }).id;
    const sectionsBefore = await t.db
      .selectFrom('site_sections')
      .select(['id', 'group_id', 'position'])
      .orderBy('id')
      .execute();
    for (const groupId of ['missing0000000000000', foreignGroupId]) {
      const added = await call(admin, 'POST', `${base}/sections`, {
        spaceId: await space(team, 'Refused'),
        siteSectionGroupId: groupId,
      });
      expect(added.statusCode, added.body).toBe(400);
      expect((added.json() as { error: { message: string } }).error.message).toBe(
        `body/siteSectionGroupId: the site has no section group "${groupId}"`,
      );
      const updated = await call(admin, 'PATCH', `${base}/sections/${firstId}`, { siteSectionGroupId: groupId });
      expect(updated.statusCode).toBe(400);
    }
    expect(
      await t.db.selectFrom('site_sections').select(['id', 'group_id', 'position']).orderBy('id').execute(),
    ).toEqual(sectionsBefore);
    // The outsider cannot move a section of this site into their group, nor see the site.
    const foreign = await call(
      outsider.admin,
      'PATCH',
      `/orgs/${team.organization.id}${base.slice(base.indexOf('/sites'))}/sections/${firstId}`,
      {
        siteSectionGroupId: foreignGroupId,
      },
    );
    expect(foreign.statusCode).toBe(404);
  });
});

describe('logoutURL in visitor authentication', () => {
  const authPath = (siteId: string) => `/orgs/${team.organization.id}/sites/${siteId}/publishing/auth`;
  const storedLogout = async (siteId: string) =>
    (await t.db.selectFrom('sites').select('auth_logout_url').where('id', '=', siteId).executeTakeFirstOrThrow())
      .auth_logout_url;

  it('is set, kept when left out, and removed by null, through the newest client', async () => {
    const siteId = await site(team);
    const client = await newest(admin);
    const set = await client.orgs.updateSitePublishingAuthById(team.organization.id, siteId, {
      backend: 'custom',
      logoutURL: 'https://auth.acme.example/logout',
    });
    expectNewestSpecResponse('updateSitePublishingAuthById', 200, set.data);
    expect(set.data.logoutURL).toBe('https://auth.acme.example/logout');
    expect(await storedLogout(siteId)).toBe('https://auth.acme.example/logout');

    const kept = await call(admin, 'PATCH', authPath(siteId), {
      backend: 'custom',
      fallbackURL: 'https://acme.example/in',
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({
      logoutURL: 'https://auth.acme.example/logout',
      fallbackURL: 'https://acme.example/in',
    });
    expectSpecResponse('updateSitePublishingAuthById', 200, kept.json());
    const read = await call(admin, 'GET', authPath(siteId));
    expect((read.json() as { logoutURL: string }).logoutURL).toBe('https://auth.acme.example/logout');

    const removed = await call(admin, 'PATCH', authPath(siteId), { backend: 'custom', logoutURL: null });
    expect(removed.json()).not.toHaveProperty('logoutURL');
    expect(await storedLogout(siteId)).toBeNull();
  });

  it('refuses another scheme or an overlong address (400), and non-admins (403, 404), changing nothing', async () => {
    const siteId = await site(team);
    for (const logoutURL of [
      'javascript:alert(1)',
      'ftp://acme.example/x',
      `https://acme.example/${'x'.repeat(2048)}`,
    ]) {
      const res = await call(admin, 'PATCH', authPath(siteId), { backend: 'custom', logoutURL });
      expect(res.statusCode, logoutURL.slice(0, 40)).toBe(400);
    }
    const body = { backend: 'custom', logoutURL: 'https://evil.example/' };
    expect((await call(team.member('read'), 'PATCH', authPath(siteId), body)).statusCode).toBe(403);
    expect((await call(outsider.admin, 'PATCH', authPath(siteId), body)).statusCode).toBe(404);
    expect(await storedLogout(siteId)).toBeNull();
  });
});

describe('0.202.0’s customization settings', () => {
  const customizationPath = (siteId: string) => `/orgs/${team.organization.id}/sites/${siteId}/customization`;

  it('takes socialAccounts, a code theme and the page menu’s items without pdf or git, answering both specs', async () => {
    const siteId = await site(team);
    const client = await newest(admin);
    const defaults = await client.orgs.getSiteCustomizationById(team.organization.id, siteId);
    expectNewestSpecResponse('getSiteCustomizationById', 200, defaults.data);
    expectSpecResponse('getSiteCustomizationById', 200, defaults.data);
    expect(defaults.data.socialAccounts).toEqual([]);
    expect(defaults.data.pageActions.items).toEqual(['external-ai', 'markdown', 'mcp']);

    const {
      pdf: _pdf,
      git: _git,
      ...withoutLegacy
    } = defaults.data as typeof defaults.data & {
      pdf?: unknown;
      git?: unknown;
    };
    const settings = {
      ...withoutLegacy,
      styling: {
        ...withoutLegacy.styling,
        codeTheme: {
          default: { light: 'github-light', dark: 'github-dark' },
          openapi: { light: 'one-light', dark: 'one-dark-pro' },
        },
      },
      socialAccounts: [
        { platform: 'github', handle: 'acme', display: { footer: true, header: false } },
        { platform: 'mastodon', handle: 'acme@fosstodon.org', display: { footer: true, header: true } },
        { platform: 'twitter', handle: 'acme', display: { footer: false, header: true } },
      ],
      pageActions: { items: ['pdf', 'markdown', 'git'] },
    } as typeof defaults.data;
    const updated = await client.orgs.updateSiteCustomizationById(team.organization.id, siteId, settings);
    expectNewestSpecResponse('updateSiteCustomizationById', 200, updated.data);
    expectSpecResponse('updateSiteCustomizationById', 200, updated.data);
    expect(updated.data.styling.codeTheme).toEqual(settings.styling.codeTheme);
    expect(updated.data.socialAccounts).toEqual(settings.socialAccounts);
    // The items decide; 0.143.2's switches, pdf and git are their image.
    expect(updated.data).toMatchObject({
      pageActions: { items: ['pdf', 'markdown', 'git'], externalAI: false, markdown: true, mcp: false },
      pdf: { enabled: true },
      git: { showEditLink: true },
    });
    const stored = await t.db
      .selectFrom('sites')
      .select('customization')
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow();
    expect(stored.customization).toMatchObject({ pageActions: { items: ['pdf', 'markdown', 'git'] } });

    // The seeds' client reads the same settings, with what it requires.
    const old = officialClient(await address(), admin.token);
    const read = await old.orgs.getSiteCustomizationById(team.organization.id, siteId);
    expect(read.data.pdf).toEqual({ enabled: true });
  });

  it('derives the items from 0.143.2’s switches, the assistant following ai.mode', async () => {
    const siteId = await site(team);
    const current = (await call(admin, 'GET', customizationPath(siteId))).json() as Record<string, unknown>;
    const res = await call(admin, 'PUT', customizationPath(siteId), {
      ...current,
      ai: { mode: 'assistant' },
      pageActions: { externalAI: false, markdown: true, mcp: true },
      pdf: { enabled: true },
      git: { showEditLink: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { pageActions: unknown }).pageActions).toEqual({
      externalAI: false,
      markdown: true,
      mcp: true,
      items: ['assistant', 'markdown', 'mcp', 'pdf'],
    });
  });

  it('refuses an unknown platform, theme or action, a handle that is no handle, and too many accounts', async () => {
    const siteId = await site(team);
    const current = (await call(admin, 'GET', customizationPath(siteId))).json() as {
      styling: object;
      pageActions: object;
    };
    const account = { platform: 'github', handle: 'acme', display: { footer: true, header: false } };
    const refused = [
      { socialAccounts: [{ ...account, platform: 'myspace' }] },
      { socialAccounts: [{ ...account, handle: 'acme/../../evil' }] },
      { socialAccounts: [{ ...account, handle: '' }] },
      { socialAccounts: Array.from({ length: 11 }, () => account) },
      { socialAccounts: [{ platform: 'github', handle: 'acme' }] },
      { styling: { ...current.styling, codeTheme: { default: { light: 'neon', dark: 'nord' } } } },
      { pageActions: { items: ['print'] } },
      { pageActions: { items: ['pdf', 'pdf'] } },
    ];
    for (const change of refused) {
      const res = await call(admin, 'PUT', customizationPath(siteId), { ...current, ...change });
      expect(res.statusCode, JSON.stringify(change).slice(0, 120)).toBe(400);
    }
    const stored = await t.db
      .selectFrom('sites')
      .select('customization')
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow();
    expect(stored.customization).toBeNull();
  });

  it('lets a site space override the code theme, and reset it to the site’s with null', async () => {
    const siteId = await site(team);
    const added = await call(admin, 'POST', `/orgs/${team.organization.id}/sites/${siteId}/site-spaces`, {
      spaceId: await space(team, 'Themed'),
    });
    const overridePath = `/orgs/${team.organization.id}/sites/${siteId}/site-spaces/${(added.json() as { id: string }).id}/customization`;
    const codeTheme = { default: { light: 'nord', dark: 'nord' }, openapi: { light: 'vesper', dark: 'vesper' } };
    const patched = await call(admin, 'PATCH', overridePath, { styling: { codeTheme } });
    expect(patched.statusCode, patched.body).toBe(200);
    expectNewestSpecResponse('overrideSiteSpaceCustomizationById', 200, patched.json());
    expect((patched.json() as { styling: { codeTheme: unknown } }).styling.codeTheme).toEqual(codeTheme);
    const reset = await call(admin, 'PATCH', overridePath, { styling: { codeTheme: null } });
    expect((reset.json() as { styling: { codeTheme: unknown } }).styling.codeTheme).toEqual({
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    });
  });

  it('links the accounts shown in the footer on the published site, and no other', async () => {
    const siteId = await site(team);
    const added = await call(admin, 'POST', `/orgs/${team.organization.id}/sites/${siteId}/site-spaces`, {
      spaceId: await space(team, 'Handbook'),
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await call(admin, 'POST', `/orgs/${team.organization.id}/sites/${siteId}/publish`)).statusCode).toBe(200);
    const current = (await call(admin, 'GET', customizationPath(siteId))).json() as object;
    const res = await call(admin, 'PUT', customizationPath(siteId), {
      ...current,
      socialAccounts: [
        { platform: 'github', handle: 'acme-docs', display: { footer: true, header: false } },
        { platform: 'mastodon', handle: 'acme@fosstodon.org', display: { footer: true, header: false } },
        { platform: 'youtube', handle: 'hidden', display: { footer: false, header: true } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await t.app.inject({ method: 'GET', url: `/s/${siteId}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="https://github.com/acme-docs"');
    expect(page.body).toContain('href="https://fosstodon.org/@acme"');
    expect(page.body).not.toContain('youtube.com');
  });
});

describe('description on a change request', () => {
  const paragraph = (text: string) => ({
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }] }],
  });
  const stored = async (changeRequestId: string) =>
    t.db
      .selectFrom('change_requests')
      .select(['description'])
      .where('id', '=', changeRequestId)
      .executeTakeFirstOrThrow();

  it('is written on create and update, answered as a document, and removed by null, through the newest client', async () => {
    const spaceId = await space(team, 'Described');
    const client = await newest(admin);
    const created = await client.spaces.createChangeRequest(spaceId, {
      subject: 'Rework',
      description: paragraph('Why this change.'),
    } as Parameters<typeof client.spaces.createChangeRequest>[1]);
    expectNewestSpecResponse('createChangeRequest', 201, created.data);
    expect(JSON.stringify(created.data.description)).toContain('Why this change.');
    expect((await stored(created.data.id)).description).toBe('Why this change.\n');

    const updated = await client.spaces.updateChangeRequestById(spaceId, created.data.id, {
      description: paragraph('A better reason.') as never,
    });
    expectNewestSpecResponse('updateChangeRequestById', 200, updated.data);
    expectSpecResponse('updateChangeRequestById', 200, updated.data);
    expect(JSON.stringify(updated.data.description)).toContain('A better reason.');
    const listed = await call(admin, 'GET', `/spaces/${spaceId}/change-requests?status=draft`);
    expect(JSON.stringify(listed.json())).toContain('A better reason.');

    const cleared = await call(admin, 'PATCH', `/spaces/${spaceId}/change-requests/${created.data.id}`, {
      description: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).not.toHaveProperty('description');
    expect((await stored(created.data.id)).description).toBeNull();
  });

  it('refuses what is no document, too long a one, and callers without edit, changing nothing', async () => {
    const spaceId = await space(team, 'Guarded');
    const created = await call(admin, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Guarded' });
    const id = (created.json() as { id: string }).id;
    const url = `/spaces/${spaceId}/change-requests/${id}`;
    for (const description of ['plain text', { object: 'block', nodes: [] }, paragraph('x'.repeat(20001))]) {
      const res = await call(admin, 'PATCH', url, { description });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
    }
    expect((await call(team.member('read'), 'PATCH', url, { description: paragraph('Hijacked') })).statusCode).toBe(
      403,
    );
    expect((await call(outsider.admin, 'PATCH', url, { description: paragraph('Hijacked') })).statusCode).toBe(404);
    expect((await stored(id)).description).toBeNull();
  });
});

describe('search on a site’s share links', () => {
  it('keeps the links whose name holds the search, any case, or whose key it is, for admins only', async () => {
    const siteId = await site(team);
    const base = `/orgs/${team.organization.id}/sites/${siteId}/share-links`;
    const made: Array<{ id: string; urls: { published: string } }> = [];
    for (const name of ['Beta customers', 'Partners', 'beta testers']) {
      const res = await call(admin, 'POST', base, { name });
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json() as (typeof made)[number]);
    }
    const client = await newest(admin);
    const byName = await client.orgs.listSiteShareLinks(team.organization.id, siteId, { search: 'BETA' });
    expectNewestSpecResponse('listSiteShareLinks', 200, byName.data);
    expect(byName.data.count).toBe(2);
    expect(byName.data.items.map((link) => link.name).sort()).toEqual(['Beta customers', 'beta testers']);

    const key = new URL(made[1]!.urls.published).searchParams.get('share')!;
    const byKey = await call(admin, 'GET', `${base}?search=${encodeURIComponent(key)}`);
    expect((byKey.json() as { items: Array<{ id: string }> }).items.map((link) => link.id)).toEqual([made[1]!.id]);
    // Part of a key finds nothing: a key is matched whole, by its hash.
    const partial = await call(admin, 'GET', `${base}?search=${encodeURIComponent(key.slice(0, 6))}`);
    expect((partial.json() as { count: number }).count).toBe(0);

    expect((await call(admin, 'GET', `${base}?search=`)).statusCode).toBe(400);
    expect((await call(team.member('read'), 'GET', `${base}?search=beta`)).statusCode).toBe(403);
    expect((await call(outsider.admin, 'GET', `${base}?search=beta`)).statusCode).toBe(404);
  });
});

describe('restrictTo in a site search’s default scope', () => {
  it('searches the current site space alone, or the rest of the default scope without it', async () => {
    const siteId = await site(team, 'Searched');
    const base = `/orgs/${team.organization.id}/sites/${siteId}`;
    const guide = await space(team, 'Heron guide');
    const reference = await space(team, 'Heron reference');
    const v2 = await space(team, 'Heron reference two');
    const first = await call(admin, 'POST', `${base}/sections`, { spaceId: guide });
    expect(first.statusCode, first.body).toBe(201);
    const second = await call(admin, 'POST', `${base}/sections`, { spaceId: reference });
    const added = await call(admin, 'POST', `${base}/site-spaces`, {
      spaceId: v2,
      sectionId: (second.json() as { id: string }).id,
    });
    expect(added.statusCode, added.body).toBe(201);
    const current = (added.json() as { id: string }).id;
    const client = await newest(admin);
    const found = async (restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces') => {
      const res = await client.orgs.searchSiteContent(team.organization.id, siteId, {
        query: 'heron',
        scope: { mode: 'default', currentSiteSpace: current, ...(restrictTo ? { restrictTo } : {}) },
      } as Parameters<typeof client.orgs.searchSiteContent>[2]);
      expectNewestSpecResponse('searchSiteContent', 200, res.data);
      return res.data.items.map((result) => result.id).sort();
    };
    expect(await found()).toEqual([guide, reference, v2].sort());
    expect(await found('currentSiteSpace')).toEqual([v2]);
    expect(await found('otherSiteSpaces')).toEqual([guide, reference].sort());

    const alone = await call(admin, 'POST', `${base}/search`, {
      query: 'heron',
      scope: { mode: 'default', restrictTo: 'currentSiteSpace' },
    });
    expect(alone.statusCode).toBe(400);
    expect((alone.json() as { error: { message: string } }).error.message).toMatch(/^body\/scope\/restrictTo needs/);
    const unknown = await call(admin, 'POST', `${base}/search`, {
      query: 'heron',
      scope: { mode: 'default', currentSiteSpace: current, restrictTo: 'everything' },
    });
    expect(unknown.statusCode).toBe(400);
  });
});
