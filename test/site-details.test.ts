import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

let now = new Date('2026-03-02T10:00:00.000Z').getTime();
const t = useTestApp({ clock: { now: () => new Date(now) } });
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

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (account: Account | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account?.headers ?? {}, ...(payload ? { payload } : {}) });

/** A site (unpublished unless asked) publishing one space of one page at its root. */
async function siteWithSpace(options: { publish?: boolean; owner?: Team } = {}) {
  const owner = options.owner ?? team;
  const organizationId = owner.organization.id;
  const created = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Acme Docs' });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = (created.json() as { id: string }).id;
  const space = await api.createSpace(owner.admin, organizationId, { title: 'Handbook' });
  await api.change(owner.admin, space.id, [
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Welcome to the handbook.' } },
  ]);
  const added = await call(owner.admin, 'POST', `${sitePath(siteId, organizationId)}/site-spaces`, {
    spaceId: space.id,
  });
  expect(added.statusCode, added.body).toBe(201);
  if (options.publish) {
    const published = await call(owner.admin, 'POST', `${sitePath(siteId, organizationId)}/publish`);
    expect(published.statusCode, published.body).toBe(200);
  }
  return { siteId, spaceId: space.id, siteSpaceId: (added.json() as { id: string }).id };
}

const previewOf = async (siteId: string, query = '', account: Account = admin) => {
  const res = await call(account, 'GET', `${sitePath(siteId)}/publishing/preview${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expectNewestSpecResponse('getSitePublishingPreviewById', 200, res.json());
  return new URL((res.json() as { url: string }).url);
};

/** Opens a preview address in the reader as a browser does: the token goes into a cookie, then the page. */
async function openPreview(url: URL) {
  const first = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  if (first.statusCode !== 303) return { first, page: undefined };
  const cookie = String(first.headers['set-cookie']).split(';')[0]!;
  const page = await t.app.inject({ method: 'GET', url: String(first.headers.location), headers: { cookie } });
  return { first, page, cookie };
}

describe('getSitePublishingPreviewById', () => {
  it('gives members a signed address, valid an hour, at which the reader shows an unpublished site', async () => {
    const { siteId } = await siteWithSpace();
    expect((await t.app.inject({ method: 'GET', url: `/s/${siteId}` })).statusCode).toBe(404);

    const url = await previewOf(siteId, '', team.member('read'));
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/s/${siteId}`);
    expect(url.searchParams.get('preview')).toMatch(/^[\w-]+\.[\w-]+$/);
    const { first, page, cookie } = await openPreview(url);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`/s/${siteId}`);
    expect(String(first.headers['set-cookie'])).toMatch(
      new RegExp(`^quire_preview_${siteId}=[^;]+; Max-Age=3600; Path=/s/${siteId}; HttpOnly; SameSite=Lax`),
    );
    expect(page!.statusCode).toBe(200);
    expect(page!.body).toContain('Welcome to the handbook.');
    // Nobody's published page: not for search engines.
    expect(page!.body).toContain('<meta name="robots" content="noindex">');

    // An hour later the cookie opens nothing, and the address neither.
    now += 3600 * 1000;
    const later = await t.app.inject({ method: 'GET', url: `/s/${siteId}`, headers: { cookie: cookie! } });
    expect(later.statusCode).toBe(404);
    expect((await openPreview(url)).first.statusCode).toBe(404);
  });

  it('refuses a tampered token, and a token made for another site', async () => {
    const { siteId } = await siteWithSpace();
    const other = await siteWithSpace();
    const url = await previewOf(siteId);
    const token = url.searchParams.get('preview')!;
    const [payload, signature] = token.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), s: other.siteId }),
    ).toString('base64url');
    for (const bad of [`${forged}.${signature}`, `${payload}.${signature.slice(0, -2)}AA`, `${payload}`, 'garbage']) {
      const res = await t.app.inject({ method: 'GET', url: `/s/${other.siteId}?preview=${encodeURIComponent(bad)}` });
      expect(res.statusCode, bad).toBe(404);
      expect(res.headers['set-cookie'], bad).toBeUndefined();
    }
    // The right token on the wrong site, in the address or in a cookie of that site's name.
    expect((await t.app.inject({ method: 'GET', url: `/s/${other.siteId}?preview=${token}` })).statusCode).toBe(404);
    const stolen = await t.app.inject({
      method: 'GET',
      url: `/s/${other.siteId}`,
      headers: { cookie: `quire_preview_${other.siteId}=${token}` },
    });
    expect(stolen.statusCode).toBe(404);
  });

  it('shows draft items unless draft=false, opens at a site space or target, and takes claims', async () => {
    const { siteId, siteSpaceId } = await siteWithSpace({ publish: true });
    // A second space gives the site a section structure, where links sit.
    const space = await api.createSpace(admin, team.organization.id, { title: 'Reference' });
    const section = await call(admin, 'POST', `${sitePath(siteId)}/sections`, { spaceId: space.id });
    expect(section.statusCode, section.body).toBe(201);
    const draft = await call(admin, 'POST', `${sitePath(siteId)}/external-links`, {
      title: 'Roadmap draft',
      url: 'https://roadmap.example.com',
      draft: true,
    });
    expect(draft.statusCode, draft.body).toBe(201);

    const withDrafts = await openPreview(await previewOf(siteId));
    expect(withDrafts.page!.body).toContain('Roadmap draft');
    const withoutDrafts = await openPreview(await previewOf(siteId, '?draft=false'));
    expect(withoutDrafts.page!.statusCode).toBe(200);
    expect(withoutDrafts.page!.body).not.toContain('Roadmap draft');
    expect((await t.app.inject({ method: 'GET', url: `/s/${siteId}` })).body).not.toContain('Roadmap draft');

    const atSiteSpace = await previewOf(siteId, `?siteSpace=${siteSpaceId}&claims=(isBeta:!t,plan:'pro')`);
    expect(atSiteSpace.pathname).toMatch(new RegExp(`^/s/${siteId}/[^/]+/handbook$`));
    const atTarget = await previewOf(siteId, `?target=${encodeURIComponent(`${PUBLIC_URL}/s/${siteId}/x?y=1`)}`);
    expect(`${atTarget.origin}${atTarget.pathname}`).toBe(`${PUBLIC_URL}/s/${siteId}/x`);
    expect(atTarget.searchParams.get('y')).toBe('1');
  });

  it('refuses bad input with a 400 naming it, and is a 404 to other organizations', async () => {
    const { siteId } = await siteWithSpace();
    const cases: Array<[string, string]> = [
      ['?siteSpace=nosuch', 'querystring/siteSpace: the site has no site space "nosuch"'],
      ['?target=https://evil.example/s/x', 'querystring/target must be an address of the site'],
      [`?target=${encodeURIComponent(`${PUBLIC_URL}/s/other`)}`, 'querystring/target must be an address of the site'],
      ['?claims=isBeta', 'querystring/claims: must be a Rison object'],
      ['?claims=(a:(b:!t))', 'querystring/claims: claims take only plain values'],
      ["?claims=(a:'open)", 'querystring/claims: a string is not closed'],
      ['?draft=maybe', 'querystring/draft'],
      [`?claims=(${'a:!t,'.repeat(300)}b:!t)`, 'querystring/claims'],
    ];
    for (const [query, message] of cases) {
      const res = await call(admin, 'GET', `${sitePath(siteId)}/publishing/preview${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message, query).toContain(message);
    }
    const foreign = await call(outsider.admin, 'GET', `${sitePath(siteId)}/publishing/preview`);
    expect(foreign.statusCode).toBe(404);
    expect((await call(undefined, 'GET', `${sitePath(siteId)}/publishing/preview`)).statusCode).toBe(401);
  });
});

describe('prewarmSiteSearch', () => {
  it('answers 204 to the site’s audience, again and again, and 404 to others', async () => {
    const published = await siteWithSpace({ publish: true });
    const hidden = await siteWithSpace();
    for (const account of [admin, team.member('read'), admin]) {
      const res = await call(account, 'POST', `${sitePath(published.siteId)}/search/prewarm`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
    }
    // A public site's visitors search it, and may warm it; an unpublished one is nobody's but its members'.
    expect((await call(outsider.admin, 'POST', `${sitePath(published.siteId)}/search/prewarm`)).statusCode).toBe(204);
    expect((await call(admin, 'POST', `${sitePath(hidden.siteId)}/search/prewarm`)).statusCode).toBe(204);
    const refused = await call(outsider.admin, 'POST', `${sitePath(hidden.siteId)}/search/prewarm`);
    expect(refused.statusCode).toBe(404);
    expect((await call(admin, 'POST', `${sitePath('nosuchsite')}/search/prewarm`)).statusCode).toBe(404);
    // Warm or not, the search answers the same.
    const search = await call(admin, 'POST', `${sitePath(published.siteId)}/search`, {
      query: 'handbook',
      scope: { mode: 'all' },
    });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().count).toBe(1);
  });
});

describe('getSubdomain', () => {
  it('names the organization holding a hostname to its members, and is a 404 to anyone else', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id, { title: 'Secret Corp', hostname: 'secret-corp' });
    const res = await call(owner, 'GET', '/v1/subdomains/secret-corp');
    expect(res.statusCode).toBe(200);
    expectNewestSpecResponse('getSubdomain', 200, res.json());
    expect(res.json()).toEqual({
      object: 'subdomain',
      subdomain: 'secret-corp',
      target: { type: 'organization', organization: org.id },
      isActive: true,
    });

    // Someone of another organization learns nothing: a held name is a name nobody holds.
    const notHeld = { error: { code: 404, message: 'No organization of yours holds this subdomain' } };
    const foreign = await call(outsider.admin, 'GET', '/v1/subdomains/secret-corp');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(notHeld);
    expect(foreign.body).not.toContain(org.id);
    const unknown = await call(outsider.admin, 'GET', '/v1/subdomains/nobody-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(notHeld);
    for (const bad of ['ab', 'Secret-Corp', '-secret', `a${'b'.repeat(32)}`]) {
      const refused = await call(owner, 'GET', `/v1/subdomains/${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().error.message, bad).toContain('params/subdomain');
    }
    expect((await call(undefined, 'GET', '/v1/subdomains/secret-corp')).statusCode).toBe(401);
  });
});

