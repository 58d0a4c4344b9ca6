import { SiteRedirectOrderBy } from '@gitbook/api-next';
import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);
const PUBLIC_URL = testConfig('').publicUrl;

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

const sitePath = (siteId: string, organizationId = team.organization.id) =>
  `/v1/orgs/${organizationId}/sites/${siteId}`;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (account: Account | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account?.headers ?? {}, ...(payload ? { payload } : {}) });

const redirectRows = (siteId: string) =>
  t.db
    .selectFrom('site_redirects')
    .select([
      'id',
      'source',
      'draft',
      'permanent',
      'capture_wildcard',
      'destination_kind',
      'site_space_id',
      'page_id',
      'url',
    ])
    .where('site_id', '=', siteId)
    .orderBy('source')
    .orderBy('draft')
    .execute();

/** A published site with one space of two pages: `intro` and `guide`. */
async function publishedSite(owner: Team = team) {
  const organizationId = owner.organization.id;
  const created = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Acme Docs' });
  expect(created.statusCode, created.body).toBe(201);
  const site = created.json() as { id: string };
  const space = await api.createSpace(owner.admin, organizationId, { title: 'Handbook' });
  await api.change(owner.admin, space.id, [
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Welcome.' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
  ]);
  const added = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites/${site.id}/site-spaces`, {
    spaceId: space.id,
  });
  expect(added.statusCode, added.body).toBe(201);
  const published = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites/${site.id}/publish`);
  expect(published.statusCode, published.body).toBe(200);
  return { siteId: site.id, spaceId: space.id, siteSpaceId: (added.json() as { id: string }).id };
}

const external = (url: string) => ({ kind: 'external', url });

