import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { purgeDeletedSpaces } from '../src/spaces/purge.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

interface Site {
  id: string;
  title: string;
  type: string;
  visibility: string;
  published: boolean;
  siteSpaces: number;
  basename?: string;
  proxy?: { origin: string; target: string };
  urls: { location: string; app: string; published?: string };
}
interface SiteSpace {
  id: string;
  path: string;
  default: boolean;
  section?: string;
  space: { id: string };
  urls: { published?: string };
}
interface Section {
  id: string;
  title: string;
  path: string;
  default: boolean;
  condition?: string;
  description?: string;
  siteSpaces: SiteSpace[];
  urls: { published?: string };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

async function call(account: Account, method: Method, url: string, payload?: object) {
  return t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });
}

/** An organization with an admin, a `read` member and a guest, and a way to make its spaces. */
async function organization() {
  const team = await t.factory.team(['read', null]);
  const org = team.organization.id;
  const admin = team.admin;
  const space = async (title: string) => {
    const response = await call(admin, 'POST', `/orgs/${org}/spaces`, { title });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  };
  const site = async (body: object = {}) => {
    const response = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Docs', ...body });
    expect(response.statusCode).toBe(201);
    return response.json<Site>();
  };
  return { team, org, admin, reader: team.member('read'), guest: team.member(null), space, site };
}

async function siteRows(siteId: string) {
  return {
    site: await t.db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst(),
    sections: await t.db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).orderBy('id').execute(),
    siteSpaces: await t.db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).orderBy('id').execute(),
  };
}

describe('creating a site', () => {
  it('makes a basic, public, unpublished site publishing the given spaces at its root, in order', async () => {
    const { org, admin, space } = await organization();
    const first = await space('Guides');
    const second = await space('Reference');
    const response = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Docs', spaces: [second, first] });
    expect(response.statusCode).toBe(201);
    expectSpecResponse('createSite', 201, response.json());
    const site = response.json<Site>();
    expect(site).toMatchObject({ title: 'Docs', type: 'basic', visibility: 'public', published: false, siteSpaces: 2 });
    expect(site.urls.published).toBeUndefined();
    expect(response.headers.location).toBe(site.urls.location);
    expect(site.urls.location).toBe(`${PUBLIC_URL}/v1/orgs/${org}/sites/${site.id}`);

    const structure = await call(admin, 'GET', `/orgs/${org}/sites/${site.id}/structure`);
    expectSpecResponse('getSiteStructure', 200, structure.json());
    const body = structure.json<{ type: string; structure: SiteSpace[] }>();
    expect(body.type).toBe('siteSpaces');
    expect(body.structure.map((s) => [s.space.id, s.path, s.default])).toEqual([
      [second, 'reference', true],
      [first, 'guides', false],
    ]);
  });

  it('with `spaces: "empty"` makes a new space for the site and publishes it', async () => {
    const { org, admin } = await organization();
    const response = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Handbook', spaces: 'empty' });
    expect(response.statusCode).toBe(201);
    const site = response.json<Site>();
    expect(site.siteSpaces).toBe(1);
    const { siteSpaces } = await siteRows(site.id);
    const space = await t.db
      .selectFrom('spaces')
      .select(['title', 'organization_id'])
      .where('id', '=', siteSpaces[0]!.space_id)
      .executeTakeFirstOrThrow();
    expect(space).toEqual({ title: 'Handbook', organization_id: org });
  });

  it.each([
    ['a one-character title', { title: 'D' }, /^body\/title/],
    ['an unknown type', { type: 'gold' }, /^body\/type/],
    ['an unknown visibility', { visibility: 'private' }, /^body\/visibility/],
    ['a space listed twice', { spaces: ['a', 'a'] }, /^body\/spaces/],
    ['an unknown enum for a new space', { spaces: 'full' }, /^body\/spaces/],
    ['an unknown field', { hostname: 'docs.example.com' }, /hostname/],
  ])('refuses %s with a 400 and stores nothing', async (_name, body, message) => {
    const { org, admin } = await organization();
    const response = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Docs', ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(message);
    expect(await t.db.selectFrom('sites').select('id').where('organization_id', '=', org).execute()).toEqual([]);
  });

  it('refuses a space of another organization, or one in the trash, naming it, and stores nothing', async () => {
    const { org, admin, space } = await organization();
    const other = await organization();
    const foreign = await other.space('Theirs');
    const trashed = await space('Old');
    expect((await call(admin, 'DELETE', `/spaces/${trashed}`)).statusCode).toBe(205);
    const mine = await space('Mine');
    for (const [spaces, index, id] of [
      [[mine, foreign], 1, foreign],
      [[trashed], 0, trashed],
    ] as const) {
      const response = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Docs', spaces });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(
        `body/spaces/${index}: no space "${id}" in this organization`,
      );
    }
    expect(await t.db.selectFrom('sites').select('id').where('organization_id', '=', org).execute()).toEqual([]);
  });

  it('is for admins: a member gets a 403, a non-member a 404', async () => {
    const { org, reader } = await organization();
    const stranger = await t.factory.account();
    expect((await call(reader, 'POST', `/orgs/${org}/sites`, { title: 'Docs' })).statusCode).toBe(403);
    expect((await call(stranger, 'POST', `/orgs/${org}/sites`, { title: 'Docs' })).statusCode).toBe(404);
  });
});

