import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { Clock } from '../src/core/clock.js';
import { buildOwnApp, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { startTestProvider, type TestProvider } from './support/oidc-provider.js';

const CALLBACK = `${PUBLIC_URL}/app/sign-in/oidc/callback`;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider(CALLBACK);
});
afterAll(async () => {
  await provider?.close();
});

/** The service's time, which a test may move forward. */
let skew = 0;
const clock: Clock = { now: () => new Date(Date.now() + skew) };

const t = useTestApp({
  clock,
  config: () => ({
    oidc: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      name: 'Acme ID',
      createUsers: false,
      endSession: true,
    },
  }),
});

/** The `name=value` of the cookie named `name` (the session's, by default) an answer sets; empty when it sets none. */
function cookieOf(
  response: { headers: Record<string, string | string[] | number | undefined> },
  name = 'quire_session',
): string {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : typeof header === 'string' ? [header] : [];
  return all.map((cookie) => cookie.split(';')[0]!).find((pair) => pair.startsWith(`${name}=`)) ?? '';
}

/** Starts a sign-in as the browser does from the sign-in page: the provider's URL, and the pending sign-in's cookie. */
async function start(app: FastifyInstance = t.app, next?: string) {
  const started = await app.inject({
    method: 'GET',
    url: `/app/sign-in/oidc${next ? `?next=${encodeURIComponent(next)}` : ''}`,
  });
  expect(started.statusCode, started.body).toBe(302);
  return { url: String(started.headers.location), pending: cookieOf(started, 'quire_oidc') };
}

/** Comes back from the provider to the callback, with the browser's cookies. */
function callback(at: URL, cookie: string, app: FastifyInstance = t.app) {
  expect(at.href.startsWith(`${CALLBACK}?`), at.href).toBe(true);
  return app.inject({
    method: 'GET',
    url: `${at.pathname}${at.search}`,
    headers: { cookie, 'user-agent': BROWSER },
  });
}

/** A whole sign-in as `subject`: the callback's answer. */
async function signIn(subject: string, app: FastifyInstance = t.app, next?: string) {
  const { url, pending } = await start(app, next);
  return callback(await provider.signIn(url, subject), pending, app);
}

/** Signs in with an API token, as the app's token form does: its answer, which sets the session's cookie. */
async function signInWithToken(token: string) {
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/app/sign-in',
    headers: { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token }).toString(),
  });
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  return signedIn;
}

