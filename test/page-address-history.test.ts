import { beforeAll, describe, expect, it } from 'vitest';
import { writeSpaceContent } from '../src/change-requests/changes/write.js';
import { OLD_PATHS_PER_PAGE } from '../src/content/path-history/queries.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

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

const call = (account: Account, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
const visit = (url: string) => t.app.inject({ method: 'GET', url });

/**
 * A published site of one space holding `guide` (with `guide/setup` under
 * it) and `intro`; the site space's address is `/s/{site}/{siteSpacePath}`.
 */
async function publishedSpace(owner: Team = team) {
  const organizationId = owner.organization.id;
  const created = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = (created.json() as { id: string }).id;
  const space = await api.createSpace(owner.admin, organizationId, { title: 'Product docs' });
  const { written } = await api.change(owner.admin, space.id, [
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
    { operation: 'insert_page', ref: 'setup', title: 'Setup', into: 'guide', document: { markdown: 'Install.' } },
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Welcome.' } },
  ]);
  const [guide, setup, intro] = (written.changes as Array<{ page: { id: string } }>).map((change) => change.page.id);
  const added = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`, {
    spaceId: space.id,
  });
  expect(added.statusCode, added.body).toBe(201);
  const published = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites/${siteId}/publish`);
  expect(published.statusCode, published.body).toBe(200);
  const siteSpacePath = (added.json() as { path: string }).path;
  return {
    siteId,
    spaceId: space.id,
    pages: { guide: guide!, setup: setup!, intro: intro! },
    /** The reader's address of a page path in the site space. */
    at: (path: string) => `/s/${siteId}/${path}`,
    /** Where the reader sends a visitor of a page now at `path`. */
    now: (path: string) => `${PUBLIC_URL}/s/${siteId}/${siteSpacePath}/${path}`,
  };
}

const history = (spaceId: string) =>
  t.db
    .selectFrom('page_path_history')
    .select(['path', 'page_id'])
    .where('space_id', '=', spaceId)
    .orderBy('path')
    .execute();