describe('listing sites', () => {
  it('filters by space, title and published state, pages by cursor, and counts every match', async () => {
    const { org, admin, reader, space, site } = await organization();
    const shared = await space('Shared');
    const alpha = await site({ title: 'Alpha docs', spaces: [shared] });
    const beta = await site({ title: 'Beta Docs' });
    const gamma = await site({ title: 'Gamma', spaces: [shared] });
    await call(admin, 'POST', `/orgs/${org}/sites/${beta.id}/publish`);

    const list = async (query: string) => {
      const response = await call(reader, 'GET', `/orgs/${org}/sites${query}`);
      expect(response.statusCode).toBe(200);
      expectSpecResponse('listSites', 200, response.json());
      return response.json<{ items: Site[]; count: number; next?: { page: string } }>();
    };
    expect((await list('')).items.map((s) => s.id)).toEqual([gamma.id, beta.id, alpha.id]);
    expect((await list(`?space=${shared}`)).items.map((s) => s.id)).toEqual([gamma.id, alpha.id]);
    expect((await list('?title=DOCS')).items.map((s) => s.id)).toEqual([beta.id, alpha.id]);
    expect((await list('?published=true')).items.map((s) => s.id)).toEqual([beta.id]);
    expect((await list('?published=false')).count).toBe(2);

    const first = await list('?limit=2');
    expect(first).toMatchObject({ count: 3 });
    expect(first.items.map((s) => s.id)).toEqual([gamma.id, beta.id]);
    const second = await list(`?limit=2&page=${first.next!.page}`);
    expect(second.items.map((s) => s.id)).toEqual([alpha.id]);
    expect(second.next).toBeUndefined();
    expect((await call(reader, 'GET', `/orgs/${org}/sites?published=true&page=${first.next!.page}`)).statusCode).toBe(
      400,
    );
  });

  it('shows a site’s favicon as its icon, and its customization among its features, in the list as in the site', async () => {
    const { org, admin, site } = await organization();
    const created = await site();
    const base = `/orgs/${org}/sites/${created.id}`;
    const settings = (await call(admin, 'GET', `${base}/customization`)).json<Record<string, unknown>>();
    const favicon = { icon: { light: 'https://example.com/light.png', dark: 'https://example.com/dark.png' } };
    expect((await call(admin, 'PUT', `${base}/customization`, { ...settings, favicon })).statusCode).toBe(200);
    const listed = (await call(admin, 'GET', `/orgs/${org}/sites`)).json<{ items: Array<Record<string, unknown>> }>();
    const single = (await call(admin, 'GET', base)).json<Record<string, unknown>>();
    for (const presented of [listed.items[0]!, single]) {
      expect(presented.icon).toEqual(favicon);
      expect(presented.features).toContainEqual({ id: 'sites-basic-customization', plan: 'basic', frozen: false });
    }
    expect(listed.items[0]).toEqual(single);
  });

  it('is for members: a guest gets a 403, a non-member a 404', async () => {
    const { org, guest, reader, site } = await organization();
    const stranger = await t.factory.account();
    const refusals = async () => {
      // The whole list, a page of none and a filtered list ask who is reading in different ways.
      for (const query of ['', '?limit=0', '?published=false']) {
        const asGuest = await call(guest, 'GET', `/orgs/${org}/sites${query}`);
        expect(asGuest.statusCode).toBe(403);
        expect(asGuest.json().error.message).toBe('Guests cannot list the sites of the organization');
        expect((await call(stranger, 'GET', `/orgs/${org}/sites${query}`)).statusCode).toBe(404);
      }
    };
    await refusals();
    const made = await site();
    await refusals();
    expect((await call(reader, 'GET', `/orgs/${org}/sites`)).json().items.map((s: { id: string }) => s.id)).toEqual([
      made.id,
    ]);
    expect((await call(reader, 'GET', `/orgs/${org}/sites?limit=0`)).json()).toEqual({ count: 1, items: [] });
  });
});

