import { beforeAll, describe, expect, it } from 'vitest';
import { siteCustomization } from '../src/sites/customization/settings.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectSpecResponse, expectSpecSchema } from './support/spec.js';

const t = useTestApp();

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;

beforeAll(async () => {
  team = await t.factory.team(['read', 'edit', null]);
  admin = team.admin;
});

const url = (siteId: string, organizationId = team.organization.id) =>
  `/v1/orgs/${organizationId}/sites/${siteId}/customization`;

const storedCustomization = async (siteId: string) =>
  (await t.db.selectFrom('sites').select('customization').where('id', '=', siteId).executeTakeFirstOrThrow())
    .customization;

/** Every section of the settings used, each with its optional parts. */
function fullSettings() {
  const themed = (light: string, dark: string) => ({ light, dark });
  return {
    title: 'Acme handbook',
    styling: {
      theme: 'gradient',
      primaryColor: themed('#ff0066', '#f06'),
      tint: { color: themed('#112233', '#445566') },
      infoColor: themed('#111', '#222'),
      successColor: themed('#0a0', '#0b0'),
      warningColor: themed('#aa0', '#bb0'),
      dangerColor: themed('#a00', '#b00'),
      corners: 'circular',
      depth: 'flat',
      links: 'accent',
      font: {
        id: 'brand-sans',
        custom: true,
        fontFamily: 'Brand Sans',
        fontFaces: [
          {
            weight: 400,
            sources: [
              { url: 'https://cdn.example.com/brand.woff2', format: 'woff2' },
              { url: 'https://cdn.example.com/brand.woff' },
            ],
          },
          { weight: 700, sources: [{ url: 'https://cdn.example.com/brand-bold.woff2' }] },
        ],
      },
      monospaceFont: 'JetBrainsMono',
      codeTheme: { default: themed('github-light', 'github-dark'), openapi: themed('one-light', 'one-dark-pro') },
      background: 'match',
      icons: 'duotone',
      sidebar: { background: 'filled', list: 'pill' },
      search: 'prominent',
    },
    internationalization: { locale: 'fr' },
    favicon: { emoji: '🎉' },
    header: {
      preset: 'custom',
      logo: themed('https://cdn.example.com/logo.png', 'https://cdn.example.com/logo-dark.png'),
      backgroundColor: themed('#fff', '#000'),
      linkColor: themed('#333', '#ccc'),
      links: [
        { title: 'Home', to: { kind: 'url', url: 'https://acme.example' }, links: [], style: 'button-primary' },
        {
          title: 'Docs',
          to: null,
          links: [
            { title: 'Guide', to: { kind: 'page', page: 'pageId', space: 'spaceId' } },
            { title: 'Space', to: { kind: 'space', space: 'spaceId' } },
            { title: 'Anchor', to: { kind: 'anchor', anchor: 'intro', page: 'pageId' } },
            { title: 'File', to: { kind: 'file', file: 'fileId' } },
            { title: 'User', to: { kind: 'user', user: 'userId' } },
            { title: 'Collection', to: { kind: 'collection', collection: 'collectionId' } },
            { title: 'Snippet', to: { kind: 'reusable-content', reusableContent: 'rcId' } },
            { title: 'API', to: { kind: 'openapi', spec: 'petstore' } },
            { title: 'Mail', to: { kind: 'url', url: 'mailto:help@acme.example' } },
            { title: 'Relative', to: { kind: 'url', url: '/pricing' } },
          ],
          condition: 'visitor.claims.isBeta && !visitor.claims.unsigned.hideDocs',
        },
        { title: 'Empty condition', to: { kind: 'url', url: '#top' }, links: [], condition: '' },
      ],
    },
    footer: {
      logo: themed('https://cdn.example.com/f.png', 'https://cdn.example.com/f-dark.png'),
      groups: [
        { title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://acme.example/about' } }] },
      ],
      copyright: '© Acme',
    },
    announcement: {
      enabled: true,
      message: 'New release out',
      link: { title: 'Read', to: { kind: 'url', url: 'https://acme.example/news' } },
      style: 'success',
    },
    themes: { default: 'dark', toggeable: false },
    pdf: { enabled: true },
    feedback: { enabled: true },
    ai: { mode: 'assistant' },
    advancedCustomization: { enabled: true },
    git: { showEditLink: true },
    // Both specs' page menus, one the other's image: an answer gives the stored settings back as they are.
    pageActions: { externalAI: false, markdown: true, mcp: false, items: ['assistant', 'markdown', 'git', 'pdf'] },
    externalLinks: { target: 'blank' },
    pagination: { enabled: false },
    trademark: { enabled: false },
    privacyPolicy: { url: 'https://acme.example/privacy' },
    socialPreview: { url: 'https://acme.example/preview.png' },
    insights: { trackingCookie: false },
    socialAccounts: [{ platform: 'github', handle: 'acme', display: { footer: true, header: false } }],
  };
}

const adaptiveSchema = {
  type: 'object',
  properties: {
    isBeta: { type: 'boolean' },
    unsigned: { type: 'object', properties: { hideDocs: { type: 'boolean' } } },
  },
  additionalProperties: false,
};

async function siteWithAdaptiveSchema(title = 'Docs'): Promise<string> {
  const { id } = await insertSite(t.db, team.organization.id, { title });
  await t.db
    .updateTable('sites')
    .set({ adaptive_schema: JSON.stringify(adaptiveSchema) })
    .where('id', '=', id)
    .execute();
  return id;
}

describe('siteCustomization', () => {
  it('gives every default, valid against the spec, with the site’s title', () => {
    const defaults = siteCustomization(null, { title: 'Handbook' });
    expectSpecSchema('SiteCustomizationSettings', defaults);
    expect(defaults).toMatchObject({
      title: 'Handbook',
      styling: {
        theme: 'clean',
        primaryColor: { light: '#346DDB', dark: '#346DDB' },
        font: 'Inter',
        monospaceFont: 'IBMPlexMono',
      },
      header: { preset: 'default', links: [] },
      favicon: {},
      insights: { trackingCookie: true },
    });
  });

  it('gives the stored settings, keeping their own title', () => {
    const stored = fullSettings();
    expect(siteCustomization(stored, { title: 'Other' })).toEqual(stored);
    const { title: _, ...untitled } = stored;
    expect(siteCustomization(untitled, { title: 'Other' }).title).toBe('Other');
  });

  it('leaves the title out rather than give one the spec refuses', () => {
    const defaults = siteCustomization(null, { title: 'x' });
    expect(defaults.title).toBeUndefined();
    expectSpecSchema('SiteCustomizationSettings', defaults);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/customization', () => {
  it('gives members the defaults before anything is stored', async () => {
    const { id } = await insertSite(t.db, team.organization.id, { title: 'Product docs' });
    const res = await t.app.inject({ method: 'GET', url: url(id), headers: team.member('read').headers });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('getSiteCustomizationById', 200, res.json());
    expect(res.json()).toEqual(siteCustomization(null, { title: 'Product docs' }));
  });

  it('accepts and ignores the deprecated unmasked flag, and refuses unknown query fields', async () => {
    const { id } = await insertSite(t.db, team.organization.id);
    const unmasked = await t.app.inject({ method: 'GET', url: `${url(id)}?unmasked=true`, headers: admin.headers });
    expect(unmasked.statusCode).toBe(200);
    expect(unmasked.json()).toEqual(siteCustomization(null, { title: 'Docs' }));
    const bad = await t.app.inject({ method: 'GET', url: `${url(id)}?unmasked=maybe`, headers: admin.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('querystring/unmasked');
  });

  it('is a 404 for guests, non-members, unknown sites and another organization’s site', async () => {
    const { id } = await insertSite(t.db, team.organization.id);
    const stranger = await t.factory.account();
    const other = await t.factory.team();
    const cases: Array<[string, Account]> = [
      [url(id), team.member(null)],
      [url(id), stranger],
      [url('nope'), admin],
      [url(id, other.organization.id), other.admin],
    ];
    for (const [path, account] of cases) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: account.headers });
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error.code).toBe(404);
    }
  });
});

describe('PUT /v1/orgs/{organizationId}/sites/{siteId}/customization', () => {
  it('stores the whole settings and answers them; GET gives them back', async () => {
    const id = await siteWithAdaptiveSchema();
    const settings = fullSettings();
    const res = await t.app.inject({ method: 'PUT', url: url(id), headers: admin.headers, payload: settings });
    expect(res.statusCode, res.body).toBe(200);
    expectSpecResponse('updateSiteCustomizationById', 200, res.json());
    expect(res.json()).toEqual(settings);
    expect(await storedCustomization(id)).toEqual(settings);

    const read = await t.app.inject({ method: 'GET', url: url(id), headers: team.member('read').headers });
    expect(read.json()).toEqual(settings);
    expectSpecResponse('getSiteCustomizationById', 200, read.json());
  });

  it('replaces rather than merges: a later PUT drops what it leaves out', async () => {
    const id = await siteWithAdaptiveSchema('Replaced');
    await t.app.inject({ method: 'PUT', url: url(id), headers: admin.headers, payload: fullSettings() });
    const { title: _, announcement: __, ...smaller } = fullSettings();
    const res = await t.app.inject({ method: 'PUT', url: url(id), headers: admin.headers, payload: smaller });
    expect(res.statusCode).toBe(200);
    expect(await storedCustomization(id)).toEqual(smaller);
    // Without a title of their own, the settings carry the site's.
    expect(res.json()).toEqual({ ...smaller, title: 'Replaced' });
    expectSpecResponse('updateSiteCustomizationById', 200, res.json());
  });

  it('round-trips through the official client', async () => {
    const id = await siteWithAdaptiveSchema();
    const client = officialClient(await listen(t.app), admin.token);
    const defaults = await client.orgs.getSiteCustomizationById(team.organization.id, id);
    expect(defaults.data.styling.theme).toBe('clean');
    const settings = {
      ...defaults.data,
      favicon: { icon: { light: 'https://a.example/i.png', dark: 'https://a.example/d.png' } },
    };
    const updated = await client.orgs.updateSiteCustomizationById(team.organization.id, id, settings);
    expect(updated.data).toEqual(settings);
    const read = await client.orgs.getSiteCustomizationById(team.organization.id, id, { unmasked: true });
    expect(read.data).toEqual(settings);
  });

  it('refuses each bad field with a 400 naming it, storing nothing', async () => {
    const id = await siteWithAdaptiveSchema();
    const before = fullSettings();
    await t.app.inject({ method: 'PUT', url: url(id), headers: admin.headers, payload: before });
    const link = (to: unknown) => ({ title: 'Link', to, links: [] });
    const many = <T>(count: number, item: T) => Array.from({ length: count }, () => item);
    const urlRef = { kind: 'url', url: 'https://a.example' };
    const face = { weight: 400, sources: [{ url: 'https://a.example/f.woff2' }] };
    const font = { id: 'f', custom: true, fontFamily: 'F', fontFaces: [face] };
    type Settings = ReturnType<typeof fullSettings> & Record<string, unknown>;
    const cases: Array<[string, (s: Settings) => void, string]> = [
      ['a colour that is not hex', (s) => (s.styling.primaryColor.light = 'red'), 'body/styling/primaryColor/light'],
      ['a 4-digit colour', (s) => (s.styling.infoColor.dark = '#abcd'), 'body/styling/infoColor/dark'],
      ['an unknown theme', (s) => (s.styling.theme = 'neon'), 'body/styling/theme must be one of'],
      ['an unknown locale', (s) => (s.internationalization.locale = 'xx'), 'body/internationalization/locale'],
      ['an unknown font', (s) => ((s.styling as Record<string, unknown>).font = 'Comic'), 'body/styling/font'],
      [
        'too many font faces',
        (s) => ((s.styling as Record<string, unknown>).font = { ...font, fontFaces: many(21, face) }),
        'body/styling/font/fontFaces must NOT have more than 20 items',
      ],
      [
        'too many font sources',
        (s) =>
          ((s.styling as Record<string, unknown>).font = {
            ...font,
            fontFaces: [{ weight: 400, sources: many(6, face.sources[0]) }],
          }),
        'body/styling/font/fontFaces/0/sources must NOT have more than 5 items',
      ],
      [
        'a font weight out of range',
        (s) => ((s.styling as Record<string, unknown>).font = { ...font, fontFaces: [{ ...face, weight: 1001 }] }),
        'body/styling/font/fontFaces/0/weight',
      ],
      [
        'too many header links',
        (s) => (s.header.links = many(21, link(urlRef)) as never),
        'body/header/links must NOT have more than 20 items',
      ],
      [
        'too many links in a header item',
        (s) => (s.header.links = [{ ...link(null), links: many(21, { title: 'x', to: urlRef }) }] as never),
        'body/header/links/0/links must NOT have more than 20 items',
      ],
      [
        'too many footer groups',
        (s) => (s.footer.groups = many(11, { title: 'g', links: [] })),
        'body/footer/groups must NOT have more than 10 items',
      ],
      [
        'too many links in a footer group',
        (s) => (s.footer.groups = [{ title: 'g', links: many(21, { title: 'x', to: urlRef }) }]),
        'body/footer/groups/0/links must NOT have more than 20 items',
      ],
      [
        'a header title too long',
        (s) => (s.header.links = [{ ...link(urlRef), title: 'x'.repeat(65) }] as never),
        'body/header/links/0/title must NOT have more than 64 characters',
      ],
      [
        'a link title too long',
        (s) => (s.footer.groups = [{ title: 'g', links: [{ title: 'x'.repeat(65), to: urlRef }] }]),
        'body/footer/groups/0/links/0/title must NOT have more than 64 characters',
      ],
      ['a copyright too long', (s) => (s.footer.copyright = 'x'.repeat(301)), 'body/footer/copyright'],
      ['a title too long', (s) => (s.title = 'x'.repeat(129)), 'body/title must NOT have more than 128 characters'],
      ['a title too short', (s) => (s.title = 'x'), 'body/title must NOT have fewer than 2 characters'],
      ['an announcement too short', (s) => (s.announcement.message = 'x'), 'body/announcement/message'],
      ['a privacy policy that is not a URL', (s) => (s.privacyPolicy.url = 'not a url'), 'body/privacyPolicy/url'],
      [
        'a URL too long',
        (s) => (s.socialPreview.url = `https://a.example/${'x'.repeat(2048)}`),
        'body/socialPreview/url',
      ],
      ['a javascript: URL', (s) => (s.privacyPolicy.url = 'javascript:alert(1)'), 'body/privacyPolicy/url'],
      ['a logo that is not http(s)', (s) => (s.header.logo.dark = 'ftp://a.example/l.png'), 'body/header/logo/dark'],
      [
        'a javascript: link',
        (s) => (s.header.links = [link({ kind: 'url', url: 'javascript:alert(1)' })] as never),
        'body/header/links/0/to/url',
      ],
      [
        'a link with an unknown kind',
        (s) => (s.header.links = [link({ kind: 'bogus', url: 'https://a.example' })] as never),
        'body/header/links/0/to/kind must be one of',
      ],
      [
        'a link without a kind',
        (s) => (s.header.links = [link({ url: 'https://a.example' })] as never),
        'body/header/links/0/to/kind is required',
      ],
      [
        'a page link without its page',
        (s) => (s.header.links = [link({ kind: 'page', space: 's' })] as never),
        'body/header/links/0/to/page is required',
      ],
      [
        'a page link with an id too long',
        (s) => (s.header.links = [link({ kind: 'page', page: 'p'.repeat(129) })] as never),
        'body/header/links/0/to/page must NOT have more than 128 characters',
      ],
      [
        'a link with a field of another kind',
        (s) => (s.header.links = [link({ kind: 'space', space: 's', page: 'p' })] as never),
        'body/header/links/0/to/page is not an accepted field',
      ],
      [
        'a header item without its target',
        (s) => (s.header.links = [{ title: 'x', links: [] }] as never),
        'body/header/links/0/to is required',
      ],
      [
        'a condition too long',
        (s) => (s.header.links = [{ ...link(null), condition: 'x'.repeat(1025) }] as never),
        'body/header/links/0/condition must NOT have more than 1024 characters',
      ],
      [
        'a condition on an undeclared claim',
        (s) => (s.header.links = [link(null), { ...link(null), condition: 'visitor.claims.isAdmin' }] as never),
        'body/header/links/1/condition',
      ],
      [
        'a condition that does not parse',
        (s) => (s.header.links = [{ ...link(null), condition: 'visitor.claims.isBeta &&' }] as never),
        'body/header/links/0/condition',
      ],
      [
        'a favicon with both an icon and an emoji',
        (s) => (s.favicon = { emoji: '🎉', icon: { light: 'https://a.example', dark: 'https://a.example' } } as never),
        'body/favicon',
      ],
      ['an emoji that is not one', (s) => (s.favicon = { emoji: 'abc' }), 'body/favicon/emoji'],
      ['an unknown field', (s) => (s.extra = true), 'body/extra is not an accepted field'],
      [
        'an unknown nested field',
        (s) => ((s.pdf as Record<string, unknown>).pages = 3),
        'body/pdf/pages is not an accepted field',
      ],
      ['a missing section', (s) => delete (s as Partial<Settings>).styling, 'body/styling is required'],
      [
        'a missing required field',
        (s) => delete (s.insights as Partial<Settings['insights']>).trackingCookie,
        'body/insights/trackingCookie is required',
      ],
      ['a wrong type', (s) => ((s.pdf as Record<string, unknown>).enabled = 'yes'), 'body/pdf/enabled must be boolean'],
    ];
    for (const [name, change, field] of cases) {
      const settings = fullSettings() as Settings;
      change(settings);
      const res = await t.app.inject({ method: 'PUT', url: url(id), headers: admin.headers, payload: settings });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.message, name).toContain(field);
    }
    expect(await storedCustomization(id)).toEqual(before);
  });

  it('refuses a header condition on a site without an adaptive schema', async () => {
    const { id } = await insertSite(t.db, team.organization.id);
    const settings = fullSettings();
    const res = await t.app.inject({ method: 'PUT', url: url(id), headers: admin.headers, payload: settings });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^body\/header\/links\/1\/condition: .*no adaptive schema/);
    expect(await storedCustomization(id)).toBeNull();
  });

  it('is for admins: members get a 403, guests and non-members a 404, and nothing is stored', async () => {
    const id = await siteWithAdaptiveSchema();
    const stranger = await t.factory.account();
    const cases: Array<[Account, number]> = [
      [team.member('read'), 403],
      [team.member('edit'), 403],
      [team.member(null), 404],
      [stranger, 404],
    ];
    for (const [account, status] of cases) {
      const res = await t.app.inject({
        method: 'PUT',
        url: url(id),
        headers: account.headers,
        payload: fullSettings(),
      });
      expect(res.statusCode).toBe(status);
    }
    expect(await storedCustomization(id)).toBeNull();
  });

  it('needs the site:write scope', async () => {
    const id = await siteWithAdaptiveSchema();
    const reader = await t.factory.token(admin.user.id, { scopes: ['site:read'] });
    const read = await t.app.inject({ method: 'GET', url: url(id), headers: reader.headers });
    expect(read.statusCode).toBe(200);
    const write = await t.app.inject({ method: 'PUT', url: url(id), headers: reader.headers, payload: fullSettings() });
    expect(write.statusCode).toBe(403);
    expect(await storedCustomization(id)).toBeNull();
  });
});