describe('a page moved or renamed through a change request', () => {
  it('keeps its old address, and those of the pages under it, as a permanent redirect to where it is now', async () => {
    const site = await publishedSpace();
    await api.change(admin, site.spaceId, [{ operation: 'update_page', page: site.pages.guide, slug: 'handbook' }]);

    const guide = await visit(site.at('guide'));
    expect(guide.statusCode).toBe(308);
    expect(guide.headers.location).toBe(site.now('handbook'));
    const setup = await visit(site.at('guide/setup/'));
    expect(setup.statusCode).toBe(308);
    expect(setup.headers.location).toBe(site.now('handbook/setup'));
    expect((await visit(site.at('handbook/setup'))).statusCode).toBe(200);
    // The page's markdown too, at its old address with `.md`.
    const markdown = await visit(site.at('guide/setup.md'));
    expect(markdown.statusCode).toBe(308);
    expect(markdown.headers.location).toBe(`${site.now('handbook/setup')}.md`);
    expect((await visit(site.at('guide/nothing.md'))).statusCode).toBe(404);
    expect(await history(site.spaceId)).toEqual([
      { path: 'guide', page_id: site.pages.guide },
      { path: 'guide/setup', page_id: site.pages.setup },
    ]);

    // Moved again, under another parent: both of its old addresses lead to the newest one.
    await api.change(admin, site.spaceId, [
      { operation: 'update_page', page: site.pages.setup, into: site.pages.intro },
    ]);
    for (const old of ['guide/setup', 'handbook/setup']) {
      const answer = await visit(site.at(old));
      expect(answer.statusCode, old).toBe(308);
      expect(answer.headers.location).toBe(site.now('intro/setup'));
    }
    // A path that never was a page stays a 404.
    expect((await visit(site.at('guide/nothing'))).statusCode).toBe(404);
  });

  it('never shadows a page now at the old path, and forgets the path once another page takes it', async () => {
    const site = await publishedSpace();
    await api.change(admin, site.spaceId, [{ operation: 'update_page', page: site.pages.guide, slug: 'manual' }]);
    await api.change(admin, site.spaceId, [
      { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: 'A new guide.' } },
    ]);
    const page = await visit(site.at('guide'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('A new guide.');
    // The new page took `guide`; `guide/setup` still leads to the page that left it.
    expect(await history(site.spaceId)).toEqual([{ path: 'guide/setup', page_id: site.pages.setup }]);
    expect((await visit(site.at('guide/setup'))).headers.location).toBe(site.now('manual/setup'));

    // Two pages swapping their slugs leave no history: each old path is the other's now.
    const newGuide = (await api.read(admin, `/v1/spaces/${site.spaceId}/content/path/guide`)).json() as { id: string };
    const before = await history(site.spaceId);
    await api.change(admin, site.spaceId, [
      { operation: 'update_page', page: site.pages.intro, slug: 'swapping' },
      { operation: 'update_page', page: newGuide.id, slug: 'intro' },
      { operation: 'update_page', page: site.pages.intro, slug: 'guide' },
    ]);
    expect(await history(site.spaceId)).toEqual(before);
    expect((await visit(site.at('intro'))).body).toContain('A new guide.');
    expect((await visit(site.at('guide'))).body).toContain('Welcome.');
  });

  it('stops leading anywhere once the page is deleted', async () => {
    const site = await publishedSpace();
    await api.change(admin, site.spaceId, [{ operation: 'update_page', page: site.pages.guide, slug: 'handbook' }]);
    expect((await visit(site.at('guide/setup'))).statusCode).toBe(308);
    await api.change(admin, site.spaceId, [{ operation: 'delete_page', page: site.pages.setup }]);
    expect((await visit(site.at('guide/setup'))).statusCode).toBe(404);
    expect((await visit(site.at('handbook/setup'))).statusCode).toBe(404);
    expect(await history(site.spaceId)).toEqual([{ path: 'guide', page_id: site.pages.guide }]);
  });

  it(`keeps the newest ${OLD_PATHS_PER_PAGE} old paths of a page renamed again and again`, async () => {
    const site = await publishedSpace();
    const renames = OLD_PATHS_PER_PAGE + 3;
    for (let index = 1; index <= renames; index++)
      await api.change(admin, site.spaceId, [
        { operation: 'update_page', page: site.pages.intro, slug: `intro-${index}` },
      ]);
    const kept = (await history(site.spaceId)).filter((row) => row.page_id === site.pages.intro);
    expect(kept).toHaveLength(OLD_PATHS_PER_PAGE);
    expect(kept.map((row) => row.path)).not.toContain('intro');
    expect((await visit(site.at('intro'))).statusCode).toBe(404);
    const newest = await visit(site.at(`intro-${renames - 1}`));
    expect(newest.statusCode).toBe(308);
    expect(newest.headers.location).toBe(site.now(`intro-${renames}`));
  });

  it('answers with a redirect of the site first, where one has the old path', async () => {
    const site = await publishedSpace();
    await api.change(admin, site.spaceId, [{ operation: 'update_page', page: site.pages.guide, slug: 'handbook' }]);
    const created = await call(admin, 'POST', `/v1/orgs/${team.organization.id}/sites/${site.siteId}/redirects`, {
      source: '/guide',
      destination: { kind: 'external', url: 'https://example.com/guide' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const answer = await visit(site.at('guide'));
    expect(answer.statusCode).toBe(307);
    expect(answer.headers.location).toBe('https://example.com/guide');
  });

  it('does not move the addresses of a change request that is not merged', async () => {
    const site = await publishedSpace();
    const changeRequest = await api.openChangeRequest(admin, site.spaceId);
    const written = await api.writeContent(admin, site.spaceId, changeRequest, [
      { operation: 'update_page', page: site.pages.guide, slug: 'handbook' },
    ]);
    expect(written.statusCode).toBe(200);
    expect(await history(site.spaceId)).toEqual([]);
    expect((await visit(site.at('guide'))).statusCode).toBe(200);
  });
});

describe('a page moved by a write straight to the space', () => {
  it('keeps its old address too (an import writes the space’s line itself)', async () => {
    const site = await publishedSpace();
    await writeSpaceContent(
      t.app.context,
      { organizationId: team.organization.id, spaceId: site.spaceId, userId: admin.user.id },
      [{ operation: 'update_page', page: site.pages.guide, slug: 'handbook' }],
    );
    const answer = await visit(site.at('guide/setup'));
    expect(answer.statusCode).toBe(308);
    expect(answer.headers.location).toBe(site.now('handbook/setup'));
  });
});

describe('the old addresses of one space', () => {
  it('lead nowhere in another organization’s site, nor in another space of the same site', async () => {
    const site = await publishedSpace();
    await api.change(admin, site.spaceId, [{ operation: 'update_page', page: site.pages.guide, slug: 'handbook' }]);
    // The attacker publishes a space with the same pages in their own organization: `guide` is theirs to 404.
    const theirs = await publishedSpace(outsider);
    await api.change(outsider.admin, theirs.spaceId, [{ operation: 'delete_page', page: theirs.pages.guide }]);
    expect((await visit(theirs.at('guide'))).statusCode).toBe(404);
    expect((await visit(theirs.at('guide/setup'))).statusCode).toBe(404);
    expect(await history(theirs.spaceId)).toEqual([]);

    // A second space of the first site: its own address of `guide` is not the first space's.
    const other = await api.createSpace(admin, team.organization.id, { title: 'Other' });
    await api.change(admin, other.id, [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Hi.' } }]);
    const added = await call(admin, 'POST', `/v1/orgs/${team.organization.id}/sites/${site.siteId}/site-spaces`, {
      spaceId: other.id,
    });
    expect(added.statusCode, added.body).toBe(201);
    const otherPath = (added.json() as { path: string }).path;
    expect((await visit(site.at(`${otherPath}/guide`))).statusCode).toBe(404);
  });
});

describe('the API and the app reader', () => {
  it('getPageByPath answers only the current path, as the spec describes it; the app reader follows the move', async () => {
    const site = await publishedSpace();
    await api.change(admin, site.spaceId, [{ operation: 'update_page', page: site.pages.guide, slug: 'handbook' }]);
    expect((await api.read(admin, `/v1/spaces/${site.spaceId}/content/path/guide`)).statusCode).toBe(404);
    expect((await api.read(admin, `/v1/spaces/${site.spaceId}/content/path/handbook`)).statusCode).toBe(200);

    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/app/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
      payload: new URLSearchParams({ token: admin.token }).toString(),
    });
    expect(signedIn.statusCode).toBe(303);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const space = (await api.read(admin, `/v1/spaces/${site.spaceId}`)).json() as { urls: { app: string } };
    const appPath = new URL(space.urls.app).pathname;
    const old = await t.app.inject({ method: 'GET', url: `${appPath}/guide/setup`, headers: { cookie } });
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe(`${space.urls.app}/handbook/setup`);

    // Someone with no access to the space meets the same 404 at its old address as at any other.
    const stranger = await t.app.inject({
      method: 'POST',
      url: '/app/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
      payload: new URLSearchParams({ token: outsider.admin.token }).toString(),
    });
    const strangerCookie = String(stranger.headers['set-cookie']).split(';')[0]!;
    const refused = await t.app.inject({
      method: 'GET',
      url: `${appPath}/guide/setup`,
      headers: { cookie: strangerCookie },
    });
    expect(refused.statusCode).toBe(404);
  });
});
