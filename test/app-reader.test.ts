import { beforeAll, describe, expect, it } from 'vitest';
import { OIDC_UNREACHED, PUBLIC_URL, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

// With an identity provider configured, so that its sign-in routes are among those checked (never reached here).
const t = useTestApp({ config: { oidc: OIDC_UNREACHED } });
const api = contentApi(() => t.app);

const path = (url: string) => new URL(url).pathname;
/** Signs in with the token as a person would, and gives the session's cookie (one sign-in per token). */
const sessions = new Map<string, string>();
async function sessionOf(holder: { token: string }): Promise<string> {
  const known = sessions.get(holder.token);
  if (known) return known;
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/app/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
    payload: new URLSearchParams({ token: holder.token }).toString(),
  });
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
  sessions.set(holder.token, cookie);
  return cookie;
}
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
    expect(cookie).toMatch(/^quire_session=[\w-]{43}; Max-Age=43200; Path=\/app; HttpOnly; SameSite=Lax$/);

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
    expect((await read(path(space.urls.app), await sessionOf(reader))).statusCode).toBe(200);
    await t.db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('id', '=', reader.tokenId).execute();
    const revoked = await read(path(space.urls.app), await sessionOf(reader));
    expect(revoked.statusCode).toBe(302);
    expect(String(revoked.headers['set-cookie'])).toMatch(/^quire_session=; Max-Age=0;/);
  });
});