describe('site redirects through the API', () => {
  it('are created, listed, found by source, changed and deleted by admins, as the spec answers', async () => {
    const { siteId } = await publishedSite();
    const created = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, {
      source: '/old-guide',
      destination: external('https://example.com/guide'),
    });
    expect(created.statusCode, created.body).toBe(201);
    expectNewestSpecResponse('createSiteRedirect', 201, created.json());
    const redirect = created.json();
    expect(redirect).toEqual({
      object: 'site-redirect',
      id: expect.any(String),
      source: '/old-guide',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'external', url: 'https://example.com/guide' },
      createdAt: expect.any(String),
    });
    expect(created.headers.location).toBe(`${PUBLIC_URL}${sitePath(siteId)}/redirects/${redirect.id}`);

    // Members read them; editors do not write them.
    const listed = await call(team.member('read'), 'GET', `${sitePath(siteId)}/redirects`);
    expect(listed.statusCode).toBe(200);
    expectNewestSpecResponse('listSiteRedirects', 200, listed.json());
    expect(listed.json()).toEqual({ count: 1, items: [redirect] });

    const found = await call(team.member('read'), 'GET', `${sitePath(siteId)}/redirect?source=/old-guide`);
    expect(found.statusCode).toBe(200);
    expectNewestSpecResponse('getSiteRedirectBySource', 200, found.json());
    expect(found.json()).toEqual({ redirect, target: 'https://example.com/guide' });

    const changed = await call(admin, 'PATCH', `${sitePath(siteId)}/redirects/${redirect.id}`, { permanent: true });
    expect(changed.statusCode).toBe(200);
    expectNewestSpecResponse('updateSiteRedirectById', 200, changed.json());
    expect(changed.json()).toEqual({ ...redirect, permanent: true, updatedAt: expect.any(String) });

    const deleted = await call(admin, 'DELETE', `${sitePath(siteId)}/redirects/${redirect.id}`);
    expect(deleted.statusCode).toBe(205);
    expect((await call(admin, 'DELETE', `${sitePath(siteId)}/redirects/${redirect.id}`)).statusCode).toBe(204);
    expect(await redirectRows(siteId)).toEqual([]);
    expect((await call(admin, 'GET', `${sitePath(siteId)}/redirect?source=/old-guide`)).statusCode).toBe(404);
  });

  it('lead to a page named by its path, a site space or a page, each checked against the site', async () => {
    const { siteId, spaceId, siteSpaceId } = await publishedSite();
    const byPath = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, {
      source: '/start',
      destination: { kind: 'path', spaceId, path: 'guide' },
    });
    expect(byPath.statusCode, byPath.body).toBe(201);
    const pageId = (byPath.json() as { destination: { pageId: string } }).destination.pageId;
    expect(byPath.json().destination).toEqual({ kind: 'site-page', siteSpaceId, pageId: expect.any(String) });
    const found = await call(admin, 'GET', `${sitePath(siteId)}/redirect?source=/start`);
    expect(found.json().target).toBe(`${PUBLIC_URL}/s/${siteId}/~/go/${spaceId}/${pageId}`);

    const toSpace = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, {
      source: '/handbook/*',
      captureWildcard: true,
      destination: { kind: 'site-space', siteSpaceId },
    });
    expect(toSpace.statusCode, toSpace.body).toBe(201);

    for (const destination of [
      { kind: 'site-space', siteSpaceId: 'nope' },
      { kind: 'site-section', siteSectionId: 'nope' },
      { kind: 'site-page', siteSpaceId, pageId: 'nope' },
      { kind: 'path', spaceId, path: 'no/such/page' },
      { kind: 'path', spaceId: 'nope', path: 'guide' },
    ]) {
      const refused = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, { source: '/x', destination });
      expect(refused.statusCode, JSON.stringify(destination)).toBe(400);
    }
    expect((await redirectRows(siteId)).map((row) => row.source)).toEqual(['/handbook/*', '/start']);
  });

  it('refuses a bad source or destination with 400 and stores nothing', async () => {
    const { siteId } = await publishedSite();
    const bodies = [
      { source: 'no-slash', destination: external('https://example.com') },
      { source: '/a*b', destination: external('https://example.com') },
      { source: '/*', destination: external('https://example.com') },
      { source: '/a b', destination: external('https://example.com') },
      { source: `/${'a'.repeat(512)}`, destination: external('https://example.com') },
      { source: '/a', destination: external('javascript:alert(1)') },
      { source: '/a', destination: external('//evil.example/') },
      { source: '/a', destination: { kind: 'elsewhere' } },
      { source: '/a', destination: external('https://example.com'), extra: true },
      { source: '/a' },
    ];
    for (const body of bodies) {
      const refused = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json()).toEqual({ error: { code: 400, message: expect.any(String) } });
    }
    const badList = await call(admin, 'GET', `${sitePath(siteId)}/redirects?orderBy=title`);
    expect(badList.statusCode).toBe(400);
    expect((await call(admin, 'GET', `${sitePath(siteId)}/redirect?source=nope`)).statusCode).toBe(400);
    expect(await redirectRows(siteId)).toEqual([]);
  });

  it('keep one live and one draft redirect per source: a second is a 409, also when two race', async () => {
    const { siteId } = await publishedSite();
    const body = { source: '/dup', destination: external('https://example.com/') };
    const racing = await Promise.all([
      call(admin, 'POST', `${sitePath(siteId)}/redirects`, body),
      call(admin, 'POST', `${sitePath(siteId)}/redirects`, body),
    ]);
    expect(racing.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const draft = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, { ...body, draft: true });
    expect(draft.statusCode).toBe(201);
    const other = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, { ...body, source: '/other' });
    // Moving a redirect onto a taken source is refused and changes nothing.
    const moved = await call(admin, 'PATCH', `${sitePath(siteId)}/redirects/${other.json().id}`, { source: '/dup' });
    expect(moved.statusCode).toBe(409);
    expect((await redirectRows(siteId)).map((row) => [row.source, row.draft])).toEqual([
      ['/dup', false],
      ['/dup', true],
      ['/other', false],
    ]);
  });

  it('are written only by admins and seen only by the organization’s members', async () => {
    const { siteId } = await publishedSite();
    const body = { source: '/a', destination: external('https://example.com/') };
    const created = await call(admin, 'POST', `${sitePath(siteId)}/redirects`, body);
    const id = created.json().id as string;
    const editor = team.member('edit');
    expect((await call(undefined, 'GET', `${sitePath(siteId)}/redirects`)).statusCode).toBe(401);
    expect((await call(undefined, 'POST', `${sitePath(siteId)}/redirects`, body)).statusCode).toBe(401);
    expect((await call(editor, 'POST', `${sitePath(siteId)}/redirects`, { ...body, source: '/b' })).statusCode).toBe(
      403,
    );
    expect((await call(editor, 'PATCH', `${sitePath(siteId)}/redirects/${id}`, { permanent: true })).statusCode).toBe(
      403,
    );
    expect((await call(editor, 'DELETE', `${sitePath(siteId)}/redirects/${id}`)).statusCode).toBe(403);
    expect((await call(editor, 'PUT', `${sitePath(siteId)}/redirects`, { redirects: [body] })).statusCode).toBe(403);
    expect((await call(editor, 'GET', `${sitePath(siteId)}/redirects`)).statusCode).toBe(200);

    // Another organization's admin: the site is not there, by either organization's id.
    const stranger = outsider.admin;
    for (const path of [sitePath(siteId), sitePath(siteId, outsider.organization.id)]) {
      expect((await call(stranger, 'GET', `${path}/redirects`)).statusCode).toBe(404);
      expect((await call(stranger, 'GET', `${path}/redirect?source=/a`)).statusCode).toBe(404);
      expect((await call(stranger, 'POST', `${path}/redirects`, { ...body, source: '/c' })).statusCode).toBe(404);
      expect((await call(stranger, 'PATCH', `${path}/redirects/${id}`, { permanent: true })).statusCode).toBe(404);
      expect((await call(stranger, 'DELETE', `${path}/redirects/${id}`)).statusCode).toBe(404);
    }
    // A redirect of one site is not another's, even in the same organization.
    const { siteId: otherSiteId } = await publishedSite();
    expect(
      (await call(admin, 'PATCH', `${sitePath(otherSiteId)}/redirects/${id}`, { permanent: true })).statusCode,
    ).toBe(404);
    expect((await call(admin, 'DELETE', `${sitePath(otherSiteId)}/redirects/${id}`)).statusCode).toBe(204);
    expect(await redirectRows(siteId)).toEqual([
      expect.objectContaining({ source: '/a', permanent: false, url: 'https://example.com/' }),
    ]);
  });

  it('are paged, searched and ordered by source or change', async () => {
    const { siteId } = await publishedSite();
    for (const source of ['/c', '/a', '/b', '/docs/b'])
      await call(admin, 'POST', `${sitePath(siteId)}/redirects`, { source, destination: external('https://e.x/') });
    const first = await call(admin, 'GET', `${sitePath(siteId)}/redirects?orderBy=source&limit=3`);
    expect(first.json().items.map((item: { source: string }) => item.source)).toEqual(['/a', '/b', '/c']);
    expect(first.json().count).toBe(4);
    const second = await call(
      admin,
      'GET',
      `${sitePath(siteId)}/redirects?orderBy=source&limit=3&page=${first.json().next.page}`,
    );
    expect(second.json()).toEqual({ count: 4, items: [expect.objectContaining({ source: '/docs/b' })] });
    const wrongList = await call(admin, 'GET', `${sitePath(siteId)}/redirects?limit=3&page=${first.json().next.page}`);
    expect(wrongList.statusCode).toBe(400);
    const newest = await call(admin, 'GET', `${sitePath(siteId)}/redirects?limit=1`);
    expect(newest.json().items[0].source).toBe('/docs/b');
    const searched = await call(admin, 'GET', `${sitePath(siteId)}/redirects?search=DOCS`);
    expect(searched.json().items.map((item: { source: string }) => item.source)).toEqual(['/docs/b']);
    const drafts = await call(admin, 'GET', `${sitePath(siteId)}/redirects?draft=true`);
    expect(drafts.json()).toEqual({ count: 0, items: [] });
  });
});

