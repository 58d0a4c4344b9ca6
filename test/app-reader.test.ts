import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const t = useTestApp();
const api = contentApi(() => t.app);

const path = (url: string) => new URL(url).pathname;
const sessionOf = (account: Account) => `quire_session=${account.token}`;
const read = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

let admin: Account;
let organizationId: string;
let space: { id: string; urls: { app: string } };

beforeAll(async () => {
  const team = await t.factory.team();
  admin = team.admin;
  organizationId = team.organization.id;
  const created = await api.createSpace(admin, organizationId, { title: 'Runbook' });
  space = (await api.read(admin, `/v1/spaces/${created.id}`)).json();
  await api.change(admin, space.id, [
    {
      operation: 'insert_page',
      ref: 'a',
      title: 'Alerts',
      document: { markdown: 'When the pager rings, **breathe**.' },
    },
    { operation: 'insert_page', ref: 'b', title: 'Backups', document: { markdown: 'Nightly, to two places.' } },
  ]);
});

describe('signing in to the app reader', () => {
  it('asks for a token, keeps a working one in an HttpOnly cookie, refuses a bad one, and signs out', async () => {
    const page = await read('/app');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<form action="http://docs.test/app/sign-in" method="post">');
    expect(page.body).toContain('<input id="quire-token" name="token" type="password"');

    const bad = await t.app.inject({
      method: 'POST',
      url: '/app/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=quire_nope',
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).toContain('That token does not work');
    expect(bad.headers['set-cookie']).toBeUndefined();

    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/app/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
      payload: new URLSearchParams({ token: admin.token, next: path(space.urls.app) }).toString(),
    });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe(path(space.urls.app));
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toMatch(/^quire_session=quire_\w+; Max-Age=2592000; Path=\/app; HttpOnly; SameSite=Lax$/);

    const home = await read('/app', cookie.split(';')[0]);
    expect(home.body).toContain(`<a href="http://docs.test/app/o/${organizationId}">`);

    // A post from another site's page is refused: no one can sign a visitor in or out from elsewhere.
    const forged = await t.app.inject({
      method: 'POST',
      url: '/app/sign-out',
      headers: { origin: 'https://evil.example', cookie: cookie.split(';')[0]! },
    });
    expect(forged.statusCode).toBe(403);
    const out = await t.app.inject({
      method: 'POST',
      url: '/app/sign-out',
      headers: { cookie: cookie.split(';')[0]! },
    });
    expect(out.statusCode).toBe(303);
    expect(String(out.headers['set-cookie'])).toMatch(/^quire_session=; Max-Age=0;/);
  });

  it('sends a visitor without a session to sign in and back, and ends a session whose token was revoked', async () => {
    const away = await read(path(space.urls.app));
    expect(away.statusCode).toBe(302);
    expect(away.headers.location).toBe(`http://docs.test/app?next=${encodeURIComponent(path(space.urls.app))}`);

    const reader = await t.factory.token(admin.user.id);
    expect((await read(path(space.urls.app), sessionOf(reader))).statusCode).toBe(200);
    await t.db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('id', '=', reader.tokenId).execute();
    const revoked = await read(path(space.urls.app), sessionOf(reader));
    expect(revoked.statusCode).toBe(302);
    expect(String(revoked.headers['set-cookie'])).toMatch(/^quire_session=; Max-Age=0;/);
  });
});

