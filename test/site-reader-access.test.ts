import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** Who may call a reader route. */
type Audience =
  /** The site's audience only: nothing of an unpublished site, nor of one whose visibility shuts the caller out. */
  | 'site-audience'
  /** Anyone: it shows nothing of any site (the shared stylesheet). */
  | 'anyone';

interface Fixture {
  site: string;
  space: string;
  page: string;
  pagePath: string;
}

/**
 * Every route of the published reader, with who may call it and an address
 * to call it at. A route missing here fails the test: a new reader route must
 * say who may read it.
 */
interface ReaderRoute {
  audience: Audience;
  path: (fixture: Fixture) => string;
  /** A form the route takes by POST, as the page's own form posts it; GET when absent. */
  form?: (fixture: Fixture) => Record<string, string>;
}

const READER_ROUTES: Record<string, ReaderRoute> = {
  '/s/:site': { audience: 'site-audience', path: (f) => `/s/${f.site}` },
  '/s/:site/*': { audience: 'site-audience', path: (f) => `/s/${f.site}/${f.pagePath}` },
  '/s/:site/~/search': { audience: 'site-audience', path: (f) => `/s/${f.site}/~/search?q=secret` },
  '/s/:site/~/go/:spaceId/:pageId': {
    audience: 'site-audience',
    path: (f) => `/s/${f.site}/~/go/${f.space}/${f.page}`,
  },
  '/s/:site/~/theme': { audience: 'site-audience', path: (f) => `/s/${f.site}/~/theme?set=dark` },
  '/s/:site/~/reader.css': { audience: 'anyone', path: (f) => `/s/${f.site}/~/reader.css` },
  '/s/:site/~/site.css': { audience: 'site-audience', path: (f) => `/s/${f.site}/~/site.css` },
  '/s/:site/~/fonts.css': { audience: 'site-audience', path: (f) => `/s/${f.site}/~/fonts.css` },
  '/s/:site/~/feedback': {
    audience: 'site-audience',
    path: (f) => `/s/${f.site}/~/feedback`,
    form: (f) => ({ space: f.space, page: f.page, rating: 'good' }),
  },
  '/s/:site/llms.txt': { audience: 'site-audience', path: (f) => `/s/${f.site}/llms.txt` },
  '/s/:site/llms-full.txt': { audience: 'site-audience', path: (f) => `/s/${f.site}/llms-full.txt` },
  '/s/:site/sitemap.xml': { audience: 'site-audience', path: (f) => `/s/${f.site}/sitemap.xml` },
  '/s/:site/robots.txt': { audience: 'site-audience', path: (f) => `/s/${f.site}/robots.txt` },
};

let admin: Account;
let organizationId: string;

async function put(url: string, payload: object) {
  const res = await t.app.inject({ method: 'PUT', url: `/v1${url}`, headers: admin.headers, payload });
  expect(res.statusCode, res.body).toBe(200);
}

/** The route called as a visitor's browser calls it: a form posted from the site's own page, or a GET. */
const visit = (route: ReaderRoute, f: Fixture) =>
  route.form
    ? t.app.inject({
        method: 'POST',
        url: route.path(f),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        payload: new URLSearchParams(route.form(f)).toString(),
      })
    : t.app.inject({ method: 'GET', url: route.path(f) });

async function call(method: 'POST' | 'PATCH', url: string, payload?: object) {
  const res = await t.app.inject({ method, url: `/v1${url}`, headers: admin.headers, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as Record<string, unknown>;
}

/** A site of the given visibility publishing one space with a secret page, published or not. */
async function fixture(visibility: string, published: boolean): Promise<Fixture> {
  const space = await api.createSpace(admin, organizationId, { title: 'Inside' });
  await api.change(admin, space.id, [
    { operation: 'insert_page', title: 'Secret plans', document: { markdown: 'The secret is out.' } },
  ]);
  const page = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages[0] as {
    id: string;
    path: string;
  };
  const site = await call('POST', `/orgs/${organizationId}/sites`, { title: 'Docs', visibility });
  await call('POST', `/orgs/${organizationId}/sites/${site.id as string}/site-spaces`, { spaceId: space.id });
  // The site takes feedback, so that its form's route answers its audience.
  const customization = await t.app.inject({
    method: 'GET',
    url: `/v1/orgs/${organizationId}/sites/${site.id as string}/customization`,
    headers: admin.headers,
  });
  await put(`/orgs/${organizationId}/sites/${site.id as string}/customization`, {
    ...customization.json(),
    feedback: { enabled: true },
  });
  if (published) await call('POST', `/orgs/${organizationId}/sites/${site.id as string}/publish`);
  return { site: site.id as string, space: space.id, page: page.id, pagePath: `inside/${page.path}` };
}

beforeAll(async () => {
  const team = await t.factory.team();
  admin = team.admin;
  organizationId = team.organization.id;
});

describe('who may read the published reader', () => {
  it('names every reader route', () => {
    const routes = t.app.routeTable.filter((route) => route.url.startsWith('/s/')).map((route) => route.url);
    expect(new Set(routes)).toEqual(new Set(Object.keys(READER_ROUTES)));
  });

  const shutOut: Array<[string, string, boolean, number[]]> = [
    ['an unpublished public site', 'public', false, [404]],
    ['a share-link site, without a key', 'share-link', true, [404]],
    ['a visitor-auth site, without a token', 'visitor-auth', true, [401]],
  ];
  for (const [what, visibility, published, statuses] of shutOut) {
    it(`shows nothing of ${what}`, async () => {
      const f = await fixture(visibility, published);
      for (const [url, route] of Object.entries(READER_ROUTES)) {
        const res = await visit(route, f);
        if (route.audience === 'anyone') {
          expect(res.statusCode, url).toBe(200);
          continue;
        }
        expect(statuses, `${url}: ${res.statusCode}`).toContain(res.statusCode);
        expect(res.body, url).not.toContain('Secret plans');
        expect(res.body, url).not.toContain('secret is out');
        expect(res.headers['set-cookie'], url).toBeUndefined();
      }
    });
  }

  it('opens every route of a published public site to anyone, and the same of an unlisted one', async () => {
    for (const visibility of ['public', 'unlisted']) {
      const f = await fixture(visibility, true);
      for (const [url, route] of Object.entries(READER_ROUTES)) {
        const res = await visit(route, f);
        expect([200, 302, 303], `${visibility} ${url}: ${res.statusCode}`).toContain(res.statusCode);
      }
    }
  });
});
