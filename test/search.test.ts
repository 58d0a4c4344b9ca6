import { beforeAll, describe, expect, it } from 'vitest';
import { backfillSearchIndex } from '../src/search/backfill.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

interface PageResult {
  id: string;
  title: string;
  path: string;
  sections: Array<{ id: string; title: string; path: string; body: string; urls: { app: string } }>;
  urls: { app: string };
}

/** Fifty pages about other things: every query below must find its page among them, not these. */
const FILLER_TOPICS = [
  'Billing',
  'Invoices',
  'Webhooks',
  'Rate limits',
  'Audit log',
  'Teams',
  'Roles',
  'Backups',
  'Monitoring',
  'Alerts',
  'Dashboards',
  'Exports',
  'Themes',
  'Fonts',
  'Colors',
  'Navigation',
  'Sidebar',
  'Footer',
  'Analytics',
  'Feedback',
  'Comments',
  'Reviews',
  'Releases',
  'Changelog',
  'Roadmap',
  'Glossary',
  'Support',
  'Contact',
  'Careers',
  'Security',
  'Privacy',
  'Terms',
  'Cookies',
  'Accessibility',
  'Localization',
  'Keyboard shortcuts',
  'Mobile',
  'Desktop',
  'Offline',
  'Caching',
];

const FILLER = FILLER_TOPICS.map((topic) => ({
  title: topic,
  markdown: `${topic} covers the ${topic.toLowerCase()} settings of your workspace.\n\n## Overview\n\nEverything about ${topic.toLowerCase()} for administrators and editors.\n`,
}));

/** The pages the assertions are about. */
const KNOWN = [
  {
    ref: 'install',
    title: 'Installation',
    markdown:
      'Start here.\n\n## Requirements\n\nNode 20 and a database.\n\n## Upgrading\n\nRun the upgrade script after each release.\n',
  },
  {
    ref: 'cli',
    title: 'Command line',
    markdown:
      'The command line tool manages spaces.\n\n## Installing the tool\n\nDownload the binary and put it on your path.\n',
  },
  {
    ref: 'faq',
    title: 'Questions',
    markdown:
      'Common questions.\n\n## Deployment\n\nYou can deploy behind a load balancer; installation on several machines works the same way.\n',
  },
  {
    ref: 'cafe',
    title: 'Coffee corner',
    markdown: 'The office café serves crème brûlée on Fridays.\n',
  },
  {
    ref: 'phrase',
    title: 'Tokens',
    markdown:
      'An API token grants access. The token of an API differs from a session.\n\n## Revoking\n\nRevoke a token at once.\n',
  },
  {
    ref: 'french',
    title: 'Guide de démarrage',
    markdown:
      'Ce guide explique les installations du logiciel sur les serveurs de votre entreprise et la configuration initiale.\n\n## Paramètres avancés\n\nLes paramètres avancés sont décrits dans cette section du document.\n',
  },
  {
    ref: 'japanese',
    title: '日本語のガイド',
    markdown: 'このページでは日本語の検索を説明します。インストール手順も含まれます。\n',
  },
  {
    ref: 'russian',
    title: 'Руководство',
    markdown: 'Эта страница описывает установку программы на сервер и настройку базы данных.\n',
  },
  {
    ref: 'prefix',
    title: 'Configuration',
    markdown:
      'Configure the service with environment variables.\n\n## Configurable limits\n\nLimits are configurable.\n',
  },
  {
    ref: 'group',
    title: 'Reference',
    markdown: '',
  },
];

const pageChanges = (pages: Array<{ ref?: string; title: string; markdown: string }>) =>
  pages.map((page) => ({
    operation: 'insert_page',
    ...(page.ref ? { ref: page.ref } : {}),
    title: page.title,
    document: { markdown: page.markdown },
  }));

async function search(account: Account, spaceId: string, query: string, extra: Record<string, string> = {}) {
  return api.read(account, `/v1/spaces/${spaceId}/search`, { query, ...extra });
}

async function titles(account: Account, spaceId: string, query: string): Promise<string[]> {
  const res = await search(account, spaceId, query);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as PageResult[]).map((page) => page.title);
}

let team: Awaited<ReturnType<typeof t.factory.team>>;
let corpus: { id: string };
let pageIds: Record<string, string>;

