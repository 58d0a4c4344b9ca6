import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOwnApp, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { smtpServer } from './support/smtp.js';
import {
  SIGN_IN_FAILURES_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_FAILURES_PER_ADDRESS,
} from '../src/accounts/sign-in-limits.js';

const t = useTestApp();

const GOOD_PASSWORD = 'a long walk through the archive';

/** Posts a form from the service's own page, as a browser does (to `t.app`, or to `on`). */
function post(
  url: string,
  fields: Record<string, string>,
  options: { cookie?: string; from?: string; origin?: string; on?: FastifyInstance } = {},
) {
  return (options.on ?? t.app).inject({
    method: 'POST',
    url,
    remoteAddress: options.from ?? '127.0.0.1',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: options.origin ?? PUBLIC_URL,
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    payload: new URLSearchParams(fields).toString(),
  });
}

const read = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
/** The `name=value` of the session cookie an answer sets; empty when it sets none. */
function cookieOf(response: { headers: Record<string, string | string[] | number | undefined> }): string {
  const header = response.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  return typeof first === 'string' ? first.split(';')[0]! : '';
}

/** A session opened with the account's token, as a person's first sign-in is. */
async function tokenSession(account: { token: string }): Promise<string> {
  const signedIn = await post('/app/sign-in', { token: account.token });
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  return cookieOf(signedIn);
}

async function passwordSession(email: string, password: string, from?: string) {
  return post('/app/sign-in/password', { email, password }, { from });
}

/** A user with a password set through the app, and the token session that set it. */
async function personWithPassword(password = GOOD_PASSWORD) {
  const account = await t.factory.account();
  const cookie = await tokenSession(account);
  const set = await post('/app/account/password', { password, confirm: password }, { cookie });
  expect(set.statusCode, set.body).toBe(200);
  return { account, cookie };
}

/** The same service with an SMTP server on 127.0.0.1, which keeps what it is sent: links go by mail. */
function useMailingApp() {
  const mailing = {} as { smtp: Awaited<ReturnType<typeof smtpServer>>; app: FastifyInstance };
  beforeAll(async () => {
    mailing.smtp = await smtpServer();
    mailing.app = await buildOwnApp(
      testConfig(t.database.url, { mail: { smtpUrl: mailing.smtp.url, from: 'Quire <no-reply@docs.test>' } }),
    );
    await mailing.app.ready();
  });
  afterAll(async () => {
    await mailing.app?.close();
    await mailing.smtp?.close();
  });
  return mailing;
}

const passwordRow = (userId: string) =>
  t.db.selectFrom('user_passwords').selectAll().where('user_id', '=', userId).executeTakeFirst();