/** Signs out as the app's sign-out button does. */
function signOut(cookie: string, app: FastifyInstance = t.app) {
  return app.inject({
    method: 'POST',
    url: '/app/sign-out',
    headers: { cookie, origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
}

/** The claims of an ID token (a JWT), read without checking it: the provider checks it when it comes back. */
function idTokenClaims(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

const identities = (userId: string) =>
  t.db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).execute();
const sessions = (userId: string) =>
  t.db.selectFrom('app_sessions').selectAll().where('user_id', '=', userId).execute();

describe('signing in through the OpenID Connect provider', () => {
  it('offers the provider on the sign-in page, and sends the person there with state, nonce and PKCE', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/app?next=/app/account' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      `<a class="button" href="http://docs.test/app/sign-in/oidc?next=%2Fapp%2Faccount">Sign in with Acme ID</a>`,
    );

    const started = await t.app.inject({ method: 'GET', url: '/app/sign-in/oidc' });
    expect(started.statusCode).toBe(302);
    const to = new URL(String(started.headers.location));
    expect(to.origin).toBe(provider.issuer);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: provider.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(name)).toMatch(/^[\w-]{43}$/);
    // The pending sign-in waits, sealed, in a cookie only the callback receives.
    const cookie = String(started.headers['set-cookie']);
    expect(cookie).toMatch(/^quire_oidc=[^;]+; Max-Age=600; Path=\/app\/sign-in\/oidc; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain(to.searchParams.get('state')!);
  });

  it('links a first sign-in to the account of the address the provider proved, and later ones by the identity', async () => {
    const account = await t.factory.account({ email: 'grace@example.test', verified: false });
    provider.accounts.set('grace-1', { sub: 'grace-1', email: 'Grace@Example.test', email_verified: true, name: 'G' });

    const first = await signIn('grace-1', t.app, '/app/account');
    expect(first.statusCode, first.body).toBe(303);
    expect(first.headers.location).toBe('/app/account');
    const cookie = cookieOf(first);
    expect(cookie).toMatch(/^quire_session=/);
    // The pending sign-in's cookie is cleared.
    expect(String(first.headers['set-cookie'])).toContain('quire_oidc=;');

    const linked = await identities(account.user.id);
    expect(linked).toMatchObject([{ issuer: provider.issuer, subject: 'grace-1' }]);
    const user = await t.db.selectFrom('users').selectAll().where('id', '=', account.user.id).executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull();

    const home = await t.app.inject({ method: 'GET', url: '/app/account', headers: { cookie } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Signed in through Acme ID');
    const [session] = await sessions(account.user.id);
    expect(session).toMatchObject({ signed_in_with: 'oidc', user_agent: BROWSER });
    // It acts through a session token of its own, as a password session does.
    const token = await t.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', session!.token_id)
      .executeTakeFirstOrThrow();
    expect(token).toMatchObject({
      kind: 'session',
      label: 'Signed in through single sign-on',
      user_id: account.user.id,
    });

    // The provider's address changes: the identity still opens the same account.
    provider.accounts.set('grace-1', { sub: 'grace-1', email: 'grace@elsewhere.test', email_verified: true });
    const again = await signIn('grace-1');
    expect(again.statusCode, again.body).toBe(303);
    expect(await sessions(account.user.id)).toHaveLength(2);
    expect(await identities(account.user.id)).toHaveLength(1);
  });

  it('ends such a session with its token by signing out, and then the person’s session at the provider (OIDC_END_SESSION)', async () => {
    const account = await t.factory.account({ email: 'hopper@example.test' });
    provider.accounts.set('hopper', { sub: 'hopper', email: 'hopper@example.test', email_verified: true });
    const cookie = cookieOf(await signIn('hopper'));
    const [session] = await sessions(account.user.id);
    // The provider's ID token is kept sealed with the session, never as it came.
    const sealed = session!.provider_id_token_sealed!;
    expect(sealed).toMatch(/^k1\./);

    const out = await signOut(cookie);
    expect(out.statusCode).toBe(303);
    // On to the provider's end-session endpoint, which sends the person back to the app.
    const atProvider = new URL(String(out.headers.location));
    expect(`${atProvider.origin}${atProvider.pathname}`).toBe(`${provider.issuer}/session/end`);
    const { id_token_hint: hint, ...rest } = Object.fromEntries(atProvider.searchParams);
    expect(rest).toEqual({ client_id: provider.clientId, post_logout_redirect_uri: `${PUBLIC_URL}/app` });
    // The hint is the ID token the provider issued for this sign-in, and the provider takes it.
    expect(idTokenClaims(hint!)).toMatchObject({ iss: provider.issuer, aud: provider.clientId, sub: 'hopper' });
    expect(sealed).not.toContain(hint!.split('.')[1]!);
    expect((await provider.signOut(atProvider.href)).href).toBe(`${PUBLIC_URL}/app`);
    expect(await sessions(account.user.id)).toHaveLength(0);
    expect(await t.db.selectFrom('api_tokens').select('id').where('id', '=', session!.token_id).execute()).toHaveLength(
      0,
    );
    const after = await t.app.inject({ method: 'GET', url: '/app/account', headers: { cookie } });
    expect(after.statusCode).toBe(302);
    // Signing out again, with the ended session's cookie, ends nothing more and stays here.
    const again = await signOut(cookie);
    expect(again.headers.location).toBe(`${PUBLIC_URL}/app`);
  });

  it('hands back only the ID token sealed to the session: one copied from another session is left out', async () => {
    const account = await t.factory.account({ email: 'copied@example.test' });
    provider.accounts.set('copied', { sub: 'copied', email: 'copied@example.test', email_verified: true });
    await signIn('copied');
    const [first] = await sessions(account.user.id);
    const second = cookieOf(await signIn('copied'));
    const copiedOnto = (await sessions(account.user.id)).find((row) => row.id !== first!.id)!;
    await t.db
      .updateTable('app_sessions')
      .set({ provider_id_token_sealed: first!.provider_id_token_sealed })
      .where('id_hash', '=', copiedOnto.id_hash)
      .execute();

    const out = await signOut(second);
    const atProvider = new URL(String(out.headers.location));
    expect(`${atProvider.origin}${atProvider.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(atProvider.searchParams.has('id_token_hint')).toBe(false);
    expect((await sessions(account.user.id)).map((row) => row.id)).toEqual([first!.id]);
  });

  it('keeps no ID token for a session opened otherwise, which the database refuses too', async () => {
    const account = await t.factory.account({ email: 'no-hint@example.test' });
    await signInWithToken(account.token);
    const [session] = await sessions(account.user.id);
    expect(session!.provider_id_token_sealed).toBeNull();
    await expect(
      t.db
        .updateTable('app_sessions')
        .set({ provider_id_token_sealed: 'k1.x.y.z.w' })
        .where('id_hash', '=', session!.id_hash)
        .execute(),
    ).rejects.toThrow(/app_sessions_id_token_hint_oidc/);
  });

  it('signs a session opened with a token out here only, whatever OIDC_END_SESSION says', async () => {
    const account = await t.factory.account({ email: 'token-only@example.test' });
    const out = await signOut(cookieOf(await signInWithToken(account.token)));
    expect(out.headers.location).toBe(`${PUBLIC_URL}/app`);
  });

  it('refuses an address the provider has not proven, and links nothing', async () => {
    const account = await t.factory.account({ email: 'mallory-target@example.test' });
    provider.accounts.set('mallory', { sub: 'mallory', email: 'mallory-target@example.test', email_verified: false });
    const refused = await signIn('mallory');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('did not vouch for your e-mail address');
    expect(cookieOf(refused)).toBe('');
    expect(await identities(account.user.id)).toHaveLength(0);
    expect(await sessions(account.user.id)).toHaveLength(0);

    provider.accounts.set('nobody', { sub: 'nobody' });
    expect((await signIn('nobody')).statusCode).toBe(403);
  });

  it('refuses a person no account has, unless the operator lets the provider make accounts', async () => {
    provider.accounts.set('newcomer', { sub: 'newcomer', email: 'newcomer@example.test', email_verified: true });
    const refused = await signIn('newcomer');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('ask an administrator of your organization to invite you');
    expect(
      await t.db.selectFrom('users').select('id').where('email', '=', 'newcomer@example.test').execute(),
    ).toHaveLength(0);
    expect(
      await t.db.selectFrom('user_identities').select('subject').where('subject', '=', 'newcomer').execute(),
    ).toHaveLength(0);
  });

  it('refuses a member of an organization that signs its members in through its own provider', async () => {
    const { organization, admin } = await t.factory.team([]);
    await t.db.updateTable('organizations').set({ sso: true }).where('id', '=', organization.id).execute();
    provider.accounts.set('sso-member', { sub: 'sso-member', email: admin.user.email, email_verified: true });
    const refused = await signIn('sso-member');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('through its own identity provider');
    expect(await identities(admin.user.id)).toHaveLength(0);
    expect(await sessions(admin.user.id)).toHaveLength(0);
  });

  it('finishes only the sign-in this browser started (no login CSRF), and only within ten minutes', async () => {
    const account = await t.factory.account({ email: 'victim@example.test' });
    provider.accounts.set('attacker', { sub: 'attacker', email: 'attacker@example.test', email_verified: true });
    await t.factory.account({ email: 'attacker@example.test' });

    // The attacker starts a sign-in of their own and hands its answer on.
    const theirs = await start();
    const answer = await provider.signIn(theirs.url, 'attacker');
    const noCookie = await callback(answer, '');
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.body).toContain('was not started in this browser');
    // The victim's browser has a sign-in of its own pending: the state differs.
    const mine = await start();
    const foreign = await callback(answer, mine.pending);
    expect(foreign.statusCode).toBe(400);
    expect(cookieOf(foreign)).toBe('');

    // A cookie tampered with opens nothing.
    const [name, value] = theirs.pending.split('=');
    const tampered = `${name}=${value!.slice(0, -2)}${value!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await callback(answer, tampered)).statusCode).toBe(400);

    // Too late: the pending sign-in has expired.
    const late = await start();
    const lateAnswer = await provider.signIn(late.url, 'attacker');
    skew = 601_000;
    try {
      expect((await callback(lateAnswer, late.pending)).statusCode).toBe(400);
    } finally {
      skew = 0;
    }
    expect(await sessions(account.user.id)).toHaveLength(0);
  });

  it('says so when the person cancels at the provider', async () => {
    provider.accounts.set('canceller', { sub: 'canceller', email: 'canceller@example.test', email_verified: true });
    const { url, pending } = await start();
    const cancelled = await callback(await provider.signIn(url, 'canceller', { deny: true }), pending);
    expect(cancelled.statusCode).toBe(401);
    expect(cancelled.body).toContain('Your identity provider did not sign you in: End-User aborted interaction');
  });

  it('answers 502 with the sign-in page when a code cannot be exchanged', async () => {
    // A made-up code with the right state: the provider refuses the exchange.
    const started = await start();
    const realState = new URL(started.url).searchParams.get('state')!;
    const answer = new URL(`${CALLBACK}?code=made-up&state=${realState}&iss=${encodeURIComponent(provider.issuer)}`);
    const failed = await callback(answer, started.pending);
    expect(failed.statusCode).toBe(502);
    expect(failed.body).toContain('Acme ID could not be reached, or did not answer as it should');
  });
});

describe('with accounts made by the provider, and addresses in the ID token', () => {
  let second: TestProvider;
  let app: FastifyInstance;
  beforeAll(async () => {
    second = await startTestProvider(CALLBACK, { idTokenClaims: true });
    app = await buildOwnApp(
      testConfig(t.database.url, {
        oidc: {
          issuer: second.issuer,
          clientId: second.clientId,
          clientSecret: second.clientSecret,
          name: 'Second',
          createUsers: true,
          endSession: false,
        },
      }),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await second?.close();
  });

  it('makes an account with a proven address and the provider’s name for the person, in no organization', async () => {
    second.accounts.set('fresh', {
      sub: 'fresh',
      email: 'fresh@example.test',
      email_verified: true,
      name: 'Fresh Face',
    });
    const { url, pending } = await start(app);
    const signedIn = await callback(await second.signIn(url, 'fresh'), pending, app);
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'fresh@example.test')
      .executeTakeFirstOrThrow();
    expect(user.display_name).toBe('Fresh Face');
    expect(user.email_verified_at).not.toBeNull();
    expect(await identities(user.id)).toMatchObject([{ issuer: second.issuer, subject: 'fresh' }]);
    expect(
      await t.db.selectFrom('organization_members').select('organization_id').where('user_id', '=', user.id).execute(),
    ).toHaveLength(0);
    // Without OIDC_END_SESSION, signing out ends the session here only.
    const out = await signOut(cookieOf(signedIn), app);
    expect(out.headers.location).toBe(`${PUBLIC_URL}/app`);
    expect(await sessions(user.id)).toHaveLength(0);
  });

  it('keeps each provider’s identities apart: the same subject at another issuer is another identity', async () => {
    const account = await t.factory.account({ email: 'two-places@example.test' });
    provider.accounts.set('shared-sub', { sub: 'shared-sub', email: 'two-places@example.test', email_verified: true });
    second.accounts.set('shared-sub', { sub: 'shared-sub', email: 'two-places@example.test', email_verified: true });
    expect((await signIn('shared-sub')).statusCode).toBe(303);
    const { url, pending } = await start(app);
    expect((await callback(await second.signIn(url, 'shared-sub'), pending, app)).statusCode).toBe(303);
    expect((await identities(account.user.id)).map((row) => row.issuer).sort()).toEqual(
      [provider.issuer, second.issuer].sort(),
    );
  });
});

describe('signing out while the provider cannot be reached', () => {
  it('ends the session here and goes home, after a restart that has not read the provider’s metadata yet', async () => {
    const gone = await startTestProvider(CALLBACK);
    const settings = {
      oidc: {
        issuer: gone.issuer,
        clientId: gone.clientId,
        clientSecret: gone.clientSecret,
        name: 'Gone',
        createUsers: false,
        endSession: true,
      },
    };
    const before = await buildOwnApp(testConfig(t.database.url, settings));
    let cookie: string;
    let userId: string;
    try {
      const account = await t.factory.account({ email: 'gone@example.test' });
      userId = account.user.id;
      gone.accounts.set('gone', { sub: 'gone', email: 'gone@example.test', email_verified: true });
      const { url, pending } = await start(before);
      cookie = cookieOf(await callback(await gone.signIn(url, 'gone'), pending, before));
      expect(cookie).toMatch(/^quire_session=/);
    } finally {
      await before.close();
      await gone.close();
    }
    const after = await buildOwnApp(testConfig(t.database.url, settings));
    try {
      const out = await signOut(cookie, after);
      expect(out.statusCode).toBe(303);
      expect(out.headers.location).toBe(`${PUBLIC_URL}/app`);
      expect(await sessions(userId)).toHaveLength(0);
    } finally {
      await after.close();
    }
  });
});

describe('the provider’s configuration', () => {
  const base = { PUBLIC_URL: 'https://docs.example.com', SECRET_KEY: 'x'.repeat(32) };

  it('takes the issuer, client id and secret together or not at all', () => {
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      'OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set with OIDC_ISSUER',
    );
    const config = loadConfig({
      ...base,
      OIDC_ISSUER: 'https://id.example.com/realms/docs',
      OIDC_CLIENT_ID: 'docs',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect(config.oidc).toMatchObject({
      issuer: 'https://id.example.com/realms/docs',
      name: 'single sign-on',
      createUsers: false,
      endSession: false,
    });
  });

  it('reaches the provider over https, unless it is on this machine', () => {
    const settings = { OIDC_CLIENT_ID: 'docs', OIDC_CLIENT_SECRET: 'secret' };
    expect(() => loadConfig({ ...base, ...settings, OIDC_ISSUER: 'http://id.example.com' })).toThrow(
      'OIDC_ISSUER must be https:// unless the provider is on this machine',
    );
    expect(loadConfig({ ...base, ...settings, OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc.issuer).toBe(
      'http://127.0.0.1:9000',
    );
  });
});