describe('a space’s page in the app, kept once composed', () => {
  it('is sent again as composed, and composed anew once the space’s title, its content or the reader’s name changes', async () => {
    const team = await t.factory.team(['edit', 'read']);
    const created = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook' });
    const handbook = (await api.read(team.admin, `/v1/spaces/${created.id}`)).json<typeof space>();
    await api.change(team.admin, handbook.id, [
      { operation: 'insert_page', ref: 'a', title: 'Onboarding', document: { markdown: 'Day one: **coffee**.' } },
    ]);
    const editor = await sessionOf(team.member('edit'));
    const reader = await sessionOf(team.member('read'));
    const page = `${path(handbook.urls.app)}/onboarding`;
    const pageOf = async (cookie: string) => {
      const response = await read(page, cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.body;
    };

    const first = await pageOf(editor);
    expect(first).toContain('<strong>coffee</strong>');
    expect(first).toContain('>Edit</button>');
    expect(await pageOf(editor)).toBe(first);
    // Each reader gets the page as they may use it: one who may not write has no Edit button.
    const asReader = await pageOf(reader);
    expect(asReader).toContain('<strong>coffee</strong>');
    expect(asReader).not.toContain('>Edit</button>');

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${handbook.id}`,
      headers: team.admin.headers,
      payload: { title: 'Staff handbook' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await pageOf(editor)).toContain('Staff handbook');

    const [onboarding] = (await api.read(team.admin, `/v1/spaces/${handbook.id}/content/pages`)).json<{
      pages: Array<{ id: string }>;
    }>().pages;
    await api.change(team.admin, handbook.id, [
      { operation: 'update_page', page: onboarding!.id, document: { markdown: 'Day one: **tea**.' } },
    ]);
    const changed = await pageOf(editor);
    expect(changed).toContain('<strong>tea</strong>');
    expect(changed).not.toContain('coffee');

    await t.db
      .updateTable('users')
      .set({ display_name: 'Ada Renamed' })
      .where('id', '=', team.member('edit').user.id)
      .execute();
    t.app.forgetToken(team.member('edit').tokenId);
    expect(await pageOf(editor)).toContain('Ada Renamed');

    // A kept page is no way in: a member who left sees nothing of it.
    await t.db
      .deleteFrom('organization_members')
      .where('organization_id', '=', team.organization.id)
      .where('user_id', '=', team.member('read').user.id)
      .execute();
    const gone = await read(page, reader);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('tea');
  });
});

describe('the app reader’s session', () => {
  const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

  it('is not the token: the cookie differs from it, does not authenticate the API, and the table keeps neither', async () => {
    const holder = await t.factory.token(admin.user.id);
    const cookie = await sessionOf(holder);
    const value = cookieValue(cookie);
    expect(value).not.toBe(holder.token);
    expect(value).not.toContain(holder.token.slice('quire_'.length));
    // Whoever reads the cookie (a copied browser profile, a proxy's log) has no API token.
    const asToken = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: `Bearer ${value}` },
    });
    expect(asToken.statusCode).toBe(401);
    expect(asToken.json()).toEqual({ error: { code: 401, message: expect.any(String) } });
    const rows = await t.db.selectFrom('app_sessions').selectAll().where('token_id', '=', holder.tokenId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBe(admin.user.id);
    const stored = JSON.stringify(rows.map((row) => ({ ...row, id_hash: row.id_hash.toString('base64url') })));
    expect(stored).not.toContain(value);
    expect(stored).not.toContain(holder.token);
  });

  it('a cookie copied before signing out opens nothing after it', async () => {
    const holder = await t.factory.token(admin.user.id);
    const cookie = await sessionOf(holder);
    expect((await read(path(space.urls.app), cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/app/sign-out', headers: { cookie } });
    expect(out.statusCode).toBe(303);
    expect(
      await t.db.selectFrom('app_sessions').select('token_id').where('token_id', '=', holder.tokenId).execute(),
    ).toEqual([]);

    // The thief replays the copy: the sign-in page, and no page of the organization.
    const home = await read('/app', cookie);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('<form action="http://docs.test/app/sign-in" method="post">');
    expect(home.body).not.toContain(`/app/o/${organizationId}`);
    const page = await read(path(space.urls.app), cookie);
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`http://docs.test/app?next=${encodeURIComponent(path(space.urls.app))}`);
    expect(page.body).not.toContain('breathe');
    // The token itself still works: signing out of the app ends the session, not the token.
    expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: holder.headers })).statusCode).toBe(200);
  });

  it('ends when its token is revoked through the API, and its row goes', async () => {
    const holder = await t.factory.token(admin.user.id);
    const cookie = await sessionOf(holder);
    expect((await read(path(space.urls.app), cookie)).statusCode).toBe(200);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/user/tokens/${holder.tokenId}`,
      headers: admin.headers,
    });
    expect(revoke.statusCode).toBe(204);
    const after = await read(path(space.urls.app), cookie);
    expect(after.statusCode).toBe(302);
    expect(String(after.headers['set-cookie'])).toMatch(/^quire_session=; Max-Age=0;/);
    expect(after.body).not.toContain('breathe');
    expect(
      await t.db.selectFrom('app_sessions').select('token_id').where('token_id', '=', holder.tokenId).execute(),
    ).toEqual([]);
  });

  it('lasts no longer than its token, and ends when the token expires or the session’s time is up', async () => {
    const shortLived = await t.factory.token(admin.user.id, { expiresAt: new Date(Date.now() + 3_600_000) });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/app/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
      payload: new URLSearchParams({ token: shortLived.token }).toString(),
    });
    expect(signedIn.statusCode).toBe(303);
    const maxAge = Number(/Max-Age=(\d+)/.exec(String(signedIn.headers['set-cookie']))![1]);
    expect(maxAge).toBeGreaterThan(3_500);
    expect(maxAge).toBeLessThanOrEqual(3_600);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    expect((await read(path(space.urls.app), cookie)).statusCode).toBe(200);
    await t.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', shortLived.tokenId)
      .execute();
    expect((await read(path(space.urls.app), cookie)).statusCode).toBe(302);

    const holder = await t.factory.token(admin.user.id);
    const lasting = await sessionOf(holder);
    expect((await read(path(space.urls.app), lasting)).statusCode).toBe(200);
    // Twelve hours later, as the database sees it.
    await t.db
      .updateTable('app_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_id', '=', holder.tokenId)
      .execute();
    expect((await read(path(space.urls.app), lasting)).statusCode).toBe(302);
  });

  it('is bound to its user: a session row moved to another user’s token opens nothing', async () => {
    const victim = await t.factory.account();
    const holder = await t.factory.token(admin.user.id);
    const cookie = await sessionOf(holder);
    // Even with write access to one column, a session cannot borrow another user's token.
    await t.db
      .updateTable('app_sessions')
      .set({ token_id: victim.tokenId })
      .where('token_id', '=', holder.tokenId)
      .execute();
    const home = await read('/app', cookie);
    expect(home.body).toContain('<form action="http://docs.test/app/sign-in" method="post">');
  });
});

describe('a session made from a token an admin issued', () => {
  it('reads in that organization only, and ends once the token no longer holds, even with its revocation undone', async () => {
    const member = await t.factory.account();
    await t.factory.member(organizationId, member.user.id, 'read');
    await t.db.deleteFrom('api_tokens').where('user_id', '=', member.user.id).execute();
    const issued = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organizationId}/members/${member.user.id}/tokens`,
      headers: admin.headers,
      payload: {},
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const cookie = await sessionOf({ token: issued.json().token as string });
    expect((await read(`/app/o/${organizationId}`, cookie)).statusCode).toBe(200);

    const elsewhere = await t.factory.account();
    const other = await t.factory.organization(elsewhere.user.id, { title: 'Elsewhere' });
    const foreign = await read(`/app/o/${other.id}`, cookie);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Elsewhere');

    // Joining another organization revokes the token; a session must not outlive it even if the row is restored.
    await t.factory.member(other.id, member.user.id, 'read');
    await t.db.updateTable('api_tokens').set({ revoked_at: null }).where('id', '=', issued.json().id).execute();
    const home = await read('/app', cookie);
    expect(home.body).toContain('<form action="http://docs.test/app/sign-in" method="post">');
  });
});

