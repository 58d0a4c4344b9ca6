import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Clock } from '../src/core/clock.js';
import { WorkPool } from '../src/core/work-pool.js';
import { samlAssertionPool } from '../src/sso/saml-client.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { ownBuiltThreads } from './support/threads.js';
import { IDP, OTHER_IDP, requestIdOf, samlResponse, type Assertion } from './support/saml-idp.js';

/** The service's time, which a test may move forward. */
let skew = 0;
const clock: Clock = { now: () => new Date(Date.now() + skew) };
const t = useTestApp({ clock });

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';
const IDP_ENTITY = 'https://idp.acme.test/saml';

interface Provider {
  id: string;
  organizationId: string;
  admin: Account;
  service: { acsURL: string; startURL: string; entityID: string };
}

/**
 * An organization with an active SAML provider whose assertions IDP signs,
 * made through the API; with `domain`, an organization that has proven that
 * e-mail domain (its admin's address is there, and verified).
 */
async function organizationWithProvider(fields: Record<string, unknown> = {}, domain?: string): Promise<Provider> {
  const admin = await t.factory.account(domain ? { email: `admin-${randomUUID()}@${domain}`, verified: true } : {});
  const organization = await t.factory.organization(admin.user.id, { title: `Org of ${domain ?? 'no domain'}` });
  if (domain) {
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${organization.id}`,
      headers: admin.headers,
      payload: { emailDomains: [domain] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
  }
  const created = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organization.id}/saml`,
    headers: admin.headers,
    payload: {
      label: 'Acme IdP',
      entityID: IDP_ENTITY,
      ssoURL: 'https://idp.acme.test/sso',
      certificate: IDP.certificate,
      defaultRole: 'edit',
      ...fields,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json();
  expect(body.status).toBe('active');
  return { id: body.id, organizationId: organization.id, admin, service: body.service };
}

/** The `name=value` of the cookie named `name` an answer sets; empty when it sets none. */
function cookieOf(response: { headers: Record<string, unknown> }, name: string): string {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? (header as string[]) : typeof header === 'string' ? [header] : [];
  return all.map((cookie) => cookie.split(';')[0]!).find((pair) => pair.startsWith(`${name}=`)) ?? '';
}

/** Starts a sign-in at the provider's start URL: the request's id, and the pending sign-in's cookie. */
async function start(provider: Provider, next?: string) {
  const path = new URL(provider.service.startURL).pathname;
  const started = await t.app.inject({
    method: 'GET',
    url: `${path}${next ? `?next=${encodeURIComponent(next)}` : ''}`,
  });
  expect(started.statusCode, started.body).toBe(302);
  const location = String(started.headers.location);
  expect(location.startsWith('https://idp.acme.test/sso?SAMLRequest=')).toBe(true);
  return { requestId: requestIdOf(location), pending: cookieOf(started, 'quire_saml'), setCookie: started.headers };
}

/** The provider's answer, posted to the ACS from the provider's page. */
function post(provider: Provider, response: string, cookie: string) {
  return t.app.inject({
    method: 'POST',
    url: new URL(provider.service.acsURL).pathname,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://idp.acme.test',
      'user-agent': BROWSER,
      ...(cookie ? { cookie } : {}),
    },
    payload: new URLSearchParams({ SAMLResponse: response, RelayState: '' }).toString(),
  });
}

/** An assertion for the provider, answering `requestId`. */
const assertion = (provider: Provider, requestId: string, fields: Partial<Assertion>): Assertion => ({
  issuer: IDP_ENTITY,
  audience: provider.service.entityID,
  acs: provider.service.acsURL,
  inResponseTo: requestId,
  nameId: 'acme-0001',
  ...fields,
});

/** A whole sign-in: the ACS's answer. */
async function signIn(provider: Provider, fields: Partial<Assertion>, next?: string) {
  const { requestId, pending } = await start(provider, next);
  return post(provider, samlResponse(assertion(provider, requestId, fields)), pending);
}

const memberships = (userId: string) =>
  t.db.selectFrom('organization_members').selectAll().where('user_id', '=', userId).execute();
const userByEmail = (email: string) =>
  t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
const sessionsOf = (userId: string) =>
  t.db.selectFrom('app_sessions').selectAll().where('user_id', '=', userId).execute();

describe('signing in through an organization’s SAML provider', () => {
  it('publishes this service’s metadata for the provider at its entity id', async () => {
    const provider = await organizationWithProvider();
    const metadata = await t.app.inject({ method: 'GET', url: new URL(provider.service.entityID).pathname });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain(`entityID="${provider.service.entityID}"`);
    expect(metadata.body).toContain(`Location="${provider.service.acsURL}"`);
    expect(metadata.body).toContain('WantAssertionsSigned="true"');
  });

  it('sends the person to the provider with a request, whose id waits sealed in a cookie of the provider’s path', async () => {
    const provider = await organizationWithProvider();
    const { requestId, setCookie } = await start(provider);
    expect(requestId).toMatch(/^_[0-9a-f]{40}$/);
    const cookie = String(setCookie['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^quire_saml=[^;]+; Max-Age=600; Path=/sso/saml/${provider.id}; HttpOnly$`));
    expect(cookie).not.toContain(requestId);
  });

  it('makes a member of a first-timer, with the provider’s default role and team, and a session bound to the organization', async () => {
    const provider = await organizationWithProvider();
    const teamMade = await t.app.inject({
      method: 'PUT',
      url: `/v1/orgs/${provider.organizationId}/teams`,
      headers: provider.admin.headers,
      payload: { title: 'Writers' },
    });
    expect(teamMade.statusCode, teamMade.body).toBe(201);
    const teamId = teamMade.json().id as string;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${provider.organizationId}/saml/${provider.id}`,
      headers: provider.admin.headers,
      payload: { defaultTeam: teamId },
    });
    expect(patched.statusCode, patched.body).toBe(200);

    const signedIn = await signIn(
      provider,
      { nameId: 'ada-1', attributes: { email: 'Ada@Acme.test', displayName: 'Ada Lovelace' } },
      '/app/account',
    );
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    expect(signedIn.headers.location).toBe('/app/account');
    const session = cookieOf(signedIn, 'quire_session');
    expect(session).not.toBe('');
    expect(String(signedIn.headers['set-cookie'])).toContain('quire_saml=;');

    const user = (await userByEmail('ada@acme.test'))!;
    expect(user).toMatchObject({ display_name: 'Ada Lovelace', email_verified_at: null });
    expect(await memberships(user.id)).toMatchObject([
      { organization_id: provider.organizationId, role: 'edit', sso: true, disabled: false },
    ]);
    expect(await t.db.selectFrom('team_members').select('team_id').where('user_id', '=', user.id).execute()).toEqual([
      { team_id: teamId },
    ]);
    const [row] = await sessionsOf(user.id);
    expect(row).toMatchObject({ signed_in_with: 'saml', user_agent: BROWSER });
    const token = await t.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', row!.token_id)
      .executeTakeFirstOrThrow();
    expect(token).toMatchObject({ kind: 'session', organization_id: provider.organizationId });
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['action', 'organization_id'])
      .where('organization_id', '=', provider.organizationId)
      .where('action', '=', 'member.added')
      .execute();
    expect(audit.length).toBeGreaterThan(0);

    // The session reads the organization, and cannot set a password (the provider does not speak for all of the account).
    const home = await t.app.inject({ method: 'GET', url: '/app', headers: { cookie: session } });
    expect(home.statusCode).toBe(200);
    const account = await t.app.inject({ method: 'GET', url: '/app/account', headers: { cookie: session } });
    expect(account.body).toContain('Signed in through your organization’s SAML provider');
    const password = await t.app.inject({
      method: 'POST',
      url: '/app/account/password',
      headers: { cookie: session, origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=a%20long%20walk%20through%20the%20archive&confirm=a%20long%20walk%20through%20the%20archive',
    });
    expect(password.statusCode).toBe(403);

    // A later sign-in goes by the identity, whatever address the provider sends then.
    const again = await signIn(provider, { nameId: 'ada-1', attributes: { email: 'someone-else@acme.test' } });
    expect(again.statusCode, again.body).toBe(303);
    expect(await sessionsOf(user.id)).toHaveLength(2);
    expect(await userByEmail('someone-else@acme.test')).toBeUndefined();
  });

  it('opens an invited member’s account by its address, and marks the member as signed in through SSO', async () => {
    const provider = await organizationWithProvider();
    const member = await t.factory.account({ email: 'grace@acme.test' });
    await t.factory.member(provider.organizationId, member.user.id, 'review');
    const signedIn = await signIn(provider, { nameId: 'grace-7', attributes: { mail: 'grace@acme.test' } });
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    expect(await memberships(member.user.id)).toMatchObject([{ role: 'review', sso: true }]);
    expect(
      await t.db.selectFrom('user_identities').selectAll().where('user_id', '=', member.user.id).execute(),
    ).toMatchObject([{ issuer: `saml:${provider.id}`, subject: 'grace-7' }]);

    // Deleting the provider forgets the identities it linked.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/orgs/${provider.organizationId}/saml/${provider.id}`,
      headers: provider.admin.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      await t.db.selectFrom('user_identities').selectAll().where('user_id', '=', member.user.id).execute(),
    ).toEqual([]);
  });

  it('never opens an account that is not the organization’s alone', async () => {
    const provider = await organizationWithProvider();
    // An account elsewhere, not a member here: the provider may name its address, and opens nothing.
    const outsider = await t.factory.account({ email: 'victim@bank.test' });
    const named = await signIn(provider, { nameId: 'x-1', attributes: { email: 'victim@bank.test' } });
    expect(named.statusCode).toBe(403);
    expect(named.body).toContain('an admin of the organization invites it first');
    expect(await memberships(outsider.user.id)).toHaveLength(0);
    expect(await sessionsOf(outsider.user.id)).toHaveLength(0);

    // A member here who belongs to another organization too.
    const both = await t.factory.account({ email: 'both@acme.test' });
    await t.factory.member(provider.organizationId, both.user.id, 'read');
    const elsewhere = await t.factory.team();
    await t.factory.member(elsewhere.organization.id, both.user.id, 'read');
    const refused = await signIn(provider, { nameId: 'both-1', attributes: { email: 'both@acme.test' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('belongs to other organizations too');
    expect(await sessionsOf(both.user.id)).toHaveLength(0);
    expect(
      await t.db.selectFrom('user_identities').select('subject').where('subject', '=', 'both-1').execute(),
    ).toEqual([]);

    // A disabled member.
    const disabled = await t.factory.account({ email: 'gone@acme.test' });
    await t.factory.member(provider.organizationId, disabled.user.id, 'read');
    await t.db
      .updateTable('organization_members')
      .set({ disabled: true })
      .where('user_id', '=', disabled.user.id)
      .execute();
    expect((await signIn(provider, { nameId: 'gone-1', attributes: { email: 'gone@acme.test' } })).statusCode).toBe(
      403,
    );
  });

  it('keeps each provider’s identities apart: another organization claiming the same entity id opens none of them', async () => {
    const victim = await organizationWithProvider();
    const first = await signIn(victim, { nameId: 'ceo', attributes: { email: 'ceo@victim.test' } });
    expect(first.statusCode, first.body).toBe(303);
    const ceo = (await userByEmail('ceo@victim.test'))!;

    // The attacker's own organization, its provider claiming the victim's entity id and signing with a key of its own.
    const attacker = await organizationWithProvider({ certificate: OTHER_IDP.certificate });
    const { requestId, pending } = await start(attacker);
    const answer = samlResponse({
      ...assertion(attacker, requestId, { nameId: 'ceo', attributes: { email: 'ceo@victim.test' } }),
      signer: OTHER_IDP,
    });
    const refused = await post(attacker, answer, pending);
    expect(refused.statusCode).toBe(403);
    expect(await sessionsOf(ceo.id)).toHaveLength(1);
    expect(await memberships(ceo.id)).toHaveLength(1);
  });

  it('refuses an assertion that is unsigned, signed with another key, for another service, or too old', async () => {
    const provider = await organizationWithProvider();
    const cases: Array<[string, Partial<Assertion>]> = [
      ['unsigned', { signer: false }],
      ['another key', { signer: OTHER_IDP }],
      ['another audience', { audience: 'https://elsewhere.test/saml' }],
      ['another issuer', { issuer: 'https://idp.elsewhere.test' }],
      ['expired', { issuedAt: new Date(Date.now() - 10 * 60_000) }],
    ];
    for (const [name, fields] of cases) {
      const answer = await signIn(provider, {
        nameId: `bad-${name}`,
        attributes: { email: 'bad@acme.test' },
        ...fields,
      });
      expect(answer.statusCode, name).toBe(401);
      expect(answer.body, name).toContain('could not be verified');
    }
    expect(await userByEmail('bad@acme.test')).toBeUndefined();
  });

  it('checks the answer on a worker thread within a deadline: one past it is refused, and signs no one in', async () => {
    const provider = await organizationWithProvider();
    const conversion = t.app.context.config.conversion;
    const kept = t.app.context.workPools.saml;
    // The app's own pool, but with no time at all: the large answer's parse and signature check cannot finish in it.
    const hurried = new WorkPool({
      ...samlAssertionPool(conversion, () => undefined),
      timeoutMs: 0,
      msPerKib: 0,
      threadSource: ownBuiltThreads,
    });
    const sent = vi.spyOn(hurried, 'run');
    t.app.context.workPools.saml = hurried;
    try {
      const large = { email: 'slow@acme.test', note: 'x'.repeat(120_000) };
      const answer = await signIn(provider, { nameId: 'slow-1', attributes: large });
      expect(answer.statusCode, answer.body).toBe(401);
      expect(answer.body).toContain('could not be verified');
      expect(sent).toHaveBeenCalledTimes(1);
      expect(sent.mock.calls[0]![0]).toBe('checkAssertion');
      await expect(sent.mock.results[0]!.value).rejects.toThrow(/took longer than 0 ms/);
      expect(await userByEmail('slow@acme.test')).toBeUndefined();
    } finally {
      t.app.context.workPools.saml = kept;
      await hurried.close();
    }
    // The app's pool takes the same answer.
    const answer = await signIn(provider, {
      nameId: 'slow-1',
      attributes: { email: 'slow@acme.test', note: 'x'.repeat(120_000) },
    });
    expect(answer.statusCode, answer.body).toBe(303);
    expect(await userByEmail('slow@acme.test')).toBeDefined();
  });

  it('finishes only the sign-in this browser started, within ten minutes (no login CSRF, no IdP-initiated sign-in)', async () => {
    const provider = await organizationWithProvider();
    const fields = { nameId: 'csrf-1', attributes: { email: 'csrf@acme.test' } };
    const theirs = await start(provider);
    const answer = samlResponse(assertion(provider, theirs.requestId, fields));

    // No pending sign-in in this browser.
    const noCookie = await post(provider, answer, '');
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.body).toContain('was not started in this browser');
    // A pending sign-in of this browser's own: the answer names another request.
    const mine = await start(provider);
    expect((await post(provider, answer, mine.pending)).statusCode).toBe(401);
    // An IdP-initiated answer names no request.
    const unsolicited = samlResponse({ ...assertion(provider, '', fields), inResponseTo: undefined });
    expect((await post(provider, unsolicited, mine.pending)).statusCode).toBe(401);
    // A pending sign-in of another provider.
    const other = await organizationWithProvider();
    const elsewhere = await start(other);
    expect((await post(provider, answer, elsewhere.pending)).statusCode).toBe(400);
    // Too late.
    skew = 601_000;
    try {
      expect((await post(provider, answer, theirs.pending)).statusCode).toBe(400);
    } finally {
      skew = 0;
    }
    expect(await userByEmail('csrf@acme.test')).toBeUndefined();
  });

  it('answers 404 for a provider that is unknown or not set up, and refuses a malformed post', async () => {
    const { admin, organization } = await t.factory.team();
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/saml`,
      headers: admin.headers,
      payload: { label: 'Half done' },
    });
    const pending = created.json();
    expect(pending.status).toBe('pending');
    expect((await t.app.inject({ method: 'GET', url: new URL(pending.service.startURL).pathname })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: '/sso/saml/nope/start' })).statusCode).toBe(404);
    const provider = await organizationWithProvider();
    const { pending: cookie } = await start(provider);
    expect((await post(provider, 'not base64 at all <xml>', cookie)).statusCode).toBe(401);
    const empty = await t.app.inject({
      method: 'POST',
      url: new URL(provider.service.acsURL).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      payload: 'RelayState=x',
    });
    expect(empty.statusCode).toBe(400);
  });

  it('finds the providers of the organizations that proved an address’s domain, from the sign-in page', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/app?next=/app/account' });
    expect(page.body).toContain('<form action="http://docs.test/app/sign-in/sso" method="get">');

    const one = await organizationWithProvider({ label: 'Only' }, 'solo.test');
    const found = await t.app.inject({
      method: 'GET',
      url: '/app/sign-in/sso?email=Ada%40Solo.test&next=/app/account',
    });
    expect(found.statusCode).toBe(302);
    expect(found.headers.location).toBe(`${one.service.startURL}?next=%2Fapp%2Faccount`);

    const first = await organizationWithProvider({ label: 'Okta' }, 'twice.test');
    const second = await organizationWithProvider({ label: 'Entra' }, 'twice.test');
    const choice = await t.app.inject({ method: 'GET', url: '/app/sign-in/sso?email=ada%40twice.test' });
    expect(choice.statusCode).toBe(200);
    expect(choice.body).toContain(`href="${first.service.startURL}"`);
    expect(choice.body).toContain(`href="${second.service.startURL}"`);

    // A domain listed but not proven (no admin has a verified address there) names no provider.
    const claimed = await organizationWithProvider({ label: 'Claimed' });
    await t.db
      .updateTable('organizations')
      .set({ email_domains: ['bank.test'] })
      .where('id', '=', claimed.organizationId)
      .execute();
    const none = await t.app.inject({ method: 'GET', url: '/app/sign-in/sso?email=ceo%40bank.test' });
    expect(none.statusCode).toBe(404);
    expect(none.body).toContain('No organization here signs in people at bank.test through SAML');
    expect(none.body).not.toContain(claimed.service.startURL);

    const bad = await t.app.inject({ method: 'GET', url: '/app/sign-in/sso?email=no-at-sign' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('text/html');
  });
});