beforeAll(async () => {
  team = await t.factory.team(['read', null]);
  corpus = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook' });
  const first = await api.change(team.admin, corpus.id, pageChanges(KNOWN));
  await api.change(team.admin, corpus.id, pageChanges(FILLER));
  pageIds = Object.fromEntries(
    (first.written.changes as Array<{ page: { id: string }; ref?: string }>).flatMap((change) =>
      change.ref ? [[change.ref, change.page.id]] : [],
    ),
  );
});

describe('space search', () => {
  it('ranks a title match over a heading match over a body match, with sections, excerpts and paths', async () => {
    const res = await search(team.member('read'), corpus.id, 'installation');
    expect(res.statusCode).toBe(200);
    expectSpecResponse('searchSpaceContent', 200, res.json());
    const items = res.json().items as PageResult[];
    // The title "Installation", then "Installing the tool" (a heading, stemmed alike), then body mentions.
    expect(items.map((page) => page.title).slice(0, 2)).toEqual(['Installation', 'Command line']);
    expect(
      items
        .map((page) => page.title)
        .slice(2)
        .sort(),
    ).toEqual(['Guide de démarrage', 'Questions']);
    expect(res.json().count).toBe(items.length);
    const cli = items[1]!;
    expect(cli).toMatchObject({ id: pageIds.cli, path: 'command-line' });
    expect(cli.urls.app).toBe(`http://docs.test/app/o/${team.organization.id}/s/${corpus.id}/command-line`);
    expect(cli.sections).toEqual([
      {
        id: 'installing-the-tool',
        title: 'Installing the tool',
        path: 'command-line#installing-the-tool',
        score: expect.any(Number),
        body: 'Download the binary and put it on your path.',
        urls: { app: `http://docs.test/app/o/${team.organization.id}/s/${corpus.id}/command-line#installing-the-tool` },
      },
    ]);
    const faq = items.find((page) => page.title === 'Questions')!;
    expect(faq.sections[0]!.body).toContain('installation on several machines');
  });

  it('finds quoted phrases, prefixes, words without their accents, and text in other languages', async () => {
    const member = team.member('read');
    // Both pages hold "API" and "token"; only one holds the phrase.
    expect(await titles(member, corpus.id, '"api token"')).toEqual(['Tokens']);
    expect(await titles(member, corpus.id, '"token api"')).toEqual([]);
    // The French guide's "configuration initiale" begins so too, in its body only.
    expect(await titles(member, corpus.id, 'configur*')).toEqual(['Configuration', 'Guide de démarrage']);
    expect(await titles(member, corpus.id, 'instal* requirements')).toEqual(['Installation']);
    expect(await titles(member, corpus.id, 'cafe creme')).toEqual(['Coffee corner']);
    expect(await titles(member, corpus.id, 'CAFÉ')).toEqual(['Coffee corner']);
    // French stemming: the plural finds the singular, and accents fold.
    expect(await titles(member, corpus.id, 'installation logiciel')).toEqual(['Guide de démarrage']);
    expect(await titles(member, corpus.id, 'parametres avances')).toEqual(['Guide de démarrage']);
    // Russian stems: "установка" (nominative) finds "установку".
    expect(await titles(member, corpus.id, 'установка')).toEqual(['Руководство']);
    // Japanese has no spaces: any run of its characters is found as a phrase.
    expect(await titles(member, corpus.id, '検索')).toEqual(['日本語のガイド']);
    expect(await titles(member, corpus.id, 'ガイド')).toEqual(['日本語のガイド']);
    expect(await titles(member, corpus.id, '検査')).toEqual([]);
    // Words the index has no lexeme for are no error.
    expect(await titles(member, corpus.id, 'the')).toEqual([]);
    expect(await titles(member, corpus.id, '"" * - !')).toEqual([]);
  });

  it('takes a query of excluded words only', async () => {
    for (const query of ['-installation', '-"api token" -settings', 'or']) {
      const res = await search(team.member('read'), corpus.id, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      expectSpecResponse('searchSpaceContent', 200, res.json());
    }
  });

  it('pages through the results by rank with a cursor of its own', async () => {
    const member = team.member('read');
    const first = await search(member, corpus.id, 'settings', { limit: '15' });
    expect(first.json().count).toBe(FILLER.length);
    expect(first.json().items).toHaveLength(15);
    const seen = (first.json().items as PageResult[]).map((page) => page.id);
    let next = first.json().next?.page as string | undefined;
    while (next) {
      const res = await search(member, corpus.id, 'settings', { limit: '15', page: next });
      expect(res.statusCode).toBe(200);
      seen.push(...(res.json().items as PageResult[]).map((page) => page.id));
      next = res.json().next?.page;
    }
    expect(new Set(seen).size).toBe(FILLER.length);
    expect(seen).toHaveLength(FILLER.length);

    const counted = await search(member, corpus.id, 'settings', { limit: '0' });
    expect(counted.json()).toEqual({ count: FILLER.length, items: [] });
    const foreign = await search(member, corpus.id, 'overview', { page: first.json().next.page });
    expect(foreign.statusCode).toBe(400);
  });

  it('refuses a missing, empty or over-long query, and a bad limit', async () => {
    const member = team.member('read');
    expect((await api.read(member, `/v1/spaces/${corpus.id}/search`)).statusCode).toBe(400);
    expect((await search(member, corpus.id, '')).statusCode).toBe(400);
    expect((await search(member, corpus.id, 'x'.repeat(513))).statusCode).toBe(400);
    expect((await search(member, corpus.id, 'a '.repeat(256).trim())).statusCode).toBe(200);
    expect((await search(member, corpus.id, 'x', { limit: '1001' })).statusCode).toBe(400);
  });

  it('follows merges, never shows a change request before it is merged, and forgets deleted pages', async () => {
    const { admin } = team;
    const space = await api.createSpace(admin, team.organization.id, { title: 'Lifecycle' });
    const { written } = await api.change(
      admin,
      space.id,
      pageChanges([{ ref: 'p', title: 'Zebra', markdown: 'Stripes.' }]),
    );
    const pageId = (written.changes as Array<{ page: { id: string } }>)[0]!.page.id;
    expect(await titles(admin, space.id, 'zebra')).toEqual(['Zebra']);

    const draft = (await api.createChangeRequest(admin, space.id)).json();
    const edit = await api.writeContent(admin, space.id, draft.id, [
      { operation: 'update_page', page: pageId, title: 'Okapi', document: { markdown: 'Giraffe cousin.' } },
    ]);
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await titles(admin, space.id, 'okapi')).toEqual([]);
    expect(await titles(admin, space.id, 'giraffe')).toEqual([]);
    expect(await titles(admin, space.id, 'zebra')).toEqual(['Zebra']);

    expect((await api.merge(admin, space.id, draft.id)).json()).toMatchObject({ result: 'merge' });
    expect(await titles(admin, space.id, 'zebra')).toEqual([]);
    expect(await titles(admin, space.id, 'giraffe')).toEqual(['Okapi']);

    // A page that asks not to be indexed is not.
    await api.change(admin, space.id, [{ operation: 'update_page', page: pageId, noIndex: true }]);
    expect(await titles(admin, space.id, 'okapi')).toEqual([]);
    await api.change(admin, space.id, [{ operation: 'update_page', page: pageId, noIndex: false }]);
    expect(await titles(admin, space.id, 'okapi')).toEqual(['Okapi']);

    await api.change(admin, space.id, [{ operation: 'delete_page', page: pageId }]);
    expect(await titles(admin, space.id, 'okapi')).toEqual([]);
    const rows = await t.db.selectFrom('search_sections').select('page_id').where('space_id', '=', space.id).execute();
    expect(rows).toEqual([]);
  });

  it('leaves a deleted space out at once, takes it back on restore, and follows a transfer', async () => {
    const { admin } = team;
    const space = await api.createSpace(admin, team.organization.id, { title: 'Moving' });
    await api.change(admin, space.id, pageChanges([{ title: 'Narwhal', markdown: 'Arctic whale.' }]));
    const orgSearch = async (account: Account, organizationId: string, query: string) =>
      (await api.read(account, `/v1/orgs/${organizationId}/search`, { query })).json() as {
        items: Array<{ id: string }>;
      };
    expect((await orgSearch(admin, team.organization.id, 'narwhal')).items.map((s) => s.id)).toEqual([space.id]);

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space.id}`, headers: admin.headers })).statusCode,
    ).toBe(205);
    expect((await orgSearch(admin, team.organization.id, 'narwhal')).items).toEqual([]);
    expect((await search(admin, space.id, 'narwhal')).statusCode).toBe(404);
    const restored = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/restore`,
      headers: admin.headers,
    });
    expect(restored.statusCode).toBe(200);
    expect((await orgSearch(admin, team.organization.id, 'narwhal')).items.map((s) => s.id)).toEqual([space.id]);

    const other = await t.factory.organization(admin.user.id);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/transfer`,
      headers: admin.headers,
      payload: { organization: other.id },
    });
    expect(moved.statusCode).toBe(200);
    expect((await orgSearch(admin, team.organization.id, 'narwhal')).items).toEqual([]);
    expect((await orgSearch(admin, other.id, 'narwhal')).items.map((s) => s.id)).toEqual([space.id]);
    expect(await titles(admin, space.id, 'narwhal')).toEqual(['Narwhal']);
  });

  it('is open to whoever may read the published space, and to no one else', async () => {
    const { admin } = team;
    const outsider = await t.factory.account();
    const open = await api.createSpace(admin, team.organization.id, { title: 'Open', visibility: 'public' });
    await api.change(admin, open.id, pageChanges([{ title: 'Pelican', markdown: 'A bird.' }]));
    expect(await titles(outsider, open.id, 'pelican')).toEqual(['Pelican']);
    expect((await search(outsider, corpus.id, 'installation')).statusCode).toBe(404);
    expect((await search(team.member(null), corpus.id, 'installation')).statusCode).toBe(404);
    const unauthenticated = await t.app.inject({ method: 'GET', url: `/v1/spaces/${corpus.id}/search?query=x` });
    expect(unauthenticated.statusCode).toBe(401);
    expect((await search(admin, 'nope', 'x')).statusCode).toBe(404);
  });
});

describe('the index of content written before it existed', () => {
  it('is filled at start, from documents whose outline is made then', async () => {
    const { admin } = team;
    const space = await api.createSpace(admin, team.organization.id, { title: 'Older' });
    await api.change(admin, space.id, pageChanges([{ title: 'Albatross', markdown: '## Wings\n\nThe widest span.' }]));
    // As the migration leaves a space that had pages: no rows, no outlines, marked for the fill.
    await t.db.deleteFrom('search_sections').where('space_id', '=', space.id).execute();
    await t.db
      .updateTable('documents')
      .set({ outline: null, links: null, language: null })
      .where('space_id', '=', space.id)
      .execute();
    await t.db.updateTable('spaces').set({ search_indexed: false }).where('id', '=', space.id).execute();
    expect(await titles(admin, space.id, 'span')).toEqual([]);

    // A server that is stopping fills nothing more: the space waits for the next start.
    expect(await backfillSearchIndex(t.app.context, t.app.log, AbortSignal.abort())).toBe(0);
    const waiting = await t.db
      .selectFrom('spaces')
      .select('search_indexed')
      .where('id', '=', space.id)
      .executeTakeFirstOrThrow();
    expect(waiting.search_indexed).toBe(false);

    // A fresh app: nothing of the documents is cached.
    const filled = await backfillSearchIndex(t.app.context);
    expect(filled).toBeGreaterThanOrEqual(1);
    const found = await search(admin, space.id, 'widest span');
    expect((found.json().items as PageResult[]).map((page) => [page.title, page.sections.map((s) => s.id)])).toEqual([
      ['Albatross', ['wings']],
    ]);
    const row = await t.db
      .selectFrom('spaces')
      .select('search_indexed')
      .where('id', '=', space.id)
      .executeTakeFirstOrThrow();
    expect(row.search_indexed).toBe(true);
    const documents = await t.db
      .selectFrom('documents')
      .select(['outline', 'language'])
      .where('space_id', '=', space.id)
      .execute();
    expect(documents.every((document) => document.outline !== null && document.language !== null)).toBe(true);
    expect(await backfillSearchIndex(t.app.context)).toBe(0);
  });
});

describe('organization search', () => {
  it('groups pages by space, and never shows a space the caller cannot read', async () => {
    const { admin } = team;
    const org = await t.factory.team(['read', null]);
    const open = await api.createSpace(org.admin, org.organization.id, { title: 'Public notes', visibility: 'public' });
    const closed = await api.createSpace(org.admin, org.organization.id, { title: 'Private notes' });
    const unlisted = await api.createSpace(org.admin, org.organization.id, {
      title: 'Unlisted',
      visibility: 'unlisted',
    });
    await api.change(org.admin, open.id, pageChanges([{ title: 'Walrus', markdown: 'Tusks and whiskers.' }]));
    await api.change(
      org.admin,
      closed.id,
      pageChanges([
        { title: 'Walrus facts', markdown: 'The walrus is large.' },
        { title: 'Seals', markdown: 'Cousins of the walrus.' },
      ]),
    );
    await api.change(org.admin, unlisted.id, pageChanges([{ title: 'Walrus secrets', markdown: 'Hidden.' }]));

    const asReader = await api.read(org.member('read'), `/v1/orgs/${org.organization.id}/search`, { query: 'walrus' });
    expect(asReader.statusCode).toBe(200);
    expectSpecResponse('searchOrganizationContent', 200, asReader.json());
    const spaces = asReader.json().items as Array<{ id: string; title: string; pages: PageResult[] }>;
    expect(asReader.json().count).toBe(3);
    // Ranked by their best page: title matches all, so by the rank of the best one.
    expect(spaces.map((space) => space.id).sort()).toEqual([open.id, closed.id, unlisted.id].sort());
    const privateNotes = spaces.find((space) => space.id === closed.id)!;
    expect(privateNotes.title).toBe('Private notes');
    expect(privateNotes.pages.map((page) => page.title)).toEqual(['Walrus facts', 'Seals']);

    // A guest finds exactly the spaces given to them, not even the public ones.
    const asGuest = () => api.read(org.member(null), `/v1/orgs/${org.organization.id}/search`, { query: 'walrus' });
    expect((await asGuest()).statusCode).toBe(200);
    expect((await asGuest()).json()).toEqual({ count: 0, items: [] });
    const granted = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${closed.id}/permissions`,
      headers: org.admin.headers,
      payload: { role: 'read', users: [org.member(null).user.id] },
    });
    expect(granted.statusCode).toBe(204);
    expect(((await asGuest()).json().items as Array<{ id: string }>).map((space) => space.id)).toEqual([closed.id]);
    expect((await asGuest()).json().count).toBe(1);

    // Another organization's member, and its admin, learn nothing.
    const outsider = await api.read(admin, `/v1/orgs/${org.organization.id}/search`, { query: 'walrus' });
    expect(outsider.statusCode).toBe(404);
    const ownOrg = await api.read(admin, `/v1/orgs/${team.organization.id}/search`, { query: 'walrus' });
    expect(ownOrg.json()).toEqual({ count: 0, items: [] });

    const paged = await api.read(org.member('read'), `/v1/orgs/${org.organization.id}/search`, {
      query: 'walrus',
      limit: '2',
    });
    expect(paged.json().items).toHaveLength(2);
    const rest = await api.read(org.member('read'), `/v1/orgs/${org.organization.id}/search`, {
      query: 'walrus',
      limit: '2',
      page: paged.json().next.page,
    });
    expect(rest.json().items).toHaveLength(1);
    expect(rest.json().next).toBeUndefined();
    const ids = [...paged.json().items, ...rest.json().items].map((space: { id: string }) => space.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('answers the official client', async () => {
    const endpoint = await listen(t.app);
    const client = officialClient(endpoint, team.member('read').token);
    const spaceResults = await client.spaces.searchSpaceContent(corpus.id, { query: 'upgrade' });
    expect(spaceResults.status).toBe(200);
    expect(spaceResults.data.items.map((page) => page.title)).toEqual(['Installation']);
    expect(spaceResults.data.items[0]!.sections?.[0]).toMatchObject({ id: 'upgrading', title: 'Upgrading' });
    const orgResults = await client.orgs.searchOrganizationContent(team.organization.id, { query: 'upgrade' });
    expect(orgResults.data.items).toEqual([
      expect.objectContaining({
        id: corpus.id,
        title: 'Handbook',
        pages: [expect.objectContaining({ title: 'Installation' })],
      }),
    ]);
  });
});