describe('reading in the app', () => {
  it('follows urls.app from API answers to the space, its pages and the organization', async () => {
    const cookie = await sessionOf(admin);
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
    const page = await read(`${path(changeRequest.urls.app as string)}/backups`, await sessionOf(admin));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Change request #');
    expect(page.body).toContain('It adds 1 page, changes 1 and removes 1: Alerts.');
    expect(page.body).toContain('<h1>Backups<span class="change-mark change-changed">changed</span></h1>');
    expect(page.body).toContain('Hourly, to three places.');
    expect(page.body).toContain('Restores<span class="change-mark change-added">new</span>');
    // By id as well as by number; the space itself still reads as before.
    expect(
      (await read(`/app/o/${organizationId}/s/${space.id}/change-requests/${changeRequestId}`, await sessionOf(admin)))
        .statusCode,
    ).toBe(200);
    expect((await read(path(space.urls.app), await sessionOf(admin))).body).toContain('<h1>Alerts</h1>');

    const stranger = await t.factory.account();
    const refused = await read(path(changeRequest.urls.app as string), await sessionOf(stranger));
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('Backups');
    expect((await read(path(space.urls.app), await sessionOf(stranger))).statusCode).toBe(404);
  });

  it('honours the token’s scopes as the API does', async () => {
    const narrow = await t.factory.token(admin.user.id, { scopes: ['organization:read'] });
    const refused = await read(path(space.urls.app), await sessionOf(narrow));
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('breathe');
  });
});

/**
 * Who may call each app reader route: every route must be named here.
 * `signedIn`: a member of the organization, with the route's scope; `own`: any
 * signed-in person, on their own account, with that user scope.
 */
const APP_ROUTES: Record<
  string,
  {
    signedIn: boolean;
    own?: 'user:read' | 'user:write';
    url: () => string;
    method?: 'POST';
    form?: string;
    /** What the signed-out get, when not sent to sign in (a script's request). */
    signedOut?: number;
  }