describe('bulk upserts', () => {
  it('create, update, delete and publish in order, each item answered on its own', async () => {
    const { siteId } = await publishedSite();
    await call(admin, 'POST', `${sitePath(siteId)}/redirects`, {
      source: '/gone',
      destination: external('https://e.x/'),
    });
    const answer = await call(admin, 'PUT', `${sitePath(siteId)}/redirects`, {
      redirects: [
        { source: '/new', destination: external('https://e.x/new') },
        { source: '/new', destination: external('https://e.x/newer'), permanent: true },
        { source: '/gone', destination: null },
        { source: '/missing', destination: null },
        { source: '/soon', intent: 'draft', destination: external('https://e.x/soon') },
        { source: '/soon', intent: 'publish' },
        { source: '/never', intent: 'publish' },
        { source: '/bad', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
      ],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expectNewestSpecResponse('bulkUpsertSiteRedirects', 200, answer.json());
    const rows = await redirectRows(siteId);
    const idOf = (source: string) => rows.find((row) => row.source === source)!.id;
    expect(answer.json().results).toEqual([
      { status: 'created', source: '/new', draft: false, id: idOf('/new') },
      { status: 'updated', source: '/new', draft: false, id: idOf('/new') },
      { status: 'deleted', source: '/gone', draft: false },
      { status: 'error', source: '/missing', draft: false, error: expect.any(String) },
      { status: 'created', source: '/soon', draft: true, id: expect.any(String) },
      { status: 'published', source: '/soon', draft: false, id: idOf('/soon') },
      { status: 'error', source: '/never', draft: false, error: expect.any(String) },
      { status: 'error', source: '/bad', draft: false, error: expect.any(String) },
    ]);
    expect(rows.map((row) => [row.source, row.draft, row.permanent, row.url])).toEqual([
      ['/new', false, true, 'https://e.x/newer'],
      ['/soon', false, false, 'https://e.x/soon'],
    ]);
  });

  it('refuses more than 500 items, or an empty list, with 400 and no change', async () => {
    const { siteId } = await publishedSite();
    const item = (index: number) => ({ source: `/p${index}`, destination: external('https://e.x/') });
    const tooMany = Array.from({ length: 501 }, (_, index) => item(index));
    expect((await call(admin, 'PUT', `${sitePath(siteId)}/redirects`, { redirects: tooMany })).statusCode).toBe(400);
    expect((await call(admin, 'PUT', `${sitePath(siteId)}/redirects`, { redirects: [] })).statusCode).toBe(400);
    expect(await redirectRows(siteId)).toEqual([]);
  });
});

describe('the published reader', () => {
  it('redirects a path no page answers: 307, or 308 when permanent, with the wildcard’s rest', async () => {
    const { siteId, siteSpaceId } = await publishedSite();
    const add = (body: object) => call(admin, 'POST', `${sitePath(siteId)}/redirects`, body);
    await add({ source: '/old', destination: external('https://example.com/new') });
    await add({ source: '/moved', permanent: true, destination: { kind: 'site-space', siteSpaceId } });
    await add({ source: '/blog/*', captureWildcard: true, destination: external('https://blog.example/posts') });
    await add({ source: '/drafted', draft: true, destination: external('https://example.com/draft') });
    // A page answers its own address: a redirect from it never shadows it.
    await add({ source: '/intro', destination: external('https://example.com/shadow') });

    const old = await t.app.inject({ method: 'GET', url: `/s/${siteId}/old` });
    expect(old.statusCode).toBe(307);
    expect(old.headers.location).toBe('https://example.com/new');
    const moved = await t.app.inject({ method: 'GET', url: `/s/${siteId}/moved/` });
    expect(moved.statusCode).toBe(308);
    expect(moved.headers.location).toBe(`${PUBLIC_URL}/s/${siteId}/handbook`);
    const blog = await t.app.inject({ method: 'GET', url: `/s/${siteId}/blog/2024/hello?x=1` });
    expect(blog.statusCode).toBe(307);
    expect(blog.headers.location).toBe('https://blog.example/posts/2024/hello');
    expect((await t.app.inject({ method: 'GET', url: `/s/${siteId}/drafted` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/s/${siteId}/intro` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/s/${siteId}/nothing` })).statusCode).toBe(404);
  });
});

describe('the newest official client', () => {
  it('creates, bulk-upserts, lists and finds redirects', async () => {
    const { siteId } = await publishedSite();
    const gitbook = await client(admin);
    const organizationId = team.organization.id;
    const created = await gitbook.orgs.createSiteRedirect(organizationId, siteId, {
      source: '/from',
      destination: { kind: 'external', url: 'https://example.com/to' },
    });
    expect(created.status).toBe(201);
    const bulk = await gitbook.orgs.bulkUpsertSiteRedirects(organizationId, siteId, {
      redirects: [{ source: '/from', destination: { kind: 'external', url: 'https://example.com/again' } }],
    });
    expect(bulk.data.results).toEqual([{ status: 'updated', source: '/from', draft: false, id: created.data.id }]);
    const listed = await gitbook.orgs.listSiteRedirects(organizationId, siteId, {
      orderBy: SiteRedirectOrderBy.Source,
    });
    expect(listed.data.items.map((item) => item.destination)).toEqual([
      { kind: 'external', url: 'https://example.com/again' },
    ]);
    const found = await gitbook.orgs.getSiteRedirectBySource(organizationId, siteId, { source: '/from' });
    expect(found.data.target).toBe('https://example.com/again');
  });
});
