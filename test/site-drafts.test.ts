import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;
let outsider: Team;

beforeAll(async () => {
  team = await t.factory.team(['edit', 'read']);
  admin = team.admin;
  outsider = await t.factory.team();
});

const client = newestClientOf(() => t.app);

const sitePath = (siteId: string) => `/v1/orgs/${team.organization.id}/sites/${siteId}`;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (account: Account | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account?.headers ?? {}, ...(payload ? { payload } : {}) });

/** A space of one page whose text holds `word`, so that a search finds it there alone. */
async function spaceWith(title: string, word: string) {
  const space = await api.createSpace(admin, team.organization.id, { title });
  await api.change(admin, space.id, [
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: `All about the ${word}.` } },
  ]);
  return space.id;
}

/** A public, published site with two sections, `Guides` (the default) and `API`, each publishing a space. */
async function sectionedSite() {
  const created = await call(admin, 'POST', `/v1/orgs/${team.organization.id}/sites`, {
    title: 'Acme Docs',
    visibility: 'public',
  });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = (created.json() as { id: string }).id;
  const sections: Array<{ id: string; siteSpaceId: string }> = [];
  for (const [title, word] of [
    ['Guides', 'aardvark'],
    ['API', 'bandicoot'],
  ] as const) {
    const section = await call(admin, 'POST', `${sitePath(siteId)}/sections`, {
      spaceId: await spaceWith(title, word),
      title,
    });
    expect(section.statusCode, section.body).toBe(201);
    const body = section.json() as { id: string; siteSpaces: Array<{ id: string }> };
    sections.push({ id: body.id, siteSpaceId: body.siteSpaces[0]!.id });
  }
  expect((await call(admin, 'POST', `${sitePath(siteId)}/publish`)).statusCode).toBe(200);
  return { siteId, guides: sections[0]!, apiSection: sections[1]! };
}

type Item = { object: string; id: string; draft: boolean; hidden?: boolean; children?: Item[]; siteSpaces?: Item[] };
/** Every item of a structure answer, groups opened and sections' site spaces included. */
const everyItem = (items: Item[]): Item[] =>
  items.flatMap((item) => [item, ...everyItem(item.children ?? []), ...everyItem(item.siteSpaces ?? [])]);

const memberStructure = async (siteId: string, account: Account = team.member('read')) => {
  const res = await call(account, 'GET', `${sitePath(siteId)}/structure`);
  expect(res.statusCode, res.body).toBe(200);
  expectNewestSpecResponse('getSiteStructure', 200, res.json());
  return everyItem((res.json() as { structure: Item[] }).structure);
};
/** getPublishedContentSite, for a member, or for a visitor: a user of another organization. */
const publishedStructure = async (siteId: string, account: Account = outsider.admin) => {
  const res = await call(account, 'GET', `${sitePath(siteId)}/published`);
  expect(res.statusCode, res.body).toBe(200);
  expectNewestSpecResponse('getPublishedContentSite', 200, res.json());
  return everyItem((res.json() as { structure: { structure: Item[] } }).structure.structure);
};
const ids = (items: Item[]) => items.map((item) => item.id);