describe('reading in the app', () => {
  it('follows urls.app from API answers to the space, its pages and the organization', async () => {
    const cookie = sessionOf(admin);
    const home = await read(path(space.urls.app), cookie);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<h1>Alerts</h1>');
    expect(home.body).toContain('<strong>breathe</strong>');
    expect(home.body).toContain('<meta name="robots" content="noindex">');
    expect(home.headers['cache-control']).toBe('private, no-store');

    const pages = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages as Array<{
      urls: { app: string };
      title: string;
    }>;
    const backups = await read(path(pages[1]!.urls.app), cookie);
    expect(backups.statusCode).toBe(200);
    expect(backups.body).toContain('<h1>Backups</h1>');

    const organization = await api.read(admin, `/v1/orgs/${organizationId}`);
    const orgPage = await read(path(organization.json().urls.app as string), cookie);
    expect(orgPage.statusCode).toBe(200);
    expect(orgPage.body).toContain(`<a href="${space.urls.app}">Runbook`);
  });

  it('shows a change request’s content with its changes marked, to members only', async () => {
    const changeRequestId = await api.openChangeRequest(admin, space.id, 'Rework backups');
    const pages = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages as Array<{ id: string }>;
    const written = await api.writeContent(admin, space.id, changeRequestId, [
      { operation: 'update_page', page: pages[1]!.id, document: { markdown: 'Hourly, to three places.' } },
      { operation: 'insert_page', title: 'Restores', document: { markdown: 'Practise them.' } },
      { operation: 'delete_page', page: pages[0]!.id },
    ]);
    expect(written.statusCode, written.body).toBe(200);
    const changeRequest = (await api.read(admin, `/v1/spaces/${space.id}/change-requests/${changeRequestId}`)).json();
    const page = await read(`${path(changeRequest.urls.app as string)}/backups`, sessionOf(admin));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Change request #');
    expect(page.body).toContain('It adds 1 page, changes 1 and removes 1: Alerts.');
    expect(page.body).toContain('<h1>Backups<span class="change-mark change-changed">changed</span></h1>');
    expect(page.body).toContain('Hourly, to three places.');
    expect(page.body).toContain('Restores<span class="change-mark change-added">new</span>');
    // By id as well as by number; the space itself still reads as before.
    expect(
      (await read(`/app/o/${organizationId}/s/${space.id}/change-requests/${changeRequestId}`, sessionOf(admin)))
        .statusCode,
    ).toBe(200);
    expect((await read(path(space.urls.app), sessionOf(admin))).body).toContain('<h1>Alerts</h1>');

    const stranger = await t.factory.account();
    const refused = await read(path(changeRequest.urls.app as string), sessionOf(stranger));
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('Backups');
    expect((await read(path(space.urls.app), sessionOf(stranger))).statusCode).toBe(404);
  });

  it('honours the token’s scopes as the API does', async () => {
    const narrow = await t.factory.token(admin.user.id, { scopes: ['organization:read'] });
    const refused = await read(path(space.urls.app), sessionOf(narrow));
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('breathe');
  });
});

/** Who may call each app reader route: every route must be named here. */
const APP_ROUTES: Record<string, { signedIn: boolean; url: () => string; method?: 'POST' }> = {
  '/app': { signedIn: false, url: () => '/app' },
  '/app/sign-in': { signedIn: false, url: () => '/app/sign-in', method: 'POST' },
  '/app/sign-out': { signedIn: false, url: () => '/app/sign-out', method: 'POST' },
  '/app/~/theme': { signedIn: false, url: () => '/app/~/theme?set=dark' },
  '/app/~/reader.css': { signedIn: false, url: () => '/app/~/reader.css' },
  '/app/o/:organizationId': { signedIn: true, url: () => `/app/o/${organizationId}` },
  '/app/o/:organizationId/s/:spaceId': { signedIn: true, url: () => `/app/o/${organizationId}/s/${space.id}` },
  '/app/o/:organizationId/s/:spaceId/*': { signedIn: true, url: () => `/app/o/${organizationId}/s/${space.id}/alerts` },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1`,
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/*': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/alerts`,
  },
  '/app/o/:organizationId/s/:spaceId/~/page/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/~/page/nope`,
  },
  '/app/o/:organizationId/c/:collectionId': { signedIn: true, url: () => `/app/o/${organizationId}/c/nope` },
  '/app/o/:organizationId/sites/:siteId': { signedIn: true, url: () => `/app/o/${organizationId}/sites/nope` },
  '/app/o/:organizationId/openapi/:slug': { signedIn: true, url: () => `/app/o/${organizationId}/openapi/nope` },
  '/app/o/:organizationId/integrations/:name': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/integrations/nope`,
  },
  '/app/integrations/:name': { signedIn: true, url: () => '/app/integrations/nope' },
};

describe('who may call the app reader', () => {
  it('names every route', () => {
    const routes = t.app.routeTable.filter((route) => route.url.startsWith('/app')).map((route) => route.url);
    expect(new Set(routes)).toEqual(new Set(Object.keys(APP_ROUTES)));
  });

  it('refuses a session whose token lacks the scope a route needs', async () => {
    const narrow = await t.factory.token(admin.user.id, { scopes: ['user:read'] });
    for (const [route, { signedIn, url, method }] of Object.entries(APP_ROUTES)) {
      if (!signedIn) continue;
      const res = await t.app.inject({ method: method ?? 'GET', url: url(), headers: { cookie: sessionOf(narrow) } });
      expect(res.statusCode, route).toBe(403);
      expect(res.body, route).not.toContain('Runbook');
    }
  });

  it('sends the signed-out to sign in, and shows a non-member nothing of the organization', async () => {
    const stranger = await t.factory.account();
    for (const [route, { signedIn, url, method }] of Object.entries(APP_ROUTES)) {
      if (!signedIn) continue;
      const signedOut = await t.app.inject({ method: method ?? 'GET', url: url() });
      expect(signedOut.statusCode, route).toBe(302);
      const outsider = await read(url(), sessionOf(stranger));
      expect(outsider.statusCode, route).toBe(404);
      expect(outsider.body, route).not.toContain('Runbook');
    }
  });
});