describe('site search', () => {
  it('searches the published site spaces for the site’s audience, in each scope', async () => {
    const org = await t.factory.team(['read']);
    const { admin } = org;
    const call = (account: Account, method: 'GET' | 'POST', url: string, payload?: unknown, query?: string) =>
      t.app.inject({
        method,
        url: `/v1/orgs/${org.organization.id}${url}${query ?? ''}`,
        headers: account.headers,
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
    const spaceWith = async (title: string, page: string) => {
      const space = await api.createSpace(admin, org.organization.id, { title });
      await api.change(admin, space.id, pageChanges([{ title: page, markdown: `All about the heron ${page}.` }]));
      return space.id;
    };
    const guide = await spaceWith('Guide', 'Heron guide');
    const api1 = await spaceWith('API v1', 'Heron API');
    const api2 = await spaceWith('API v2', 'Heron API two');
    const hidden = await spaceWith('Not on the site', 'Heron elsewhere');

    const site = (await call(admin, 'POST', '/sites', { title: 'Docs', spaces: [guide] })).json<{ id: string }>();
    const base = `/sites/${site.id}`;
    const reference = (await call(admin, 'POST', `${base}/sections`, { spaceId: api1, title: 'Reference' })).json<{
      id: string;
    }>();
    const added = await call(admin, 'POST', `${base}/site-spaces`, { spaceId: api2, sectionId: reference.id });
    expect(added.statusCode).toBe(201);
    const api2SiteSpace = added.json<{ id: string }>().id;

    const spacesFound = async (account: Account, body: Record<string, unknown>) => {
      const res = await call(account, 'POST', `${base}/search`, { query: 'heron', ...body });
      expect(res.statusCode, res.body).toBe(200);
      expectSpecResponse('searchSiteContent', 200, res.json());
      return (res.json().items as Array<{ id: string }>).map((space) => space.id).sort();
    };
    // Members search it before it is published; the space not on the site is never searched.
    expect(await spacesFound(admin, { scope: { mode: 'all' } })).toEqual([guide, api1, api2].sort());
    expect(await spacesFound(admin, { mode: 'all' })).toEqual([guide, api1, api2].sort());
    // Default: each section's default site space (the guide's section and the reference's first).
    expect(await spacesFound(admin, { scope: { mode: 'default' } })).toEqual([guide, api1].sort());
    expect(await spacesFound(admin, { scope: { mode: 'default', currentSiteSpace: api2SiteSpace } })).toEqual(
      [guide, api1, api2].sort(),
    );
    expect(await spacesFound(admin, { scope: { mode: 'specific', siteSpaceIds: [api2SiteSpace] } })).toEqual([api2]);
    expect(await spacesFound(admin, { siteSpaceIds: [api2SiteSpace] })).toEqual([api2]);
    expect(await spacesFound(admin, { mode: 'current', siteSpaceId: api2SiteSpace })).toEqual(
      [guide, api1, api2].sort(),
    );
    expect(hidden).toBeDefined();

    const outsider = await t.factory.account();
    const unpublished = await call(outsider, 'POST', `${base}/search`, { query: 'heron', scope: { mode: 'all' } });
    expect(unpublished.statusCode).toBe(404);
    expect((await call(admin, 'POST', `${base}/publish`)).statusCode).toBe(200);
    expect(await spacesFound(outsider, { scope: { mode: 'all' } })).toEqual([guide, api1, api2].sort());

    const bad = [
      { query: 'heron' },
      { query: 'heron', scope: { mode: 'sometimes' } },
      { query: 'heron', scope: { mode: 'specific', siteSpaceIds: [] } },
      { query: 'heron', scope: { mode: 'specific', siteSpaceIds: ['nope'] } },
      { query: 'x'.repeat(513), scope: { mode: 'all' } },
    ];
    for (const body of bad) expect((await call(admin, 'POST', `${base}/search`, body)).statusCode).toBe(400);
    expect((await call(admin, 'POST', '/sites/nope/search', { query: 'heron', mode: 'all' })).statusCode).toBe(404);
  });
});