const readerPage = (siteId: string, path = '', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/s/${siteId}${path}`, headers });
const apiSearch = async (siteId: string, query: string) => {
  const res = await call(outsider.admin, 'POST', `${sitePath(siteId)}/search`, { query, scope: { mode: 'all' } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: unknown[] }).items;
};

/** Opens a signed preview of the site (with drafts unless `?draft=false`): the reader's cookie for it. */
async function previewCookie(siteId: string, query = '') {
  const res = await call(team.member('read'), 'GET', `${sitePath(siteId)}/publishing/preview${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL((res.json() as { url: string }).url);
  const first = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(first.statusCode).toBe(303);
  return { cookie: String(first.headers['set-cookie']).split(';')[0]! };
}

const rowOf = (table: 'site_sections' | 'site_section_groups', id: string) =>
  t.db.selectFrom(table).select(['id', 'draft']).where('id', '=', id).executeTakeFirst();
const siteSpaceRow = (id: string) =>
  t.db.selectFrom('site_spaces').select(['id', 'draft', 'hidden']).where('id', '=', id).executeTakeFirst();

describe('draft sections', () => {
  it('are stored and shown to members, left out of what visitors are shown, and shown in previews', async () => {
    const { siteId } = await sectionedSite();
    const added = await call(admin, 'POST', `${sitePath(siteId)}/sections`, {
      spaceId: await spaceWith('Roadmap', 'zeppelin'),
      title: 'Roadmap',
      draft: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    expectNewestSpecResponse('addSectionToSite', 201, added.json());
    const draft = added.json() as Item & { default: boolean; siteSpaces: Item[] };
    expect(draft).toMatchObject({ object: 'site-section', draft: true, default: false });
    expect(await rowOf('site_sections', draft.id)).toEqual({ id: draft.id, draft: true });

    const members = await memberStructure(siteId);
    expect(members.find((item) => item.id === draft.id)?.draft).toBe(true);
    expect(ids(await publishedStructure(siteId, admin))).not.toContain(draft.id);
    expect(ids(await publishedStructure(siteId))).not.toContain(draft.id);

    const home = await readerPage(siteId);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('>API</a>');
    expect(home.body).not.toContain('>Roadmap</a>');
    expect((await readerPage(siteId, '/roadmap')).statusCode).toBe(404);
    expect((await readerPage(siteId, '/~/search?q=zeppelin')).body).toContain('Nothing in this site matches.');
    expect(await apiSearch(siteId, 'zeppelin')).toEqual([]);
    expect(await apiSearch(siteId, 'bandicoot')).toHaveLength(1);

    const preview = await previewCookie(siteId);
    expect((await readerPage(siteId, '', preview)).body).toContain('>Roadmap</a>');
    const inPreview = await readerPage(siteId, '/roadmap', preview);
    expect(inPreview.statusCode).toBe(200);
    expect(inPreview.body).toContain('All about the zeppelin.');
    expect((await readerPage(siteId, '/~/search?q=zeppelin', preview)).body).not.toContain('Nothing in this site');
    const previewWithoutDrafts = await previewCookie(siteId, '?draft=false');
    expect((await readerPage(siteId, '/roadmap', previewWithoutDrafts)).statusCode).toBe(404);

    const live = await call(admin, 'PATCH', `${sitePath(siteId)}/sections/${draft.id}`, { draft: false });
    expect(live.statusCode, live.body).toBe(200);
    expectNewestSpecResponse('updateSiteSectionById', 200, live.json());
    expect(live.json().draft).toBe(false);
    expect(ids(await publishedStructure(siteId))).toContain(draft.id);
    expect((await readerPage(siteId, '/roadmap')).statusCode).toBe(200);
    expect(await apiSearch(siteId, 'zeppelin')).toHaveLength(1);
  });

  it('keep the site’s default section live: its own draft, a first section, or a draft named default are 400s', async () => {
    const { siteId, guides, apiSection } = await sectionedSite();
    const refused = await call(admin, 'PATCH', `${sitePath(siteId)}/sections/${guides.id}`, {
      draft: true,
      title: 'Renamed',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('body/draft: the site’s default section cannot be a draft');
    expect(
      await t.db.selectFrom('site_sections').select(['draft', 'title']).where('id', '=', guides.id).execute(),
    ).toEqual([{ draft: false, title: 'Guides' }]);

    // Another section made a draft, then named the default: refused, the default stays.
    expect(
      (await call(admin, 'PATCH', `${sitePath(siteId)}/sections/${apiSection.id}`, { draft: true })).statusCode,
    ).toBe(200);
    const named = await call(admin, 'PATCH', sitePath(siteId), { defaultSiteSection: apiSection.id });
    expect(named.statusCode).toBe(400);
    expect(named.json().error.message).toContain('body/defaultSiteSection');
    const site = await t.db.selectFrom('sites').select('default_section_id').where('id', '=', siteId).execute();
    expect(site).toEqual([{ default_section_id: null }]);

    // A site's first section is its default: it cannot start as a draft.
    const empty = await call(admin, 'POST', `/v1/orgs/${team.organization.id}/sites`, { title: 'Empty' });
    const emptyId = (empty.json() as { id: string }).id;
    const first = await call(admin, 'POST', `${sitePath(emptyId)}/sections`, {
      spaceId: await spaceWith('First', 'quokka'),
      draft: true,
    });
    expect(first.statusCode).toBe(400);
    expect(await t.db.selectFrom('site_sections').select('id').where('site_id', '=', emptyId).execute()).toEqual([]);
    const firstSpace = await call(admin, 'POST', `${sitePath(emptyId)}/site-spaces`, {
      spaceId: await spaceWith('Root', 'wombat'),
      draft: true,
    });
    expect(firstSpace.statusCode).toBe(400);
    expect(firstSpace.json().error.message).toContain('cannot be a draft');
    expect(await t.db.selectFrom('site_spaces').select('id').where('site_id', '=', emptyId).execute()).toEqual([]);
  });
});

describe('draft and hidden site spaces', () => {
  it('a draft site space is members’ and previews’ only; a hidden one is reached by address but not listed', async () => {
    const { siteId, guides } = await sectionedSite();
    const added = await call(admin, 'POST', `${sitePath(siteId)}/site-spaces`, {
      spaceId: await spaceWith('Next version', 'platypus'),
      sectionId: guides.id,
      draft: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    expectNewestSpecResponse('addSpaceToSite', 201, added.json());
    const draft = added.json() as Item & { path: string; default: boolean };
    expect(draft).toMatchObject({ draft: true, hidden: false, default: false, path: 'next-version' });
    expect(await siteSpaceRow(draft.id)).toEqual({ id: draft.id, draft: true, hidden: false });

    expect((await memberStructure(siteId)).find((item) => item.id === draft.id)?.draft).toBe(true);
    expect(ids(await publishedStructure(siteId))).not.toContain(draft.id);
    expect((await readerPage(siteId, '/guides/next-version')).statusCode).toBe(404);
    expect(await apiSearch(siteId, 'platypus')).toEqual([]);
    const preview = await previewCookie(siteId);
    expect((await readerPage(siteId, '/guides/next-version', preview)).body).toContain('All about the platypus.');

    // Made live and hidden: its address reads, the space switcher of its siblings leaves it out.
    const hidden = await call(admin, 'PATCH', `${sitePath(siteId)}/site-spaces/${draft.id}`, {
      draft: false,
      hidden: true,
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expectNewestSpecResponse('updateSiteSpaceById', 200, hidden.json());
    expect(hidden.json()).toMatchObject({ draft: false, hidden: true });
    expect(await siteSpaceRow(draft.id)).toEqual({ id: draft.id, draft: false, hidden: true });
    const visitorItems = await publishedStructure(siteId);
    expect(visitorItems.find((item) => item.id === draft.id)).toMatchObject({ draft: false, hidden: true });
    const page = await readerPage(siteId, '/guides/next-version');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('All about the platypus.');
    const sibling = await readerPage(siteId, '/guides');
    expect(sibling.statusCode).toBe(200);
    expect(sibling.body).not.toContain('Next version');
    expect(await apiSearch(siteId, 'platypus')).toHaveLength(1);

    const listed = await call(admin, 'PATCH', `${sitePath(siteId)}/site-spaces/${draft.id}`, { hidden: false });
    expect(listed.json()).toMatchObject({ draft: false, hidden: false });
    expect((await readerPage(siteId, '/guides')).body).toContain('Next version');
  });

  it('keep the site space the site opens on live (400), and no live section names a draft its default', async () => {
    const { siteId, guides, apiSection } = await sectionedSite();
    const opening = await call(admin, 'PATCH', `${sitePath(siteId)}/site-spaces/${guides.siteSpaceId}`, {
      draft: true,
    });
    expect(opening.statusCode).toBe(400);
    expect(opening.json().error.message).toContain('cannot be a draft');
    expect(await siteSpaceRow(guides.siteSpaceId)).toMatchObject({ draft: false });

    const second = await call(admin, 'POST', `${sitePath(siteId)}/site-spaces`, {
      spaceId: await spaceWith('Beta', 'narwhal'),
      sectionId: apiSection.id,
      draft: true,
    });
    expect(second.statusCode, second.body).toBe(201);
    const secondId = (second.json() as { id: string }).id;
    const named = await call(admin, 'PATCH', `${sitePath(siteId)}/sections/${apiSection.id}`, {
      defaultSiteSpace: secondId,
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().error.message).toContain('cannot be a draft');
    const section = await t.db
      .selectFrom('site_sections')
      .select('default_site_space_id')
      .where('id', '=', apiSection.id)
      .executeTakeFirst();
    expect(section).toEqual({ default_site_space_id: null });
    const siteDefault = await call(admin, 'PATCH', sitePath(siteId), { defaultSiteSpace: guides.siteSpaceId });
    expect(siteDefault.statusCode, siteDefault.body).toBe(200);

    // Once another is live and the default, the first site space may become a draft.
    await call(admin, 'PATCH', `${sitePath(siteId)}/site-spaces/${secondId}`, { draft: false });
    const implicit = await call(admin, 'PATCH', `${sitePath(siteId)}/site-spaces/${apiSection.siteSpaceId}`, {
      draft: true,
    });
    expect(implicit.statusCode).toBe(400);
    expect(implicit.json().error.message).toContain('body/draft: the default site space in this section');
    const renamed = await call(admin, 'PATCH', `${sitePath(siteId)}/sections/${apiSection.id}`, {
      defaultSiteSpace: secondId,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const first = await call(admin, 'PATCH', `${sitePath(siteId)}/site-spaces/${apiSection.siteSpaceId}`, {
      draft: true,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ draft: true, default: false });
  });
});

describe('draft section groups', () => {
  it('hide what they hold from visitors, and may not hold the default section', async () => {
    const { siteId, guides, apiSection } = await sectionedSite();
    const added = await call(admin, 'POST', `${sitePath(siteId)}/section-groups`, {
      title: 'Internal',
      sections: [apiSection.id],
      draft: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    expectNewestSpecResponse('addSectionGroupToSite', 201, added.json());
    const group = added.json() as Item;
    expect(group.draft).toBe(true);
    expect(await rowOf('site_section_groups', group.id)).toEqual({ id: group.id, draft: true });

    const members = await memberStructure(siteId);
    expect(ids(members)).toEqual(expect.arrayContaining([group.id, apiSection.id]));
    const visitors = ids(await publishedStructure(siteId));
    expect(visitors).not.toContain(group.id);
    expect(visitors).not.toContain(apiSection.id);
    expect((await readerPage(siteId)).body).not.toContain('>API</a>');
    expect(await apiSearch(siteId, 'bandicoot')).toEqual([]);
    const preview = await previewCookie(siteId);
    expect((await readerPage(siteId, '', preview)).body).toContain('>API</a>');

    const holding = await call(admin, 'POST', `${sitePath(siteId)}/section-groups`, {
      title: 'Everything',
      sections: [guides.id],
      draft: true,
    });
    expect(holding.statusCode).toBe(400);
    expect(holding.json().error.message).toContain('nor sit in a draft group');
    expect(await t.db.selectFrom('site_section_groups').select('id').where('site_id', '=', siteId).execute()).toEqual([
      { id: group.id },
    ]);

    // Moving the default section into the draft group, or deleting it with only drafts left, would open on a draft.
    const moved = await call(admin, 'PATCH', `${sitePath(siteId)}/sections/${guides.id}`, {
      siteSectionGroupId: group.id,
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.message).toContain('nor sit in a draft group');
    const deleted = await call(admin, 'DELETE', `${sitePath(siteId)}/sections/${guides.id}`);
    expect(deleted.statusCode).toBe(400);
    expect(await rowOf('site_sections', guides.id)).toEqual({ id: guides.id, draft: false });
    expect((await memberStructure(siteId)).find((item) => item.id === guides.id)).toMatchObject({ default: true });

    const live = await call(admin, 'PATCH', `${sitePath(siteId)}/section-groups/${group.id}`, { draft: false });
    expect(live.statusCode, live.body).toBe(200);
    expectNewestSpecResponse('updateSiteSectionGroupById', 200, live.json());
    expect(ids(await publishedStructure(siteId))).toEqual(expect.arrayContaining([group.id, apiSection.id]));
  });
});

describe('duplicateSiteSpace with draft', () => {
  it('makes the copy, and the section made for it, drafts', async () => {
    const { siteId, apiSection } = await sectionedSite();
    const res = await call(admin, 'POST', `${sitePath(siteId)}/site-spaces/${apiSection.siteSpaceId}/duplicate`, {
      draft: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expectNewestSpecResponse('duplicateSiteSpace', 201, res.json());
    const copy = res.json() as Item & { section: string };
    expect(copy.draft).toBe(true);
    expect(await siteSpaceRow(copy.id)).toMatchObject({ draft: true });
    expect(await rowOf('site_sections', copy.section)).toEqual({ id: copy.section, draft: true });
    const visitors = ids(await publishedStructure(siteId));
    expect(visitors).not.toContain(copy.id);
    expect(visitors).not.toContain(copy.section);
    expect(ids(await memberStructure(siteId))).toEqual(expect.arrayContaining([copy.id, copy.section]));
  });
});

describe('bad input and access', () => {
  it('refuses bad draft and hidden values with a 400 naming the field, and changes nothing', async () => {
    const { siteId, guides, apiSection } = await sectionedSite();
    const cases: Array<[Method, string, object, string]> = [
      ['PATCH', `/sections/${apiSection.id}`, { draft: 'yes' }, 'body/draft'],
      ['PATCH', `/sections/${apiSection.id}`, { hidden: true }, 'hidden'],
      ['PATCH', `/site-spaces/${apiSection.siteSpaceId}`, { hidden: 1 }, 'body/hidden'],
      ['PATCH', `/site-spaces/${apiSection.siteSpaceId}`, { draft: null }, 'body/draft'],
      ['POST', '/site-spaces', { spaceId: guides.id, hidden: true }, 'hidden'],
      ['POST', '/section-groups', { title: 'Group', draft: 'no' }, 'body/draft'],
      ['POST', `/site-spaces/${apiSection.siteSpaceId}/duplicate`, { draft: 'true' }, 'body/draft'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await call(admin, method, `${sitePath(siteId)}${path}`, body);
      expect(res.statusCode, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().error.message).toContain(field);
    }
    expect(await siteSpaceRow(apiSection.siteSpaceId)).toMatchObject({ draft: false, hidden: false });
    expect(await rowOf('site_sections', apiSection.id)).toEqual({ id: apiSection.id, draft: false });
    expect(await t.db.selectFrom('site_section_groups').select('id').where('site_id', '=', siteId).execute()).toEqual(
      [],
    );
  });

  it('lets admins only make drafts, and another organization’s admin gets a 404', async () => {
    const { siteId, apiSection } = await sectionedSite();
    const path = `${sitePath(siteId)}/site-spaces/${apiSection.siteSpaceId}`;
    expect((await call(team.member('edit'), 'PATCH', path, { draft: true })).statusCode).toBe(403);
    expect((await call(outsider.admin, 'PATCH', path, { hidden: true })).statusCode).toBe(404);
    const hiddenStructure = await call(outsider.admin, 'GET', `${sitePath(siteId)}/structure`);
    expect(hiddenStructure.statusCode).toBe(404);
    expect(await siteSpaceRow(apiSection.siteSpaceId)).toMatchObject({ draft: false, hidden: false });
  });
});

describe('the newest official client', () => {
  it('adds a draft section, hides a site space and drafts a group', async () => {
    const { siteId, apiSection } = await sectionedSite();
    const gitbook = await client(admin);
    const organizationId = team.organization.id;
    const section = await gitbook.orgs.addSectionToSite(organizationId, siteId, {
      spaceId: await spaceWith('Changelog', 'ocelot'),
      draft: true,
    });
    expect(section.data.draft).toBe(true);
    const siteSpace = await gitbook.orgs.updateSiteSpaceById(organizationId, siteId, apiSection.siteSpaceId, {
      hidden: true,
    });
    expect(siteSpace.data.hidden).toBe(true);
    const group = await gitbook.orgs.addSectionGroupToSite(organizationId, siteId, { title: 'Later', draft: true });
    expect(group.data.draft).toBe(true);
    const live = await gitbook.orgs.updateSiteSectionGroupById(organizationId, siteId, group.data.id, {
      draft: false,
    });
    expect(live.data.draft).toBe(false);
  });
});