describe('setting a password', () => {
  it('stores only an argon2id hash, and refuses weak or mistyped passwords without changing anything', async () => {
    const account = await t.factory.account({ email: 'ada@example.test' });
    const cookie = await tokenSession(account);

    const page = await read('/app/account', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You have no password yet.');
    expect(page.body).toContain('<form action="http://docs.test/app/account/password" method="post">');

    for (const [fields, error] of [
      [{ password: 'short one', confirm: 'short one' }, 'A password has at least 12 characters.'],
      [{ password: GOOD_PASSWORD, confirm: `${GOOD_PASSWORD}!` }, 'The two new passwords differ'],
      [{ password: 'ada@example.test', confirm: 'ada@example.test' }, 'A password is not your e-mail address.'],
      [{ password: 'aaaaaaaaaaaaaaaa', confirm: 'aaaaaaaaaaaaaaaa' }, 'more than three different characters'],
      [{ password: ` ${GOOD_PASSWORD}`, confirm: ` ${GOOD_PASSWORD}` }, 'does not start or end with a space'],
    ] as const) {
      const refused = await post('/app/account/password', fields, { cookie });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(error);
      expect(await passwordRow(account.user.id)).toBeUndefined();
    }

    const set = await post('/app/account/password', { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD }, { cookie });
    expect(set.statusCode).toBe(200);
    expect(set.body).toContain('Your password is set');
    const stored = await passwordRow(account.user.id);
    expect(stored?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(stored?.password_hash).not.toContain(GOOD_PASSWORD);

    // Changing it asks for the current one.
    const noCurrent = await post(
      '/app/account/password',
      { password: 'another long phrase', confirm: 'another long phrase' },
      { cookie },
    );
    expect(noCurrent.statusCode).toBe(400);
    expect(noCurrent.body).toContain('The current password is not right');
    expect((await passwordRow(account.user.id))?.password_hash).toBe(stored?.password_hash);
  });

  it('is refused to a session whose token does not carry all its user’s rights', async () => {
    const person = await t.factory.account();
    const scoped = await t.factory.token(person.user.id, { scopes: ['user:read', 'user:write', 'organization:read'] });
    const cookie = await tokenSession(scoped);
    const page = await read('/app/account', cookie);
    expect(page.body).toContain('cannot set your password');
    const refused = await post(
      '/app/account/password',
      { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD },
      { cookie },
    );
    expect(refused.statusCode).toBe(403);
    expect(await passwordRow(person.user.id)).toBeUndefined();

    // A token that may only read cannot change the account at all.
    const reader = await tokenSession(await t.factory.token(person.user.id, { scopes: ['user:read'] }));
    const readOnly = await post(
      '/app/account/password',
      { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD },
      { cookie: reader },
    );
    expect(readOnly.statusCode).toBe(403);
    expect(await passwordRow(person.user.id)).toBeUndefined();
  });

  it('cannot be set with a token an admin issued a member: the admin holds it, and a password would reach past their organization', async () => {
    const team = await t.factory.team();
    const newcomer = await t.factory.user({ email: 'newcomer@example.test' });
    await t.factory.member(team.organization.id, newcomer.id, 'edit');
    const issued = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${team.organization.id}/members/${newcomer.id}/tokens`,
      headers: team.admin.headers,
      payload: {},
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const cookie = await tokenSession({ token: issued.json().token as string });
    expect((await read('/app/account', cookie)).body).toContain('cannot set your password');
    const refused = await post(
      '/app/account/password',
      { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD },
      { cookie },
    );
    expect(refused.statusCode).toBe(403);
    expect(await passwordRow(newcomer.id)).toBeUndefined();
    expect((await passwordSession('newcomer@example.test', GOOD_PASSWORD, '10.0.10.1')).statusCode).toBe(401);
  });

  it('refuses a form posted from another site', async () => {
    const account = await t.factory.account();
    const cookie = await tokenSession(account);
    const forged = await post(
      '/app/account/password',
      { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD },
      { cookie, origin: 'https://attacker.example' },
    );
    expect(forged.statusCode).toBe(403);
    expect(await passwordRow(account.user.id)).toBeUndefined();
    const signIn = await post(
      '/app/sign-in/password',
      { email: account.user.email, password: 'x' },
      { origin: 'https://attacker.example' },
    );
    expect(signIn.statusCode).toBe(403);
  });
});

describe('signing in with a password', () => {
  it('opens a session of its own, whose token no API listing shows, and signing out ends both', async () => {
    const { account } = await personWithPassword();
    const page = await read('/app');
    expect(page.body).toContain('<form action="http://docs.test/app/sign-in/password" method="post">');
    expect(page.body).toContain('autocomplete="current-password"');

    const signedIn = await post('/app/sign-in/password', {
      email: account.user.email.toUpperCase(),
      password: GOOD_PASSWORD,
      next: '/app/account',
    });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/app/account');
    expect(String(signedIn.headers['set-cookie'])).toMatch(
      /^quire_session=[\w-]{43}; Max-Age=43200; Path=\/app; HttpOnly; SameSite=Lax$/,
    );
    const cookie = cookieOf(signedIn);
    const home = await read('/app/account', cookie);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Signed in with the password</strong> (this session)');
    expect(home.body).toContain('Firefox/140.0');

    // Its token is the session's: not among the user's API tokens, not counted, not revocable through the API.
    const sessionToken = await t.db
      .selectFrom('api_tokens')
      .select(['id', 'scopes', 'organization_id'])
      .where('user_id', '=', account.user.id)
      .where('kind', '=', 'session')
      .executeTakeFirstOrThrow();
    expect(sessionToken).toMatchObject({ scopes: null, organization_id: null });
    const tokens = await t.app.inject({ method: 'GET', url: '/v1/user/tokens', headers: account.headers });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const listed = (tokens.json() as { items: Array<{ id: string }>; count?: number }).items.map((token) => token.id);
    expect(listed).toEqual([account.tokenId]);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/v1/user/tokens/${sessionToken.id}`,
      headers: account.headers,
    });
    expect(revoke.statusCode).toBe(404);

    const out = await post('/app/sign-out', {}, { cookie });
    expect(out.statusCode).toBe(303);
    expect((await read('/app/account', cookie)).statusCode).toBe(302);
    const left = await t.db.selectFrom('api_tokens').select('id').where('id', '=', sessionToken.id).execute();
    expect(left).toEqual([]);
  });

  it('answers a wrong password and an unknown address alike, and sets no cookie', async () => {
    const { account } = await personWithPassword();
    const noPassword = await t.factory.account();
    for (const [email, password] of [
      [account.user.email, `${GOOD_PASSWORD}?`],
      ['nobody@example.test', GOOD_PASSWORD],
      [noPassword.user.email, GOOD_PASSWORD],
      [noPassword.user.email, ''],
    ]) {
      const refused = await passwordSession(email!, password!, '10.0.1.1');
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toContain('That e-mail address and password do not match.');
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
  });

  it('stops checking passwords for an account from an address after its failures there, without locking its person out', async () => {
    const { account } = await personWithPassword();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS; i++) {
      expect((await passwordSession(account.user.email, `wrong guess ${i}`, '10.0.2.1')).statusCode).toBe(401);
    }
    // Even the right password, from that address: it waits out its window.
    const limited = await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.2.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many failed sign-ins');
    expect(limited.headers['set-cookie']).toBeUndefined();
    // The person, elsewhere, still signs in.
    expect((await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.2.2')).statusCode).toBe(303);
  });

  it('stops checking passwords for an account guessed from many addresses', async () => {
    const { account } = await personWithPassword();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++) {
      const from = `10.1.${Math.floor(i / SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS)}.1`;
      expect((await passwordSession(account.user.email, `wrong guess ${i}`, from)).statusCode).toBe(401);
    }
    expect((await passwordSession(account.user.email, GOOD_PASSWORD, '10.1.200.1')).statusCode).toBe(429);
    // One address alone could not have done it: it is stopped first, at fewer failures than the account's bound.
    expect(SIGN_IN_FAILURES_PER_ADDRESS).toBeLessThan(SIGN_IN_FAILURES_PER_ACCOUNT);
  });

  it('stops an address that guesses across many accounts', async () => {
    const { account } = await personWithPassword();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++) {
      const wrong = await passwordSession(`guess${i}@example.test`, GOOD_PASSWORD, '10.0.3.1');
      expect(wrong.statusCode).toBe(401);
    }
    expect((await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.3.1')).statusCode).toBe(429);
    // Another address is not held back by it.
    expect((await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.3.2')).statusCode).toBe(303);
  });

  it('is refused to members of an organization that signs its members in through SSO', async () => {
    const { account } = await personWithPassword();
    const organization = await t.factory.organization(account.user.id);
    await t.db.updateTable('organizations').set({ sso: true }).where('id', '=', organization.id).execute();
    const refused = await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.4.1');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('through its identity provider');
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Said only to whoever knows the password: a wrong one is the same 401 as anyone's.
    expect((await passwordSession(account.user.email, 'not the password at all', '10.0.4.1')).statusCode).toBe(401);

    // Once the organization stops enforcing it, the password works again.
    await t.db.updateTable('organizations').set({ sso: false }).where('id', '=', organization.id).execute();
    expect((await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.4.1')).statusCode).toBe(303);
  });
});

describe('sessions', () => {
  it('are listed to their user, who may end one, all others, or this one', async () => {
    const { account, cookie: tokenCookie } = await personWithPassword();
    const first = cookieOf(await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.5.1'));
    const second = cookieOf(await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.5.2'));

    const sessions = await t.db
      .selectFrom('app_sessions')
      .select(['id', 'signed_in_with'])
      .where('user_id', '=', account.user.id)
      .orderBy('created_at')
      .execute();
    expect(sessions.map((session) => session.signed_in_with)).toEqual(['token', 'password', 'password']);
    const page = await read('/app/account', first);
    for (const session of sessions) expect(page.body).toContain(`value="${session.id}"`);

    // Another user cannot end them, even knowing their ids.
    const stranger = await tokenSession(await t.factory.account());
    const notTheirs = await post('/app/account/sessions/end', { id: sessions[2]!.id }, { cookie: stranger });
    expect(notTheirs.statusCode).toBe(404);
    expect((await read('/app/account', second)).statusCode).toBe(200);

    // The first ends the second: its cookie opens nothing, its token is gone.
    const ended = await post('/app/account/sessions/end', { id: sessions[2]!.id }, { cookie: first });
    expect(ended.statusCode).toBe(200);
    expect(ended.body).toContain('The session is ended.');
    expect((await read('/app/account', second)).statusCode).toBe(302);
    const passwordTokens = () =>
      t.db
        .selectFrom('api_tokens')
        .select('id')
        .where('user_id', '=', account.user.id)
        .where('kind', '=', 'session')
        .execute();
    expect(await passwordTokens()).toHaveLength(1);

    // Every other: the token's session ends, the API token itself stays.
    const others = await post('/app/account/sessions/end-others', {}, { cookie: first });
    expect(others.body).toContain('1 other session is ended.');
    expect((await read('/app/account', tokenCookie)).statusCode).toBe(302);
    expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: account.headers })).statusCode).toBe(200);

    // This one: signed out.
    const own = sessions[1]!.id;
    const out = await post('/app/account/sessions/end', { id: own }, { cookie: first });
    expect(out.statusCode).toBe(303);
    expect((await read('/app/account', first)).statusCode).toBe(302);
    expect(await passwordTokens()).toEqual([]);
  });

  it('opened with the old password end when it changes; the changing one stays', async () => {
    const { account } = await personWithPassword();
    const kept = cookieOf(await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.6.1'));
    const stolen = cookieOf(await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.6.2'));
    const next = 'a different phrase entirely';
    const changed = await post(
      '/app/account/password',
      { current: GOOD_PASSWORD, password: next, confirm: next },
      { cookie: kept },
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('Your password is changed. 1 other session is ended.');
    expect((await read('/app/account', stolen)).statusCode).toBe(302);
    expect((await read('/app/account', kept)).statusCode).toBe(200);
    expect((await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.6.3')).statusCode).toBe(401);
    expect((await passwordSession(account.user.email, next, '10.0.6.3')).statusCode).toBe(303);
  });
});

describe('identities of providers', () => {
  /** Links an identity to the account, as a first sign-in through a provider does. */
  const link = (userId: string, issuer: string, subject: string) =>
    t.db
      .insertInto('user_identities')
      .values({ issuer, subject, user_id: userId, created_at: new Date(), last_signed_in_at: new Date() })
      .execute();
  const identitiesOf = (userId: string) =>
    t.db
      .selectFrom('user_identities')
      .select(['issuer', 'subject'])
      .where('user_id', '=', userId)
      .orderBy('issuer')
      .execute();

  it('are listed on the account page, and unlinked by their person, never the last way into an account without a password', async () => {
    const account = await t.factory.account();
    const other = await t.factory.account();
    await link(account.user.id, 'https://id.example.test', 'ada-1');
    await link(other.user.id, 'https://id.example.test', 'grace-1');
    const cookie = await tokenSession(account);
    const page = (await read('/app/account', cookie)).body;
    expect(page).toContain('<h2>Identity providers</h2>');
    expect(page).toContain('As ada-1, last on');
    expect(page).not.toContain('grace-1');
    // No password, one identity: it stays, and the page offers no Unlink.
    expect(page).toContain('set a password before you unlink it');
    const kept = await post(
      '/app/account/identities/unlink',
      { issuer: 'https://id.example.test', subject: 'ada-1' },
      { cookie },
    );
    expect(kept.statusCode).toBe(409);
    expect(await identitiesOf(account.user.id)).toHaveLength(1);

    // Another person's identity, or one from another site, is not theirs to unlink.
    const foreign = await post(
      '/app/account/identities/unlink',
      { issuer: 'https://id.example.test', subject: 'grace-1' },
      { cookie },
    );
    expect(foreign.statusCode).toBe(404);
    expect(await identitiesOf(other.user.id)).toHaveLength(1);
    const elsewhere = await post(
      '/app/account/identities/unlink',
      { issuer: 'https://id.example.test', subject: 'ada-1' },
      { cookie, origin: 'https://evil.example' },
    );
    expect(elsewhere.statusCode).toBe(403);

    // With a second way in, either identity may go, and the page says so.
    await link(account.user.id, 'saml:nope', 'ada@acme.test');
    const twice = await Promise.all(
      ['ada-1', 'ada@acme.test'].map((subject, index) =>
        post(
          '/app/account/identities/unlink',
          { issuer: index === 0 ? 'https://id.example.test' : 'saml:nope', subject },
          { cookie },
        ),
      ),
    );
    // Two unlinks at once of a passwordless account's two identities: one goes, the other stays.
    expect(twice.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(await identitiesOf(account.user.id)).toHaveLength(1);

    const set = await post('/app/account/password', { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD }, { cookie });
    expect(set.statusCode, set.body).toBe(200);
    const [left] = await identitiesOf(account.user.id);
    const unlinked = await post(
      '/app/account/identities/unlink',
      { issuer: left!.issuer, subject: left!.subject },
      { cookie },
    );
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.body).toContain('The identity is unlinked.');
    expect(await identitiesOf(account.user.id)).toEqual([]);
    expect(unlinked.body).not.toContain('Identity providers');
  });
});

describe('a forgotten password', () => {
  const m = useMailingApp();

  const ask = (email: string, from = '10.0.7.1') => post('/app/password-reset', { email }, { on: m.app, from });
  const linkIn = (mail: string) => /http:\/\/docs\.test\/app\/password-reset\/([\w-]{43})/.exec(mail)?.[1];

  it('mails a one-time link to a proven address, which sets a new password and signs out the old one', async () => {
    const { account } = await personWithPassword();
    await t.db.updateTable('users').set({ email_verified_at: new Date() }).where('id', '=', account.user.id).execute();
    const old = cookieOf(await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.7.9'));

    const asked = await ask(account.user.email.toUpperCase());
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('a link to set a new password is on its way');
    const secret = linkIn(await m.smtp.mailTo(account.user.email));
    expect(secret).toBeDefined();
    // Kept only as a hash.
    const stored = await t.db
      .selectFrom('account_links')
      .select('id_hash')
      .where('user_id', '=', account.user.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id_hash.toString('base64url')).not.toBe(secret);

    const form = await m.app.inject({ method: 'GET', url: `/app/password-reset/${secret}` });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`For ${account.user.email}`);

    const mismatch = await post(
      '/app/password-reset/' + secret,
      { password: 'one new phrase here', confirm: 'another' },
      { on: m.app },
    );
    expect(mismatch.statusCode).toBe(400);
    const next = 'the phrase after forgetting';
    const set = await post('/app/password-reset/' + secret, { password: next, confirm: next }, { on: m.app });
    expect(set.statusCode).toBe(200);
    expect(set.body).toContain('Your new password is set');
    expect((await read('/app/account', old)).statusCode).toBe(302);
    expect((await passwordSession(account.user.email, GOOD_PASSWORD, '10.0.7.9')).statusCode).toBe(401);
    expect((await passwordSession(account.user.email, next, '10.0.7.9')).statusCode).toBe(303);

    // Used once: the link opens nothing again.
    const again = await post(
      '/app/password-reset/' + secret,
      { password: 'a third phrase, later', confirm: 'a third phrase, later' },
      { on: m.app },
    );
    expect(again.statusCode).toBe(404);
    expect((await passwordSession(account.user.email, next, '10.0.7.9')).statusCode).toBe(303);
  });

  it('answers alike for an unknown or unproven address, and mails neither', async () => {
    const unproven = await t.factory.account({ verified: false });
    const before = m.smtp.received.length;
    for (const email of ['nobody-at-all@example.test', unproven.user.email]) {
      const asked = await ask(email, '10.0.8.1');
      expect(asked.statusCode).toBe(200);
      expect(asked.body).toContain(`If an account has the address ${email}`);
    }
    // A proven address asked after them is mailed, and is the only one.
    const proven = await t.factory.account({ verified: true });
    await ask(proven.user.email, '10.0.8.1');
    await m.smtp.mailTo(proven.user.email);
    expect(m.smtp.received.slice(before).map((mail) => mail.to)).toEqual([[proven.user.email]]);
    expect(
      await t.db.selectFrom('account_links').select('user_id').where('user_id', '=', unproven.user.id).execute(),
    ).toEqual([]);
  });

  it('keeps only the newest link, refuses expired and made-up ones, and limits asks per account', async () => {
    const proven = await t.factory.account({ verified: true });
    await ask(proven.user.email, '10.0.9.1');
    const first = linkIn(await m.smtp.mailTo(proven.user.email))!;
    m.smtp.received.splice(0);
    await ask(proven.user.email, '10.0.9.2');
    const second = linkIn(await m.smtp.mailTo(proven.user.email))!;
    expect(second).not.toBe(first);
    expect((await m.app.inject({ method: 'GET', url: `/app/password-reset/${first}` })).statusCode).toBe(404);
    expect((await m.app.inject({ method: 'GET', url: `/app/password-reset/${second}` })).statusCode).toBe(200);
    expect((await m.app.inject({ method: 'GET', url: `/app/password-reset/${'x'.repeat(43)}` })).statusCode).toBe(404);
    expect((await m.app.inject({ method: 'GET', url: '/app/password-reset/short' })).statusCode).toBe(400);

    await t.db
      .updateTable('account_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', proven.user.id)
      .execute();
    const expired = await post(
      '/app/password-reset/' + second,
      { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD },
      { on: m.app },
    );
    expect(expired.statusCode).toBe(404);
    expect(await passwordRow(proven.user.id)).toBeUndefined();

    // A third ask in the hour is the last; the fourth waits, from any address.
    expect((await ask(proven.user.email, '10.0.9.3')).statusCode).toBe(200);
    const limited = await ask(proven.user.email, '10.0.9.4');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('says what to do instead where the service sends no mail', async () => {
    const page = await read('/app/password-reset');
    expect(page.body).toContain('This service sends no e-mail');
    const asked = await post('/app/password-reset', { email: 'someone@example.test' });
    expect(asked.statusCode).toBe(404);
  });
});

describe('proving an address', () => {
  const m = useMailingApp();

  const linkIn = (mail: string) => /http:\/\/docs\.test\/app\/email-proof\/([\w-]{43})/.exec(mail)?.[1];
  const verifiedAt = async (userId: string) =>
    (await t.db.selectFrom('users').select('email_verified_at').where('id', '=', userId).executeTakeFirstOrThrow())
      .email_verified_at;

  it('mails the signed-in person a link whose confirmation, not its opening, proves the address', async () => {
    const person = await t.factory.account({ verified: false });
    const signedIn = await post('/app/sign-in', { token: person.token }, { on: m.app });
    const cookie = cookieOf(signedIn);
    const account = await m.app.inject({ method: 'GET', url: '/app/account', headers: { cookie } });
    expect(account.body).toContain('is not proven yet');

    const asked = await post('/app/account/email-proof', {}, { on: m.app, cookie });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain(`A link is on its way to ${person.user.email}`);
    const secret = linkIn(await m.smtp.mailTo(person.user.email))!;
    expect(secret).toBeDefined();

    // Opening it (a mail scanner does) proves nothing.
    const opened = await m.app.inject({ method: 'GET', url: `/app/email-proof/${secret}` });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain(`Prove that ${person.user.email} is your address.`);
    expect(await verifiedAt(person.user.id)).toBeNull();

    const forged = await post(`/app/email-proof/${secret}`, {}, { on: m.app, origin: 'https://attacker.example' });
    expect(forged.statusCode).toBe(403);
    expect(await verifiedAt(person.user.id)).toBeNull();

    const proven = await post(`/app/email-proof/${secret}`, {}, { on: m.app });
    expect(proven.statusCode).toBe(200);
    expect(proven.body).toContain(`${person.user.email} is proven.`);
    expect(await verifiedAt(person.user.id)).toBeInstanceOf(Date);
    // Once only.
    expect((await post(`/app/email-proof/${secret}`, {}, { on: m.app })).statusCode).toBe(404);

    const after = await m.app.inject({ method: 'GET', url: '/app/account', headers: { cookie } });
    expect(after.body).toContain('is proven: its mailbox, or the operator of this service, vouched for it.');
  });

  it('is not a password reset link, nor the other way round', async () => {
    const person = await t.factory.account({ verified: false });
    const cookie = cookieOf(await post('/app/sign-in', { token: person.token }, { on: m.app }));
    await post('/app/account/email-proof', {}, { on: m.app, cookie });
    const secret = linkIn(await m.smtp.mailTo(person.user.email))!;
    const asReset = await post(
      `/app/password-reset/${secret}`,
      { password: GOOD_PASSWORD, confirm: GOOD_PASSWORD },
      { on: m.app },
    );
    expect(asReset.statusCode).toBe(404);
    expect(await passwordRow(person.user.id)).toBeUndefined();
  });

  it('says the operator can prove it where the service sends no mail', async () => {
    const person = await t.factory.account({ verified: false });
    const cookie = await tokenSession(person);
    expect((await read('/app/account', cookie)).body).toContain(
      'This service sends no e-mail: its operator can prove it',
    );
    const asked = await post('/app/account/email-proof', {}, { cookie });
    expect(asked.body).toContain('This service sends no e-mail');
    expect(await verifiedAt(person.user.id)).toBeNull();
  });
});