> = {
  '/app': { signedIn: false, url: () => '/app' },
  '/app/sign-in': { signedIn: false, url: () => '/app/sign-in', method: 'POST' },
  '/app/sign-in/password': { signedIn: false, url: () => '/app/sign-in/password', method: 'POST' },
  '/app/sign-in/oidc': { signedIn: false, url: () => '/app/sign-in/oidc' },
  '/app/sign-in/oidc/callback': { signedIn: false, url: () => '/app/sign-in/oidc/callback' },
  '/app/sign-in/sso': { signedIn: false, url: () => '/app/sign-in/sso?email=ada%40example.com' },
  '/app/password-reset': { signedIn: false, url: () => '/app/password-reset' },
  '/app/password-reset/:secret': { signedIn: false, url: () => `/app/password-reset/${'x'.repeat(43)}` },
  '/app/email-proof/:secret': { signedIn: false, url: () => `/app/email-proof/${'x'.repeat(43)}` },
  '/app/account': { signedIn: false, own: 'user:read', url: () => '/app/account' },
  '/app/account/email-proof': {
    signedIn: false,
    own: 'user:write',
    url: () => '/app/account/email-proof',
    method: 'POST',
  },
  '/app/account/password': { signedIn: false, own: 'user:write', url: () => '/app/account/password', method: 'POST' },
  '/app/account/sessions/end': {
    signedIn: false,
    own: 'user:write',
    url: () => '/app/account/sessions/end',
    method: 'POST',
  },
  '/app/account/identities/unlink': {
    signedIn: false,
    own: 'user:write',
    url: () => '/app/account/identities/unlink',
    method: 'POST',
  },
  '/app/account/sessions/end-others': {
    signedIn: false,
    own: 'user:write',
    url: () => '/app/account/sessions/end-others',
    method: 'POST',
  },
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
  '/app/o/:organizationId/s/:spaceId/~/edit/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/~/edit/nope`,
    method: 'POST',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/edit/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/edit/nope`,
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/new/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/new/nope`,
    method: 'POST',
    form: 'title=New&where=after',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/move/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/move/nope`,
    method: 'POST',
    form: 'target=&where=inside',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/preview/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/preview/nope`,
    method: 'POST',
    form: 'markdown=x',
    signedOut: 401,
  },
  '/app/~/editor.js': { signedIn: false, url: () => '/app/~/editor.js' },
  '/app/~/markdown-editor.js': { signedIn: false, url: () => '/app/~/markdown-editor.js' },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/upload/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/upload/nope`,
    method: 'POST',
    form: 'name=a.png&contentType=image%2Fpng&base64=aGVsbG8%3D',
    signedOut: 401,
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/autosave/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/autosave/nope`,
    method: 'POST',
    form: `title=T&markdown=x&base=${'0'.repeat(64)}`,
    signedOut: 401,
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/delete/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/delete/nope`,
    method: 'POST',
    form: `base=${'0'.repeat(64)}`,
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/comment/:pageId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/comment/nope`,
    method: 'POST',
    form: 'comment=Hello',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/reply/:commentId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/reply/nope`,
    method: 'POST',
    form: 'reply=Agreed',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/resolve/:commentId': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/resolve/nope`,
    method: 'POST',
    form: 'resolved=true',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/reviewers': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/reviewers`,
    method: 'POST',
    form: 'email=ada%40example.com',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/status': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/status`,
    method: 'POST',
    form: 'status=open',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/review': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/review`,
    method: 'POST',
    form: 'status=approved',
  },
  '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/merge': {
    signedIn: true,
    url: () => `/app/o/${organizationId}/s/${space.id}/change-requests/1/~/merge`,
    method: 'POST',
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

/** The headers of a form a route takes, posted from the service's own page. */
const formHeaders = (form: string | undefined) =>
  form ? { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL } : {};

describe('who may call the app reader', () => {
  it('names every route', () => {
    const routes = t.app.routeTable.filter((route) => route.url.startsWith('/app')).map((route) => route.url);
    expect(new Set(routes)).toEqual(new Set(Object.keys(APP_ROUTES)));
  });

  it('refuses a session whose token lacks the scope a route needs', async () => {
    const narrow = await t.factory.token(admin.user.id, { scopes: ['user:read'] });
    for (const [route, { signedIn, url, method, form }] of Object.entries(APP_ROUTES)) {
      if (!signedIn) continue;
      const res = await t.app.inject({
        method: method ?? 'GET',
        url: url(),
        headers: { cookie: await sessionOf(narrow), ...formHeaders(form) },
        ...(form ? { payload: form } : {}),
      });
      expect(res.statusCode, route).toBe(403);
      expect(res.body, route).not.toContain('Runbook');
    }
  });

  it('lets a person reach only their own account, with the user scope each route needs', async () => {
    const forms = {
      '/app/account/password': 'password=x&confirm=x',
      '/app/account/sessions/end': 'id=x',
      '/app/account/identities/unlink': 'issuer=x&subject=y',
    };
    const call = (url: string, method: 'GET' | 'POST', cookie?: string) =>
      t.app.inject({
        method,
        url,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: PUBLIC_URL,
          ...(cookie ? { cookie } : {}),
        },
        ...(method === 'POST' ? { payload: forms[url as keyof typeof forms] ?? '' } : {}),
      });
    const noUserScope = await sessionOf(await t.factory.token(admin.user.id, { scopes: ['organization:read'] }));
    const readOnly = await sessionOf(await t.factory.token(admin.user.id, { scopes: ['user:read'] }));
    for (const [route, { own, url, method }] of Object.entries(APP_ROUTES)) {
      if (!own) continue;
      const signedOut = await call(url(), method ?? 'GET');
      expect(signedOut.statusCode, route).toBe(method === 'POST' ? 303 : 302);
      expect((await call(url(), method ?? 'GET', noUserScope)).statusCode, route).toBe(403);
      expect((await call(url(), method ?? 'GET', readOnly)).statusCode, route).toBe(own === 'user:read' ? 200 : 403);
    }
  });

  it('sends the signed-out to sign in, and shows a non-member nothing of the organization', async () => {
    const stranger = await t.factory.account();
    for (const [route, { signedIn, url, method, form, signedOut: refused }] of Object.entries(APP_ROUTES)) {
      if (!signedIn) continue;
      const signedOut = await t.app.inject({
        method: method ?? 'GET',
        url: url(),
        headers: { origin: PUBLIC_URL, ...formHeaders(form) },
        ...(form ? { payload: form } : {}),
      });
      expect(signedOut.statusCode, route).toBe(refused ?? (method === 'POST' ? 303 : 302));
      const outsider = await t.app.inject({
        method: method ?? 'GET',
        url: url(),
        headers: { cookie: await sessionOf(stranger), origin: PUBLIC_URL, ...formHeaders(form) },
        ...(form ? { payload: form } : {}),
      });
      expect(outsider.statusCode, route).toBe(404);
      expect(outsider.body, route).not.toContain('Runbook');
    }
  });
});
