import { beforeAll, describe, expect, it } from 'vitest';
import { siteCustomization } from '../src/sites/customization/settings.js';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;

beforeAll(async () => {
  team = await t.factory.team(['read', 'edit', null]);
  admin = team.admin;
});

async function call(
  account: Account,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });
}

/** A published site with one space of one page, and the site space that shows it. */
async function siteWithSpace(title = 'Acme Docs') {
  const organizationId = team.organization.id;
  const created = await call(admin, 'POST', `/orgs/${organizationId}/sites`, { title });
  expect(created.statusCode, created.body).toBe(201);
  const site = created.json() as { id: string };
  const space = await api.createSpace(admin, organizationId, { title: 'Handbook' });
  await api.change(admin, space.id, [
    { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello readers.' } },
  ]);
  const added = await call(admin, 'POST', `/orgs/${organizationId}/sites/${site.id}/site-spaces`, {
    spaceId: space.id,
  });
  expect(added.statusCode, added.body).toBe(201);
  const published = await call(admin, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  expect(published.statusCode, published.body).toBe(200);
  return { site, siteSpace: added.json() as { id: string; path: string } };
}

const path = (siteId: string, siteSpaceId: string, organizationId = team.organization.id) =>
  `/orgs/${organizationId}/sites/${siteId}/site-spaces/${siteSpaceId}/customization`;

const stored = async (siteSpaceId: string) =>
  (await t.db.selectFrom('site_spaces').select('customization').where('id', '=', siteSpaceId).executeTakeFirstOrThrow())
    .customization;

/** An answer is the site's customization, valid against both specs whole (issue 38 item 8). */
function expectSettingsAnswer(operationId: string, body: Record<string, unknown>) {
  expectSpecResponse(operationId, 200, body);
  expectNewestSpecResponse(operationId, 200, body);
}

const brand = { light: '#0b7a75', dark: '#4fd1c5' };

describe('GET …/site-spaces/{siteSpaceId}/customization', () => {
  it('gives members the site’s settings while nothing is overridden', async () => {
    const { site, siteSpace } = await siteWithSpace('Product docs');
    const res = await call(team.member('read'), 'GET', path(site.id, siteSpace.id));
    expect(res.statusCode).toBe(200);
    expectSettingsAnswer('getSiteSpaceCustomizationById', res.json());
    expect(res.json()).toEqual(siteCustomization(null, { title: 'Product docs' }));
    const unmasked = await call(admin, 'GET', `${path(site.id, siteSpace.id)}?unmasked=true`);
    expect(unmasked.json()).toEqual(res.json());
  });

  it('is a 404 for guests, non-members, another organization and unknown site spaces', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const other = await t.factory.team();
    const theirs = await call(other.admin, 'POST', `/orgs/${other.organization.id}/sites`, { title: 'Theirs' });
    const stranger = await t.factory.account();
    const cases: Array<[string, Account]> = [
      [path(site.id, siteSpace.id), team.member(null)],
      [path(site.id, siteSpace.id), stranger],
      [path(site.id, 'nope'), admin],
      [path(site.id, siteSpace.id, other.organization.id), other.admin],
      // Another organization's site, with this site space's id: the site space is not in it.
      [path((theirs.json() as { id: string }).id, siteSpace.id, other.organization.id), other.admin],
    ];
    for (const [url, account] of cases) {
      const res = await call(account, 'GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe(404);
    }
  });

  it('needs a token', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const res = await t.app.inject({ method: 'GET', url: `/v1${path(site.id, siteSpace.id)}` });
    expect(res.statusCode).toBe(401);
  });
});

describe('PATCH …/site-spaces/{siteSpaceId}/customization', () => {
  it('stores only the overrides and answers them over the site’s settings', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const res = await call(admin, 'PATCH', path(site.id, siteSpace.id), {
      title: 'Handbook docs',
      styling: { primaryColor: brand, sidebar: { list: 'pill' } },
      footer: { copyright: '© Handbook' },
      pagination: { enabled: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expectSettingsAnswer('overrideSiteSpaceCustomizationById', res.json());
    const base = siteCustomization(null, { title: 'Acme Docs' });
    const expected = {
      ...base,
      title: 'Handbook docs',
      styling: { ...base.styling, primaryColor: brand, sidebar: { ...base.styling.sidebar, list: 'pill' } },
      footer: { ...base.footer, copyright: '© Handbook' },
      pagination: { enabled: false },
    };
    expect(res.json()).toEqual(expected);
    expect(await stored(siteSpace.id)).toEqual({
      title: 'Handbook docs',
      styling: { primaryColor: brand, sidebar: { list: 'pill' } },
      footer: { copyright: '© Handbook' },
      pagination: { enabled: false },
    });
    const read = await call(team.member('read'), 'GET', path(site.id, siteSpace.id));
    expect(read.json()).toEqual(expected);
  });

  it('merges later patches: a field left out is kept, null resets it to the site’s', async () => {
    const { site, siteSpace } = await siteWithSpace();
    await call(admin, 'PATCH', path(site.id, siteSpace.id), {
      title: 'First',
      styling: { primaryColor: brand, corners: 'straight' },
    });
    const res = await call(admin, 'PATCH', path(site.id, siteSpace.id), {
      title: null,
      styling: { corners: null, depth: 'flat' },
    });
    expect(res.statusCode).toBe(200);
    expect(await stored(siteSpace.id)).toEqual({ styling: { primaryColor: brand, depth: 'flat' } });
    expect(res.json()).toMatchObject({ title: 'Acme Docs', styling: { corners: 'rounded', depth: 'flat' } });
    const cleared = await call(admin, 'PATCH', path(site.id, siteSpace.id), {
      styling: { primaryColor: null, depth: null },
    });
    expect(cleared.json()).toEqual(siteCustomization(null, { title: 'Acme Docs' }));
    expect(await stored(siteSpace.id)).toBeNull();
  });

  it('follows the site’s own settings under what it overrides', async () => {
    const { site, siteSpace } = await siteWithSpace();
    await call(admin, 'PATCH', path(site.id, siteSpace.id), { themes: { default: 'dark' } });
    const siteSettings = {
      ...siteCustomization(null, { title: 'Acme Docs' }),
      footer: { groups: [], copyright: 'Site' },
    };
    const put = await call(admin, 'PUT', `/orgs/${team.organization.id}/sites/${site.id}/customization`, siteSettings);
    expect(put.statusCode, put.body).toBe(200);
    const read = await call(admin, 'GET', path(site.id, siteSpace.id));
    expect(read.json()).toEqual({ ...siteSettings, themes: { default: 'dark', toggeable: true } });
  });

  it('refuses bad fields with a 400 naming them, storing nothing', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const cases: Array<[object, string]> = [
      [{ title: 'x' }, 'body/title'],
      [{ styling: { primaryColor: { light: 'red', dark: '#000' } } }, 'body/styling/primaryColor'],
      [{ styling: { theme: 'neon' } }, 'body/styling/theme'],
      [{ styling: { codeTheme: {} } }, 'body/styling'],
      [{ localizedTitle: { fr: 'Docs' } }, 'body'],
      [{ privacyPolicy: { url: 'javascript:alert(1)' } }, 'body/privacyPolicy/url'],
      [{ footer: { copyright: 'x'.repeat(301) } }, 'body/footer/copyright'],
      [
        { header: { links: Array.from({ length: 21 }, () => ({ title: 'a', to: null, links: [] })) } },
        'body/header/links',
      ],
      [{ feedback: {} }, 'body/feedback'],
    ];
    for (const [payload, field] of cases) {
      const res = await call(admin, 'PATCH', path(site.id, siteSpace.id), payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message, JSON.stringify(payload)).toContain(field);
    }
    expect(await stored(siteSpace.id)).toBeNull();
  });

  it('refuses a header link’s condition on a site without an adaptive schema', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const res = await call(admin, 'PATCH', path(site.id, siteSpace.id), {
      header: { links: [{ title: 'Beta', to: null, links: [], condition: 'visitor.claims.beta' }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^body\/header\/links\/0\/condition: /);
    expect(await stored(siteSpace.id)).toBeNull();
  });

  it('is for admins: members get a 403, guests and other organizations a 404, and nothing is stored', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const other = await t.factory.team();
    const cases: Array<[Account, string, number]> = [
      [team.member('read'), path(site.id, siteSpace.id), 403],
      [team.member('edit'), path(site.id, siteSpace.id), 403],
      [team.member(null), path(site.id, siteSpace.id), 404],
      [other.admin, path(site.id, siteSpace.id), 404],
      [other.admin, path(site.id, siteSpace.id, other.organization.id), 404],
    ];
    for (const [account, url, status] of cases) {
      const res = await call(account, 'PATCH', url, { title: 'Taken over' });
      expect(res.statusCode).toBe(status);
      const removal = await call(account, 'DELETE', url);
      expect(removal.statusCode).toBe(status);
    }
    expect(await stored(siteSpace.id)).toBeNull();
    const reader = await t.factory.token(admin.user.id, { scopes: ['site:read'] });
    const scoped = await t.app.inject({
      method: 'PATCH',
      url: `/v1${path(site.id, siteSpace.id)}`,
      headers: reader.headers,
      payload: { title: 'Scoped' },
    });
    expect(scoped.statusCode).toBe(403);
    expect(await stored(siteSpace.id)).toBeNull();
  });

  it('keeps both of two concurrent patches of different fields', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const [a, b] = await Promise.all([
      call(admin, 'PATCH', path(site.id, siteSpace.id), { styling: { corners: 'straight' } }),
      call(admin, 'PATCH', path(site.id, siteSpace.id), { styling: { depth: 'flat' } }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await stored(siteSpace.id)).toEqual({ styling: { corners: 'straight', depth: 'flat' } });
  });
});

describe('DELETE …/site-spaces/{siteSpaceId}/customization', () => {
  it('removes the overrides (205), then has none to remove (204)', async () => {
    const { site, siteSpace } = await siteWithSpace();
    await call(admin, 'PATCH', path(site.id, siteSpace.id), { title: 'Overridden' });
    const removed = await call(admin, 'DELETE', path(site.id, siteSpace.id));
    expect(removed.statusCode).toBe(205);
    expect(await stored(siteSpace.id)).toBeNull();
    const again = await call(admin, 'DELETE', path(site.id, siteSpace.id));
    expect(again.statusCode).toBe(204);
    const unknown = await call(admin, 'DELETE', path(site.id, 'nope'));
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the published reader', () => {
  it('shows a site space with its overrides: title, footer and colours', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const before = await t.app.inject({ method: 'GET', url: `/s/${site.id}` });
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Acme Docs');
    expect(before.body).not.toContain('siteSpace=');

    await call(admin, 'PATCH', path(site.id, siteSpace.id), {
      title: 'Handbook docs',
      styling: { primaryColor: brand },
      footer: { copyright: '© Handbook' },
    });
    const after = await t.app.inject({ method: 'GET', url: `/s/${site.id}` });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Handbook docs');
    expect(after.body).toContain('© Handbook');
    const stylesheet = /href="([^"]*\/~\/site\.css\?[^"]*)"/.exec(after.body)?.[1]?.replace(/&(?:amp|#x26);/g, '&');
    expect(stylesheet).toContain(`siteSpace=${siteSpace.id}`);
    const css = await t.app.inject({ method: 'GET', url: new URL(stylesheet!).pathname + new URL(stylesheet!).search });
    expect(css.statusCode).toBe(200);
    expect(css.body.toLowerCase()).toContain('#0b7a75');
    const siteCss = await t.app.inject({ method: 'GET', url: `/s/${site.id}/~/site.css` });
    expect(siteCss.body.toLowerCase()).not.toContain('#0b7a75');

    await call(admin, 'DELETE', path(site.id, siteSpace.id));
    const reset = await t.app.inject({ method: 'GET', url: `/s/${site.id}` });
    expect(reset.body).not.toContain('Handbook docs');
    expect(reset.body).not.toContain('© Handbook');
  });
});

describe('through the newest official client', () => {
  it('overrides, reads and removes a site space’s customization', async () => {
    const { site, siteSpace } = await siteWithSpace();
    const client = newestOfficialClient(await listen(t.app), admin.token);
    const organizationId = team.organization.id;
    const overridden = await client.orgs.overrideSiteSpaceCustomizationById(organizationId, site.id, siteSpace.id, {
      title: 'Client title',
      footer: { copyright: '© Client' },
    });
    expect(overridden.data.title).toBe('Client title');
    expect(overridden.data.footer).toEqual({ groups: [], copyright: '© Client' });
    const read = await client.orgs.getSiteSpaceCustomizationById(organizationId, site.id, siteSpace.id);
    expect(read.data).toEqual(overridden.data);
    const removed = await client.orgs.deleteSiteSpaceCustomizationById(organizationId, site.id, siteSpace.id);
    expect(removed.status).toBe(205);
    const after = await client.orgs.getSiteSpaceCustomizationById(organizationId, site.id, siteSpace.id);
    expect(after.data.title).toBe('Acme Docs');
  });
});