describe('duplicateSiteSpace', () => {
  const siteSpacesOf = async (siteId: string) =>
    (await call(admin, 'GET', `${sitePath(siteId)}/site-spaces`)).json().items as Array<{
      id: string;
      section?: string;
      space: { id: string; title: string };
    }>;

  it('copies the space with its content beside the original at the site’s root', async () => {
    const { siteId, siteSpaceId, spaceId } = await siteWithSpace();
    const res = await call(admin, 'POST', `${sitePath(siteId)}/site-spaces/${siteSpaceId}/duplicate`, {});
    expect(res.statusCode, res.body).toBe(201);
    expectNewestSpecResponse('duplicateSiteSpace', 201, res.json());
    const copy = res.json();
    expect(copy).toMatchObject({ object: 'site-space', title: 'Handbook (copy)', default: false, draft: false });
    expect(copy.space.id).not.toBe(spaceId);
    expect(res.headers.location).toBe(`${PUBLIC_URL}${sitePath(siteId)}/site-spaces/${copy.id}`);
    expect((await siteSpacesOf(siteId)).map((row) => row.id)).toEqual([siteSpaceId, copy.id]);
    const pages = await call(admin, 'GET', `/v1/spaces/${copy.space.id}/content/path/intro?format=markdown`);
    expect(pages.statusCode, pages.body).toBe(200);
    expect(pages.json().markdown).toContain('Welcome to the handbook.');
  });

  it('puts the copy of a section’s only site space in a new section after it, and refuses bad calls', async () => {
    const { siteId, siteSpaceId } = await siteWithSpace();
    const space = await api.createSpace(admin, team.organization.id, { title: 'Reference' });
    const section = await call(admin, 'POST', `${sitePath(siteId)}/sections`, { spaceId: space.id });
    const sectionId = section.json().id as string;
    const referenceSiteSpace = (await siteSpacesOf(siteId)).find((row) => row.section === sectionId)!;
    const gitbook = await client(admin);
    const copied = await gitbook.orgs.duplicateSiteSpace(team.organization.id, siteId, referenceSiteSpace.id, {});
    expect(copied.status).toBe(201);
    const sections = (await call(admin, 'GET', `${sitePath(siteId)}/sections`)).json().items as Array<{
      id: string;
      title: string;
      siteSpaces: Array<{ id: string }>;
    }>;
    expect(sections.map((s) => [s.title, s.siteSpaces.map((ss) => ss.id)])).toEqual([
      ['Handbook', [siteSpaceId]],
      ['Reference', [referenceSiteSpace.id]],
      ['Reference (copy)', [copied.data.id]],
    ]);

    const count = async () => (await siteSpacesOf(siteId)).length;
    const before = await count();
    const path = `${sitePath(siteId)}/site-spaces/${siteSpaceId}/duplicate`;
    expect((await call(team.member('edit'), 'POST', path, {})).statusCode).toBe(403);
    expect((await call(outsider.admin, 'POST', path, {})).statusCode).toBe(404);
    expect((await call(admin, 'POST', `${sitePath(siteId)}/site-spaces/nosuch/duplicate`, {})).statusCode).toBe(404);
    const draft = await call(admin, 'POST', path, { draft: 'yes' });
    expect(draft.statusCode).toBe(400);
    expect(draft.json().error.message).toContain('body/draft');
    expect((await call(admin, 'POST', path, { draft: false, extra: 1 })).statusCode).toBe(400);
    expect(await count()).toBe(before);
  });
});

describe('the newest official client', () => {
  it('asks for a preview, warms the search and reads a subdomain', async () => {
    const { siteId } = await siteWithSpace({ publish: true });
    const gitbook = await client(admin);
    const organizationId = team.organization.id;
    const preview = await gitbook.orgs.getSitePublishingPreviewById(organizationId, siteId, { draft: false });
    expect(preview.data.url).toMatch(new RegExp(`^${PUBLIC_URL}/s/${siteId}\\?preview=`));
    expect((await gitbook.orgs.prewarmSiteSearch(organizationId, siteId)).status).toBe(204);
    await call(admin, 'PATCH', `/v1/orgs/${organizationId}`, { hostname: 'client-corp' });
    const subdomain = await gitbook.subdomains.getSubdomain('client-corp');
    expect(subdomain.data.target).toEqual({ type: 'organization', organization: organizationId });
  });
});