describe('changing a site', () => {
  it('sets each field of the PATCH and answers the site as changed', async () => {
    const { org, admin, site } = await organization();
    const created = await site();
    const response = await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}`, {
      title: 'Product docs',
      visibility: 'unlisted',
      basename: `product-${created.id.toLowerCase()}`,
      agentsContext: 'excluded',
      proxy: 'example.com/docs',
      adaptiveContent: { enabled: true },
    });
    expect(response.statusCode).toBe(200);
    expectSpecResponse('updateSiteById', 200, response.json());
    expect(response.json()).toMatchObject({
      title: 'Product docs',
      visibility: 'unlisted',
      basename: `product-${created.id.toLowerCase()}`,
      agentsContext: 'excluded',
      proxy: { origin: 'example.com/docs', target: `${PUBLIC_URL}/s/product-${created.id.toLowerCase()}` },
      adaptiveContent: { enabled: true },
    });
    const removed = await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}`, { proxy: null });
    expect(removed.json<Site>().proxy).toBeUndefined();
    expect((await siteRows(created.id)).site!.proxy).toBeNull();
  });

  it('refuses a basename another site goes by, in any organization, with a 409', async () => {
    const first = await organization();
    const second = await organization();
    const a = await first.site();
    const b = await second.site();
    const basename = `taken-${a.id.toLowerCase()}`;
    expect((await call(first.admin, 'PATCH', `/orgs/${first.org}/sites/${a.id}`, { basename })).statusCode).toBe(200);
    const clash = await call(second.admin, 'PATCH', `/orgs/${second.org}/sites/${b.id}`, {
      basename: basename.toUpperCase(),
    });
    expect(clash.statusCode).toBe(409);
    expect((await siteRows(b.id)).site!.basename).toBeNull();
  });

  it.each([
    ['a proxy outside the pattern', { proxy: 'https://example.com/docs' }, /^body\/proxy/],
    ['an empty basename', { basename: '' }, /^body\/basename/],
    ['a 129-character title', { title: 'x'.repeat(129) }, /^body\/title/],
    ['an unknown agentsContext', { agentsContext: 'maybe' }, /^body\/agentsContext/],
    ['adaptiveContent without enabled', { adaptiveContent: {} }, /^body\/adaptiveContent/],
    [
      'an unknown default section',
      { defaultSiteSection: 'nope' },
      /^body\/defaultSiteSection: the site has no section/,
    ],
    ['an unknown default site space', { defaultSiteSpace: 'nope' }, /^body\/defaultSiteSpace: no site space "nope"/],
  ])('refuses %s with a 400 and changes nothing', async (_name, body, message) => {
    const { org, admin, site } = await organization();
    const created = await site();
    const before = await siteRows(created.id);
    const response = await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}`, { title: 'Changed', ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(message);
    expect(await siteRows(created.id)).toEqual(before);
  });

  it('moves the default site space at the root, and in the default section once the site has sections', async () => {
    const { org, admin, space, site } = await organization();
    const [a, b, c] = [await space('A space'), await space('B space'), await space('C space')];
    const created = await site({ spaces: [a, b] });
    const listDefaults = async () =>
      (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}/site-spaces?default=true`))
        .json<{ items: SiteSpace[] }>()
        .items.map((s) => s.space.id);
    const ids = (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}/site-spaces`))
      .json<{ items: SiteSpace[] }>()
      .items.map((s) => s.id);
    expect(await listDefaults()).toEqual([a]);
    expect(
      (await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}`, { defaultSiteSpace: ids[1] })).statusCode,
    ).toBe(200);
    expect(await listDefaults()).toEqual([b]);

    // The first section gathers the root's spaces, keeping their default; the new one holds `c`.
    const section = (
      await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/sections`, { spaceId: c })
    ).json<Section>();
    const sections = (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}/sections`)).json<{
      items: Section[];
    }>().items;
    expect(sections.map((s) => [s.title, s.default, s.siteSpaces.map((x) => [x.space.id, x.default])])).toEqual([
      [
        'B space',
        true,
        [
          [a, false],
          [b, true],
        ],
      ],
      ['C space', false, [[c, true]]],
    ]);
    const moved = await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}`, { defaultSiteSection: section.id });
    expect(moved.statusCode).toBe(200);
    const defaults = (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}/sections`))
      .json<{ items: Section[] }>()
      .items.map((s) => s.default);
    expect(defaults).toEqual([false, true]);
    // Now `defaultSiteSpace` names a site space of the new default section, not of the first.
    const refused = await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}`, { defaultSiteSpace: ids[0] });
    expect(refused.statusCode).toBe(400);
  });

  it('is for admins: a member gets a 403 and nothing changes', async () => {
    const { org, reader, site } = await organization();
    const created = await site();
    const response = await call(reader, 'PATCH', `/orgs/${org}/sites/${created.id}`, { title: 'Mine now' });
    expect(response.statusCode).toBe(403);
    expect((await siteRows(created.id)).site!.title).toBe('Docs');
  });
});

describe('deleting a site', () => {
  it('answers 205 and removes the site with its structure and share links; then it is a 404', async () => {
    const { org, admin, space, site } = await organization();
    const created = await site({ spaces: [await space('One')] });
    await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/sections`, { spaceId: await space('Two') });
    await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/share-links`, { name: 'Review' });
    const response = await call(admin, 'DELETE', `/orgs/${org}/sites/${created.id}`);
    expect(response.statusCode).toBe(205);
    expect(response.body).toBe('');
    expect(await siteRows(created.id)).toEqual({ site: undefined, sections: [], siteSpaces: [] });
    expect(await t.db.selectFrom('site_share_links').select('id').where('site_id', '=', created.id).execute()).toEqual(
      [],
    );
    expect((await call(admin, 'GET', `/orgs/${org}/sites/${created.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/orgs/${org}/sites/${created.id}`)).statusCode).toBe(404);
  });

  it('unsets the organization’s default content when it named the site', async () => {
    const { org, admin, site } = await organization();
    const created = await site();
    const set = await call(admin, 'PATCH', `/orgs/${org}`, { defaultContent: { type: 'site', site: created.id } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ defaultContent: { type: 'site', site: created.id } });
    await call(admin, 'DELETE', `/orgs/${org}/sites/${created.id}`);
    expect((await call(admin, 'GET', `/orgs/${org}`)).json<{ defaultContent?: unknown }>().defaultContent).toBe(
      undefined,
    );
  });

  it('a site of another organization is not a default content choice', async () => {
    const mine = await organization();
    const theirs = await organization();
    const foreign = await theirs.site();
    const response = await call(mine.admin, 'PATCH', `/orgs/${mine.org}`, {
      defaultContent: { type: 'site', site: foreign.id },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('publishing', () => {
  it('publish and unpublish set `published`, and published addresses exist only while it is', async () => {
    const { org, admin, reader, space, site } = await organization();
    const created = await site({ spaces: [await space('Guide')] });
    expect((await call(reader, 'POST', `/orgs/${org}/sites/${created.id}/publish`)).statusCode).toBe(403);
    const published = await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/publish`);
    expect(published.statusCode).toBe(200);
    expectSpecResponse('publishSite', 200, published.json());
    expect(published.json<Site>()).toMatchObject({
      published: true,
      urls: { published: `${PUBLIC_URL}/s/${created.id}` },
    });
    const siteSpaces = (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}/site-spaces`)).json<{
      items: SiteSpace[];
    }>().items;
    expect(siteSpaces[0]!.urls.published).toBe(`${PUBLIC_URL}/s/${created.id}/guide`);
    const unpublished = await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/unpublish`);
    expectSpecResponse('unpublishSite', 200, unpublished.json());
    expect(unpublished.json<Site>().published).toBe(false);
    expect(unpublished.json<Site>().urls.published).toBeUndefined();
  });

  it('shows a published public or unlisted site to anyone, and nothing else to non-members', async () => {
    const { org, admin, space, site } = await organization();
    const stranger = await t.factory.account();
    const created = await site({ spaces: [await space('Guide')] });
    const published = () => call(stranger, 'GET', `/orgs/${org}/sites/${created.id}/published`);
    expect((await published()).statusCode).toBe(404);
    await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/publish`);
    const response = await published();
    expect(response.statusCode).toBe(200);
    expectSpecResponse('getPublishedContentSite', 200, response.json());
    const body = response.json<{
      site: Site;
      structure: { type: string; structure: SiteSpace[] };
      customizations: { site: { title?: string }; siteSpaces: object };
      scripts: unknown[];
    }>();
    expect(body.structure.structure).toHaveLength(1);
    // A visitor reads the published spaces, and nothing more.
    expect(body.structure.structure[0]!.space).toMatchObject({
      permissions: { view: true, edit: false, admin: false },
    });
    expect(body.customizations.siteSpaces).toEqual({});
    expect(body.scripts).toEqual([]);
    for (const visibility of ['unlisted', 'visitor-auth'] as const) {
      await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}`, { visibility });
      expect((await published()).statusCode).toBe(visibility === 'unlisted' ? 200 : 404);
    }
    // The rest of the site is the members'.
    expect((await call(stranger, 'GET', `/orgs/${org}/sites/${created.id}`)).statusCode).toBe(404);
    expect((await call(stranger, 'GET', `/orgs/${org}/sites/${created.id}/structure`)).statusCode).toBe(404);
  });

  it('opens a share-link site with the key of an active share link, whose URLs then carry it', async () => {
    const { org, admin, space, site } = await organization();
    const stranger = await t.factory.account();
    const created = await site({ visibility: 'share-link', spaces: [await space('Guide')] });
    await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/publish`);
    const link = (await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/share-links`, { name: 'Beta' })).json<{
      id: string;
      urls: { published: string };
    }>();
    const key = new URL(link.urls.published).searchParams.get('share')!;
    const published = (shareKey?: string) =>
      call(
        stranger,
        'GET',
        `/orgs/${org}/sites/${created.id}/published${shareKey === undefined ? '' : `?shareKey=${encodeURIComponent(shareKey)}`}`,
      );
    expect((await published()).statusCode).toBe(404);
    expect((await published('wrong-key')).statusCode).toBe(404);
    const opened = await published(key);
    expect(opened.statusCode).toBe(200);
    expectSpecResponse('getPublishedContentSite', 200, opened.json());
    const structure = opened.json<{ structure: { structure: SiteSpace[] } }>().structure.structure;
    expect(structure[0]!.urls.published).toBe(`${PUBLIC_URL}/s/${created.id}/guide?share=${encodeURIComponent(key)}`);
    await call(admin, 'PATCH', `/orgs/${org}/sites/${created.id}/share-links/${link.id}`, { active: false });
    expect((await published(key)).statusCode).toBe(404);
  });

  it('hides a site space whose space is in the trash, and an emptied section, until the space is restored', async () => {
    const { org, admin, space, site } = await organization();
    const kept = await space('Kept');
    const trashed = await space('Trashed');
    const created = await site({ spaces: [kept] });
    await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/sections`, { spaceId: trashed });
    await call(admin, 'POST', `/orgs/${org}/sites/${created.id}/publish`);
    const publishedSections = async () =>
      (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}/published`))
        .json<{ structure: { structure: Section[] } }>()
        .structure.structure.map((s) => s.title);
    expect(await publishedSections()).toEqual(['Kept', 'Trashed']);

    await call(admin, 'DELETE', `/spaces/${trashed}`);
    expect(await publishedSections()).toEqual(['Kept']);
    expect((await call(admin, 'GET', `/orgs/${org}/sites/${created.id}`)).json<Site>().siteSpaces).toBe(1);
    const listed = (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}/site-spaces`)).json<{
      items: SiteSpace[];
      count: number;
    }>();
    expect(listed.items.map((s) => s.space.id)).toEqual([kept]);

    await call(admin, 'POST', `/spaces/${trashed}/restore`);
    expect(await publishedSections()).toEqual(['Kept', 'Trashed']);
    expect((await call(admin, 'GET', `/orgs/${org}/sites/${created.id}`)).json<Site>().siteSpaces).toBe(2);
  });

  it('counts the site spaces of a collection’s spaces out when the collection is deleted, and back on restore', async () => {
    const { org, admin, space, site } = await organization();
    const collection = (await call(admin, 'POST', `/orgs/${org}/collections`, { title: 'Guides' })).json<{
      id: string;
    }>().id;
    const inside = (await call(admin, 'POST', `/orgs/${org}/spaces`, { title: 'Inside', parent: collection })).json<{
      id: string;
    }>().id;
    const created = await site({ spaces: [inside, await space('Outside')] });
    const count = async () => (await call(admin, 'GET', `/orgs/${org}/sites/${created.id}`)).json<Site>().siteSpaces;
    expect(await count()).toBe(2);
    expect((await call(admin, 'DELETE', `/collections/${collection}`)).statusCode).toBe(205);
    expect(await count()).toBe(1);
    const listed = (await call(admin, 'GET', `/orgs/${org}/sites`)).json<{ items: Site[] }>().items;
    expect(listed.find((s) => s.id === created.id)!.siteSpaces).toBe(1);
    expect((await call(admin, 'POST', `/spaces/${inside}/restore`)).statusCode).toBe(200);
    expect(await count()).toBe(2);
  });

  it('a space transferred to another organization leaves the sites of the old one; a purged one leaves every site', async () => {
    const { org, admin, space, site } = await organization();
    const transferred = await space('Moving');
    const purged = await space('Purged');
    const created = await site({ spaces: [transferred, purged, await space('Staying')] });
    const target = await t.factory.organization(admin.user.id);
    const moved = await call(admin, 'POST', `/spaces/${transferred}/transfer`, { organization: target.id });
    expect(moved.statusCode).toBe(200);
    expect((await siteRows(created.id)).siteSpaces.map((row) => row.space_id)).not.toContain(transferred);

    await call(admin, 'DELETE', `/spaces/${purged}`);
    const later = { now: () => new Date(systemClock.now().getTime() + 8 * 86_400_000) };
    await purgeDeletedSpaces(t.db, later, { retentionMs: 7 * 86_400_000, batchSize: 100 });
    expect((await siteRows(created.id)).siteSpaces).toHaveLength(1);
    expect((await call(admin, 'GET', `/orgs/${org}/sites/${created.id}`)).json<Site>().siteSpaces).toBe(1);
  });
});

describe('sections and site spaces', () => {
  it('keeps section paths unique in the site, and site-space paths unique in their section', async () => {
    const { org, admin, space, site } = await organization();
    const created = await site();
    const base = `/orgs/${org}/sites/${created.id}`;
    const one = (
      await call(admin, 'POST', `${base}/sections`, { spaceId: await space('API'), title: 'API' })
    ).json<Section>();
    const two = (
      await call(admin, 'POST', `${base}/sections`, { spaceId: await space('API v2'), title: 'API' })
    ).json<Section>();
    expect([one.path, two.path]).toEqual(['api', 'api-2']);
    const clash = await call(admin, 'PATCH', `${base}/sections/${two.id}`, { path: 'api' });
    expect(clash.statusCode).toBe(409);

    const guide = await space('Guide');
    const added = await call(admin, 'POST', `${base}/site-spaces`, { spaceId: guide, sectionId: two.id });
    expect(added.statusCode).toBe(201);
    expectSpecResponse('addSpaceToSite', 201, added.json());
    expect(added.json<SiteSpace>()).toMatchObject({ path: 'guide', section: two.id, default: false });
    expect((await call(admin, 'POST', `${base}/site-spaces`, { spaceId: guide, sectionId: two.id })).statusCode).toBe(
      409,
    );
    const pathClash = await call(admin, 'PATCH', `${base}/site-spaces/${added.json<SiteSpace>().id}`, {
      path: 'api-v2',
    });
    expect(pathClash.statusCode).toBe(409);
    // Without a section, the space goes to the default section (the first).
    const defaulted = await call(admin, 'POST', `${base}/site-spaces`, { spaceId: guide });
    expect(defaulted.json<SiteSpace>().section).toBe(one.id);
  });

  it('sets and removes a section’s condition, checked against the adaptive schema', async () => {
    const { org, admin, space, site } = await organization();
    const created = await site();
    const base = `/orgs/${org}/sites/${created.id}`;
    const section = (await call(admin, 'POST', `${base}/sections`, { spaceId: await space('Beta') })).json<Section>();
    const undeclared = await call(admin, 'PATCH', `${base}/sections/${section.id}`, {
      condition: 'visitor.claims.isBeta === true',
    });
    expect(undeclared.statusCode).toBe(400);
    expect(undeclared.json<{ error: { message: string } }>().error.message).toMatch(/^body\/condition: /);
    const schema = await call(admin, 'PUT', `${base}/adaptive-schema`, {
      jsonSchema: {
        type: 'object',
        properties: { isBeta: { type: 'boolean', description: 'In the beta programme' } },
        additionalProperties: false,
      },
    });
    expect(schema.statusCode).toBe(200);
    const set = await call(admin, 'PATCH', `${base}/sections/${section.id}`, {
      condition: 'visitor.claims.isBeta === true',
      description: 'For beta users',
    });
    expect(set.statusCode).toBe(200);
    expectSpecResponse('updateSiteSectionById', 200, set.json());
    expect(set.json<Section>()).toMatchObject({
      condition: 'visitor.claims.isBeta === true',
      description: 'For beta users',
    });
    const broken = await call(admin, 'PATCH', `${base}/sections/${section.id}`, {
      condition: 'visitor.claims.isBeta &&',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json<{ error: { message: string } }>().error.message).toMatch(
      /^body\/condition: the expression breaks/,
    );
    const kept = await call(admin, 'PATCH', `${base}/sections/${section.id}`, { title: 'Beta programme' });
    expect(kept.json<Section>().condition).toBe('visitor.claims.isBeta === true');
    const removed = await call(admin, 'PATCH', `${base}/sections/${section.id}`, {
      condition: null,
      description: null,
    });
    expect(removed.json<Section>().condition).toBeUndefined();
    expect(removed.json<Section>().description).toBeUndefined();
  });

  it('deleting a section deletes its site spaces, and the next section becomes the default', async () => {
    const { org, admin, space, site } = await organization();
    const created = await site();
    const base = `/orgs/${org}/sites/${created.id}`;
    const first = (await call(admin, 'POST', `${base}/sections`, { spaceId: await space('One') })).json<Section>();
    const second = (await call(admin, 'POST', `${base}/sections`, { spaceId: await space('Two') })).json<Section>();
    expect(first.default).toBe(true);
    const response = await call(admin, 'DELETE', `${base}/sections/${first.id}`);
    expect(response.statusCode).toBe(205);
    const rows = await siteRows(created.id);
    expect(rows.sections.map((s) => s.id)).toEqual([second.id]);
    expect(rows.siteSpaces.map((s) => s.section_id)).toEqual([second.id]);
    const sections = (await call(admin, 'GET', `${base}/sections`)).json<{ items: Section[] }>().items;
    expect(sections.map((s) => [s.id, s.default])).toEqual([[second.id, true]]);
    expect((await call(admin, 'DELETE', `${base}/sections/${first.id}`)).statusCode).toBe(404);
  });

  it('a section added after a group lands after it, whatever gaps earlier changes left', async () => {
    const { org, admin, space, site } = await organization();
    const created = await site({ spaces: [await space('Alpha')] });
    const base = `/orgs/${org}/sites/${created.id}`;
    await call(admin, 'POST', `${base}/sections`, { spaceId: await space('Beta') });
    const ids = (await call(admin, 'GET', `${base}/sections`)).json<{ items: Section[] }>().items.map((s) => s.id);
    await call(admin, 'POST', `${base}/section-groups`, { title: 'Group', sections: ids });
    await call(admin, 'POST', `${base}/sections`, { spaceId: await space('Gamma'), title: 'Gamma' });
    const structure = (await call(admin, 'GET', `${base}/structure`)).json<{ structure: Array<{ title: string }> }>();
    expect(structure.structure.map((entry) => entry.title)).toEqual(['Group', 'Gamma']);
  });

  it('a site holds at most 100 site spaces in one section', async () => {
    const { org, admin, site } = await organization();
    const created = await site();
    const ids = [];
    for (let i = 0; i < 101; i++) {
      const response = await call(admin, 'POST', `/orgs/${org}/spaces`, { title: `Space ${i}` });
      ids.push(response.json<{ id: string }>().id);
    }
    const base = `/orgs/${org}/sites/${created.id}`;
    const response = await call(admin, 'PATCH', base, {});
    expect(response.statusCode).toBe(200);
    await t.db
      .insertInto('site_spaces')
      .values(
        ids.slice(0, 100).map((spaceId, position) => ({
          id: `bulk${String(position).padStart(16, '0')}`,
          organization_id: org,
          site_id: created.id,
          section_id: null,
          space_id: spaceId,
          path: `space-${position}`,
          position,
        })),
      )
      .execute();
    const refused = await call(admin, 'POST', `${base}/site-spaces`, { spaceId: ids[100] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: { message: string } }>().error.message).toMatch(/at most 100/);
  });
});

describe('concurrent changes', () => {
  it('adds taken one at a time: distinct positions and paths, and one space once', async () => {
    const { org, admin, space, site } = await organization();
    const created = await site();
    const base = `/orgs/${org}/sites/${created.id}`;
    const titles = Array.from({ length: 8 }, () => 'Same title');
    const spaces = await Promise.all(titles.map((title) => space(title)));
    const added = await Promise.all(spaces.map((spaceId) => call(admin, 'POST', `${base}/site-spaces`, { spaceId })));
    expect(added.map((response) => response.statusCode)).toEqual(spaces.map(() => 201));
    const rows = (await siteRows(created.id)).siteSpaces;
    expect(new Set(rows.map((row) => row.position)).size).toBe(8);
    expect(new Set(rows.map((row) => row.path)).size).toBe(8);

    const twice = await space('Twice');
    const both = await Promise.all([1, 2].map(() => call(admin, 'POST', `${base}/site-spaces`, { spaceId: twice })));
    expect(both.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const defaults = (await call(admin, 'GET', `${base}/site-spaces?default=true`)).json<{ items: SiteSpace[] }>();
    expect(defaults.items).toHaveLength(1);
  });
});

describe('the official client', () => {
  it('creates, structures, publishes and reads a site unchanged', async () => {
    const { org, admin, space } = await organization();
    const client = officialClient(await listen(t.app), admin.token);
    const guide = await space('Guide');
    const api = await space('API');
    const site = (await client.orgs.createSite(org, { title: 'Client docs', spaces: [guide] })).data;
    expectSpecResponse('createSite', 201, site);
    const section = (await client.orgs.addSectionToSite(org, site.id, { spaceId: api })).data;
    expectSpecResponse('addSectionToSite', 201, section);
    const added = (await client.orgs.addSpaceToSite(org, site.id, { spaceId: guide, sectionId: section.id })).data;
    expectSpecResponse('addSpaceToSite', 201, added);
    const sorted = (
      await client.orgs.sortSiteStructure(org, site.id, {
        item: { type: 'site-space', id: added.id },
        position: { before: { type: 'site-space', id: section.siteSpaces[0]!.id } },
      })
    ).data;
    expectSpecResponse('sortSiteStructure', 200, sorted);
    await client.orgs.publishSite(org, site.id);
    const published = (await client.orgs.getPublishedContentSite(org, site.id)).data;
    expectSpecResponse('getPublishedContentSite', 200, published);
    expect(published.structure.type).toBe('sections');
    const sections = (await client.orgs.listSiteSections(org, site.id)).data;
    expect(sections.items.map((s) => s.siteSpaces.map((x) => x.space.id))).toEqual([[guide], [guide, api]]);
    const sites = (await client.orgs.listSites(org, { published: true })).data;
    expect(sites.items.map((s) => s.id)).toEqual([site.id]);
  });
});
