import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOwnApp, listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';
import { smtpServer } from './support/smtp.js';

/**
 * Invitations by e-mail and the tokens an admin hands over, as an attacker
 * would use them: an ordinary user who starts an organization of their own
 * (anyone may) and invites, issues and waits, against a company that later
 * invites the same address. `t.app` has no SMTP server, so inviting admins
 * are shown the accept links; `mailing` sends them to a real SMTP server on
 * 127.0.0.1 and reads what it received.
 */

const t = useTestApp();

let smtp: Awaited<ReturnType<typeof smtpServer>>;
let refusing: Awaited<ReturnType<typeof smtpServer>>;
/** The same service with SMTP: invitations go by mail. */
let mailing: FastifyInstance;
let failing: FastifyInstance;

beforeAll(async () => {
  smtp = await smtpServer();
  refusing = await smtpServer(true);
  const from = 'Quire <no-reply@docs.test>';
  mailing = await buildOwnApp(testConfig(t.database.url, { mail: { smtpUrl: smtp.url, from } }));
  failing = await buildOwnApp(testConfig(t.database.url, { mail: { smtpUrl: refusing.url, from } }));
  await Promise.all([mailing.ready(), failing.ready()]);
});

afterAll(async () => {
  await Promise.all([mailing?.close(), failing?.close()]);
  await Promise.all([smtp?.close(), refusing?.close()]);
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

function call(account: Account | { token: string } | null, method: Method, url: string, payload?: object) {
  return callOn(t.app, account, method, url, payload);
}

function callOn(
  app: FastifyInstance,
  account: Account | { token: string } | null,
  method: Method,
  url: string,
  payload?: object,
) {
  return app.inject({
    method,
    url,
    ...(account ? { headers: { authorization: `Bearer ${account.token}` } } : {}),
    ...(payload ? { payload } : {}),
  });
}

/** An ordinary user's organization, made as they would: over HTTP with their own token. */
async function organizationOf(account: Account, fields: object = {}): Promise<string> {
  const res = await call(account, 'POST', '/v1/orgs', { title: 'Organization', ...fields });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** The invitation's id and secret from an accept link. */
function parts(url: string) {
  const link = new URL(url);
  const [, , , organizationId, , invitationId] = link.pathname.split('/');
  return { organizationId: organizationId!, invitationId: invitationId!, secret: link.searchParams.get('secret')! };
}

const acceptPath = (link: { organizationId: string; invitationId: string }) =>
  `/v1/orgs/${link.organizationId}/email-invites/${link.invitationId}/accept`;

async function members(organizationId: string) {
  return t.db
    .selectFrom('organization_members')
    .select(['user_id', 'role'])
    .where('organization_id', '=', organizationId)
    .orderBy('user_id')
    .execute();
}

const usersWithEmail = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).execute();

describe('the attack through an invitation and an issued token', () => {
  it('an invitation makes no user and no membership, so the inviting admin has no one to issue a token to', async () => {
    const attacker = await t.factory.account();
    const bait = await organizationOf(attacker);
    const res = await call(attacker, 'POST', `/v1/orgs/${bait}/invites`, { emails: ['ceo@victim-corp.example'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ users: [], invited: 1 });

    expect(await usersWithEmail('ceo@victim-corp.example')).toEqual([]);
    expect((await members(bait)).map((m) => m.user_id)).toEqual([attacker.user.id]);
    // Nothing to issue a token to: not the invitation's id, not anything else.
    const invitationId = res.json().acceptLinks[0].invitation;
    const issue = await call(attacker, 'POST', `/v1/orgs/${bait}/members/${invitationId}/tokens`, {});
    expect([issue.statusCode, issue.json().error.message]).toEqual([404, 'No member with this id in the organization']);
    expect(await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', invitationId).execute()).toEqual([]);
  });

  it('a link the inviting admin was shown makes an account whose address proves nothing: it lists and joins no organization of its domain', async () => {
    const company = await t.factory.account({ email: 'it@squat-corp.example', verified: true });
    const corp = await organizationOf(company, { emailDomains: ['squat-corp.example'] });
    const attacker = await t.factory.account();
    const bait = await organizationOf(attacker);
    const invited = await call(attacker, 'POST', `/v1/orgs/${bait}/invites`, { emails: ['cfo@squat-corp.example'] });
    const link = parts(invited.json().acceptLinks[0].url);
    const accepted = await call(null, 'POST', acceptPath(link), { secret: link.secret });
    expect(accepted.statusCode).toBe(200);
    const squatter = { token: accepted.json().token.token as string };

    const [account] = await usersWithEmail('cfo@squat-corp.example');
    expect(account!.email_verified_at).toBeNull();
    const listing = await call(squatter, 'GET', '/v1/email-domains/squat-corp.example/orgs');
    expect([listing.statusCode, listing.json()]).toEqual([200, { organizations: [] }]);
    const join = await call(squatter, 'POST', `/v1/orgs/${corp}/join`);
    expect(join.statusCode).toBe(400);
    expect(join.json().error.message).toContain('not verified');
    expect((await members(corp)).map((m) => m.user_id)).toEqual([company.user.id]);

    // The company's own invitation to that address later: the squatter holds no secret of it, and the
    // account's token alone accepts nothing.
    const later = await callOn(mailing, company, 'POST', `/v1/orgs/${corp}/invites`, {
      emails: [{ email: 'cfo@squat-corp.example', role: 'admin' }],
    });
    expect(later.json()).toEqual({ users: [], invited: 1 });
    const [pending] = await t.db
      .selectFrom('organization_email_invitations')
      .select(['id'])
      .where('organization_id', '=', corp)
      .execute();
    const guessed = await call(squatter, 'POST', acceptPath({ organizationId: corp, invitationId: pending!.id }), {
      secret: link.secret,
    });
    expect(guessed.statusCode).toBe(404);
    expect((await call(squatter, 'GET', `/v1/orgs/${corp}`)).statusCode).toBe(404);
    expect((await members(corp)).map((m) => m.user_id)).toEqual([company.user.id]);
    expect(
      await t.db
        .selectFrom('organization_email_invitations')
        .select('id')
        .where('organization_id', '=', corp)
        .execute(),
    ).toEqual([{ id: pending!.id }]);
    await smtp.mailTo('cfo@squat-corp.example');
  });

  it('an issued token makes no token and no organization, lives a day, and reaches no other organization', async () => {
    const attacker = await t.factory.account();
    const bait = await organizationOf(attacker);
    const newcomer = await t.factory.user();
    await t.factory.member(bait, newcomer.id, 'read');
    const victim = await t.factory.account({ verified: true });
    const corp = await organizationOf(victim);
    const privateSpace = await call(victim, 'POST', `/v1/orgs/${corp}/spaces`, { title: 'Board minutes' });
    expect(privateSpace.statusCode).toBe(201);

    const issued = await call(attacker, 'POST', `/v1/orgs/${bait}/members/${newcomer.id}/tokens`, {});
    expect(issued.statusCode).toBe(201);
    const body = issued.json();
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(24 * 3_600_000);
    const token = { token: body.token as string };

    const refusals: Array<[Method, string, object | undefined, number]> = [
      ['POST', '/v1/user/tokens', { label: 'Forever' }, 403],
      ['POST', '/v1/orgs', { title: 'Elsewhere' }, 403],
      ['POST', `/v1/orgs/${bait}/members/${newcomer.id}/tokens`, {}, 403],
      ['GET', `/v1/orgs/${corp}`, undefined, 404],
      ['GET', `/v1/orgs/${corp}/spaces`, undefined, 404],
      ['GET', `/v1/orgs/${corp}/members`, undefined, 404],
      ['GET', `/v1/spaces/${privateSpace.json().id}`, undefined, 404],
      ['POST', `/v1/orgs/${corp}/join`, undefined, 404],
    ];
    for (const [method, url, payload, status] of refusals) {
      const res = await call(token, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
    }
    expect(await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', newcomer.id).execute()).toEqual([
      { id: body.id },
    ]);
    expect(await t.db.selectFrom('organizations').select('id').where('title', '=', 'Elsewhere').execute()).toEqual([]);
    expect((await members(corp)).map((m) => m.user_id)).toEqual([victim.user.id]);
    // Inside its organization it works.
    expect((await call(token, 'GET', `/v1/orgs/${bait}`)).statusCode).toBe(200);

    // An expiry beyond a day is refused.
    const newcomer2 = await t.factory.user();
    await t.factory.member(bait, newcomer2.id, 'read');
    const tooLong = await call(attacker, 'POST', `/v1/orgs/${bait}/members/${newcomer2.id}/tokens`, {
      expiresAt: new Date(Date.now() + 25 * 3_600_000).toISOString(),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', newcomer2.id).execute()).toEqual([]);

    // The admin removes the member: the token opens nothing, not even its own organization.
    const third = await t.factory.user();
    await t.factory.member(bait, third.id, 'read');
    const thirdIssued = await call(attacker, 'POST', `/v1/orgs/${bait}/members/${third.id}/tokens`, {});
    expect((await call(attacker, 'DELETE', `/v1/orgs/${bait}/members/${third.id}`)).statusCode).toBeLessThan(300);
    expect((await call({ token: thirdIssued.json().token }, 'GET', '/v1/user')).statusCode).toBe(401);

    // Once past its expiry, it opens nothing.
    await t.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', body.id)
      .execute();
    expect((await call(token, 'GET', `/v1/orgs/${bait}`)).statusCode).toBe(401);
  });

  it('an issued token dies when its user becomes a member anywhere else, by any path', async () => {
    const attacker = await t.factory.account();
    const bait = await organizationOf(attacker);
    const victim = await t.factory.account({ verified: true });
    const corp = await organizationOf(victim);
    const link = await call(victim, 'PATCH', `/v1/orgs/${corp}`, { inviteLinks: true });
    expect(link.statusCode).toBe(200);
    const invite = await call(victim, 'POST', `/v1/orgs/${corp}/link-invites`, { role: 'admin' });

    for (const join of ['database', 'invite link'] as const) {
      const newcomer = await t.factory.user();
      await t.factory.member(bait, newcomer.id, 'read');
      const issued = await call(attacker, 'POST', `/v1/orgs/${bait}/members/${newcomer.id}/tokens`, {});
      const token = { token: issued.json().token as string };
      // The issued token itself cannot join elsewhere.
      const own = await call(token, 'POST', `/v1/orgs/${corp}/invites/${invite.json().id}`);
      expect(own.statusCode).toBe(404);
      if (join === 'database') await t.factory.member(corp, newcomer.id, 'read');
      else {
        const mine = await t.factory.token(newcomer.id);
        expect((await call(mine, 'POST', `/v1/orgs/${corp}/invites/${invite.json().id}`)).statusCode).toBe(200);
      }
      expect((await call(token, 'GET', `/v1/orgs/${bait}`)).statusCode, join).toBe(401);
      expect((await call(token, 'GET', `/v1/orgs/${corp}`)).statusCode, join).toBe(401);
      const [row] = await t.db
        .selectFrom('api_tokens')
        .select('revoked_at')
        .where('id', '=', issued.json().id)
        .execute();
      expect(row!.revoked_at, join).not.toBeNull();
    }
  });

  it('a token the admin issued before the user joined elsewhere holds no further even if the revocation were lost', async () => {
    const attacker = await t.factory.account();
    const bait = await organizationOf(attacker);
    const newcomer = await t.factory.user();
    await t.factory.member(bait, newcomer.id, 'read');
    const issued = await call(attacker, 'POST', `/v1/orgs/${bait}/members/${newcomer.id}/tokens`, {});
    const victim = await t.factory.account({ verified: true });
    const corp = await organizationOf(victim);
    await t.factory.member(corp, newcomer.id, 'admin');
    // Undo the revocation, as a restored backup or a row written around the service might.
    await t.db.updateTable('api_tokens').set({ revoked_at: null }).where('id', '=', issued.json().id).execute();
    const token = { token: issued.json().token as string };
    expect((await call(token, 'GET', `/v1/orgs/${corp}`)).statusCode).toBe(401);
    expect((await call(token, 'GET', `/v1/orgs/${corp}/members`)).statusCode).toBe(401);
  });
});

describe('the e-mail domain listing', () => {
  it('shows nothing to an address not verified, nor for a domain not the caller’s own', async () => {
    const owner = await t.factory.account({ email: 'boss@listed-corp.example', verified: true });
    const corp = await organizationOf(owner, { emailDomains: ['listed-corp.example'] });
    const unverified = await t.factory.account({ email: 'someone@listed-corp.example' });
    const foreign = await t.factory.account({ email: 'someone@elsewhere.example', verified: true });
    const colleague = await t.factory.account({ email: 'colleague@listed-corp.example', verified: true });
    for (const account of [unverified, foreign]) {
      const res = await call(account, 'GET', '/v1/email-domains/listed-corp.example/orgs');
      expect([res.statusCode, res.json()]).toEqual([200, { organizations: [] }]);
    }
    const seen = await call(colleague, 'GET', '/v1/email-domains/listed-corp.example/orgs');
    expectSpecResponse('getOrganizationsForEmailDomain', 200, seen.json());
    expect(seen.json().organizations.map((o: { id: string }) => o.id)).toEqual([corp]);
  });
});

describe('an e-mail domain another organization lists', () => {
  it('lists that organization to nobody at the domain and lets nobody join by it, until an admin of it proves the domain', async () => {
    const victim = await t.factory.account({ email: 'it@prized-corp.example', verified: true });
    const real = await organizationOf(victim, { emailDomains: ['prized-corp.example'] });
    const attacker = await t.factory.account({ email: 'mallory@attacker.example', verified: true });
    // Any admin may write any domain: the list is stored as given, and proves nothing.
    const lure = await organizationOf(attacker, {
      title: 'Prized Corp (official)',
      emailDomains: ['prized-corp.example'],
    });
    const employee = await t.factory.account({ email: 'staff@prized-corp.example', verified: true });

    const listing = await call(employee, 'GET', '/v1/email-domains/prized-corp.example/orgs');
    expect(listing.json().organizations.map((o: { id: string }) => o.id)).toEqual([real]);
    const join = await call(employee, 'POST', `/v1/orgs/${lure}/join`);
    expect([join.statusCode, join.json().error.message]).toEqual([
      400,
      'Your verified e-mail address is not at one of the organization’s proven e-mail domains, and you hold no invitation to it',
    ]);
    expect((await members(lure)).map((m) => m.user_id)).toEqual([attacker.user.id]);
    expect((await call(employee, 'POST', `/v1/orgs/${real}/join`)).statusCode).toBe(204);

    // A verified admin at the domain proves it; a verified member at it who is not an admin does not.
    const insider = await t.factory.account({ email: 'insider@prized-corp.example', verified: true });
    await t.db
      .insertInto('organization_members')
      .values({ organization_id: lure, user_id: insider.user.id, role: 'edit' })
      .execute();
    expect(
      (await call(employee, 'GET', '/v1/email-domains/prized-corp.example/orgs')).json().organizations,
    ).toHaveLength(1);
    await t.db
      .updateTable('organization_members')
      .set({ role: 'admin' })
      .where('organization_id', '=', lure)
      .where('user_id', '=', insider.user.id)
      .execute();
    const proven = await call(employee, 'GET', '/v1/email-domains/prized-corp.example/orgs');
    expect(
      proven
        .json()
        .organizations.map((o: { id: string }) => o.id)
        .sort(),
    ).toEqual([real, lure].sort());
  });
});

describe('invitations by mail', () => {
  it('mails the invitation, which a new person opens and accepts: an account, verified, with a token of its own', async () => {
    const admin = await t.factory.account({ name: 'Ada Admin' });
    const organizationId = await organizationOf(admin, { title: 'Lovelace Labs' });
    const endpoint = await listen(mailing);
    const client = officialClient(endpoint, admin.token);
    const invited = await client.orgs.inviteUsersToOrganization(organizationId, {
      emails: ['grace@mail-corp.example'],
      role: 'edit' as never,
    });
    expect(invited.data).toEqual({ users: [], invited: 1 });
    expectNewestSpecResponse('inviteUsersToOrganization', 200, invited.data);

    const mail = await smtp.mailTo('grace@mail-corp.example');
    expect(mail).toContain('Lovelace Labs');
    expect(mail).toContain('Ada Admin');
    expect(mail).toContain('Content-Type: text/plain');
    expect(mail).toContain('Content-Type: text/html');
    const url = /http:\/\/docs\.test\/v1\/orgs\/[^\s"<]+secret=[A-Za-z0-9]+/.exec(mail)![0];
    expect(url.startsWith(`${PUBLIC_URL}/v1/orgs/${organizationId}/email-invites/`)).toBe(true);
    const link = parts(url);

    const shown = await call(null, 'GET', `${new URL(url).pathname}${new URL(url).search}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      object: 'email-invite',
      email: 'grace@mail-corp.example',
      organization: { id: organizationId, title: 'Lovelace Labs' },
      role: 'edit',
      invitedBy: 'Ada Admin',
      existingAccount: false,
    });
    expect(shown.body).not.toContain(link.secret);
    expect(await usersWithEmail('grace@mail-corp.example')).toEqual([]);

    const accepted = await call(null, 'POST', acceptPath(link), { secret: link.secret, displayName: 'Grace' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      object: 'membership',
      organization: organizationId,
      role: 'edit',
      user: { displayName: 'Grace', email: 'grace@mail-corp.example' },
      token: { object: 'api-token', scopes: null, expiresAt: null, state: 'active' },
    });
    const [grace] = await usersWithEmail('grace@mail-corp.example');
    expect(grace!.email_verified_at).not.toBeNull();
    expect(await members(organizationId)).toContainEqual({ user_id: grace!.id, role: 'edit' });
    const [token] = await t.db.selectFrom('api_tokens').selectAll().where('user_id', '=', grace!.id).execute();
    expect(token!.organization_id).toBeNull();

    // Their own token: it reads who they are, and makes more.
    const own = officialClient(endpoint, accepted.json().token.token);
    expect((await own.user.getAuthenticatedUser()).data).toMatchObject({ id: grace!.id });
    expect(
      (await call({ token: accepted.json().token.token }, 'POST', '/v1/user/tokens', { label: 'Laptop' })).statusCode,
    ).toBe(201);

    // Single use.
    const again = await call(null, 'POST', acceptPath(link), { secret: link.secret });
    expect(again.statusCode).toBe(404);
    expect(await usersWithEmail('grace@mail-corp.example')).toHaveLength(1);
  });

  it('is accepted by an existing account only with its own token: not without one, not with another’s', async () => {
    const admin = await t.factory.account();
    const organizationId = await organizationOf(admin);
    const existing = await t.factory.account({ email: 'known@mail-corp.example' });
    const other = await t.factory.account({ email: 'other@mail-corp.example' });
    await callOn(mailing, admin, 'POST', `/v1/orgs/${organizationId}/invites`, {
      emails: [{ email: 'known@mail-corp.example', role: 'admin' }],
    });
    const mail = await smtp.mailTo('known@mail-corp.example');
    const link = parts(/http:\/\/docs\.test\/v1\/orgs\/[^\s"<]+secret=[A-Za-z0-9]+/.exec(mail)![0]);

    const without = await call(null, 'POST', acceptPath(link), { secret: link.secret });
    expect([without.statusCode, without.json().error.code]).toEqual([401, 401]);
    const another = await call(other, 'POST', acceptPath(link), { secret: link.secret });
    expect(another.statusCode).toBe(403);
    expect(another.json().error.message).toContain('only that account');
    expect((await members(organizationId)).map((m) => m.user_id)).toEqual([admin.user.id]);
    expect(
      await t.db
        .selectFrom('organization_email_invitations')
        .select('id')
        .where('id', '=', link.invitationId)
        .execute(),
    ).toHaveLength(1);

    const own = await call(existing, 'POST', acceptPath(link), { secret: link.secret });
    expect(own.statusCode).toBe(200);
    expect(own.json().token).toBeUndefined();
    expect(await members(organizationId)).toContainEqual({ user_id: existing.user.id, role: 'admin' });
    // The mailed secret proved the mailbox.
    expect((await usersWithEmail('known@mail-corp.example'))[0]!.email_verified_at).not.toBeNull();
  });

  it('refuses an expired, renewed or revoked invitation, leaving no user and no member', async () => {
    const admin = await t.factory.account();
    const organizationId = await organizationOf(admin);
    const invite = async (email: string) => {
      const res = await call(admin, 'POST', `/v1/orgs/${organizationId}/invites`, { emails: [email] });
      return parts(res.json().acceptLinks[0].url);
    };
    const expired = await invite('late@refused.example');
    await t.db
      .updateTable('organization_email_invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.invitationId)
      .execute();
    const renewedOld = await invite('twice@refused.example');
    const renewedNew = await invite('twice@refused.example');
    expect(renewedNew.invitationId).toBe(renewedOld.invitationId);
    const revoked = await invite('gone@refused.example');
    const listed = await call(admin, 'GET', `/v1/orgs/${organizationId}/email-invites`);
    expect(listed.json().count).toBe(3);
    expect(listed.body).not.toContain(revoked.secret);
    expect(
      (await call(admin, 'DELETE', `/v1/orgs/${organizationId}/email-invites/${revoked.invitationId}`)).statusCode,
    ).toBe(205);

    for (const link of [expired, renewedOld, revoked]) {
      const shown = await call(
        null,
        'GET',
        `/v1/orgs/${organizationId}/email-invites/${link.invitationId}?secret=${link.secret}`,
      );
      expect(shown.statusCode).toBe(404);
      const res = await call(null, 'POST', acceptPath(link), { secret: link.secret });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toContain('No open invitation');
    }
    for (const email of ['late@refused.example', 'twice@refused.example', 'gone@refused.example']) {
      expect(await usersWithEmail(email)).toEqual([]);
    }
    expect((await members(organizationId)).map((m) => m.user_id)).toEqual([admin.user.id]);
    // The renewed link works.
    expect((await call(null, 'POST', acceptPath(renewedNew), { secret: renewedNew.secret })).statusCode).toBe(200);
  });

  it('lists and revokes invitations for the organization’s admins only', async () => {
    const admin = await t.factory.account();
    const organizationId = await organizationOf(admin);
    const reader = await t.factory.account();
    await t.factory.member(organizationId, reader.user.id, 'read');
    const stranger = await t.factory.account();
    const invited = await call(admin, 'POST', `/v1/orgs/${organizationId}/invites`, { emails: ['x@listed.example'] });
    const { invitationId } = parts(invited.json().acceptLinks[0].url);
    expect((await call(reader, 'GET', `/v1/orgs/${organizationId}/email-invites`)).statusCode).toBe(403);
    expect((await call(stranger, 'GET', `/v1/orgs/${organizationId}/email-invites`)).statusCode).toBe(404);
    expect((await call(reader, 'DELETE', `/v1/orgs/${organizationId}/email-invites/${invitationId}`)).statusCode).toBe(
      403,
    );
    expect(
      (await call(stranger, 'DELETE', `/v1/orgs/${organizationId}/email-invites/${invitationId}`)).statusCode,
    ).toBe(404);
    const listed = await call(admin, 'GET', `/v1/orgs/${organizationId}/email-invites`);
    expect(listed.json().items).toEqual([
      {
        object: 'email-invite',
        id: invitationId,
        email: 'x@listed.example',
        role: 'read',
        sso: false,
        invitedBy: admin.user.id,
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
  });

  it('keeps the invitation when the mail cannot be sent, and inviting again sends it anew', async () => {
    const admin = await t.factory.account();
    const organizationId = await organizationOf(admin);
    const res = await callOn(failing, admin, 'POST', `/v1/orgs/${organizationId}/invites`, {
      emails: ['bounce@refused.example'],
    });
    expect(res.json()).toEqual({ users: [], invited: 1 });
    await refusing.until(() => refusing.refusals() >= 3);
    const stored = await t.db
      .selectFrom('organization_email_invitations')
      .select(['id', 'secret_hash'])
      .where('organization_id', '=', organizationId)
      .execute();
    expect(stored).toHaveLength(1);

    await callOn(mailing, admin, 'POST', `/v1/orgs/${organizationId}/invites`, { emails: ['bounce@refused.example'] });
    await smtp.mailTo('bounce@refused.example');
    const [renewed] = await t.db
      .selectFrom('organization_email_invitations')
      .select(['id', 'secret_hash'])
      .where('organization_id', '=', organizationId)
      .execute();
    expect(renewed!.id).toBe(stored[0]!.id);
    expect(renewed!.secret_hash.equals(stored[0]!.secret_hash)).toBe(false);
  });
});

describe('POST /v1/orgs/{organizationId}/join', () => {
  it('lets a verified address at one of the domains join with the default role; refuses the rest', async () => {
    const owner = await t.factory.account({ email: 'owner@join-corp.example', verified: true });
    const corp = await organizationOf(owner, { emailDomains: ['join-corp.example'] });
    expect((await call(owner, 'PATCH', `/v1/orgs/${corp}`, { defaultRole: 'comment' })).statusCode).toBe(200);
    const colleague = await t.factory.account({ email: 'new@join-corp.example', verified: true });
    const unverified = await t.factory.account({ email: 'claim@join-corp.example' });
    const foreign = await t.factory.account({ email: 'foreign@elsewhere.example', verified: true });

    const endpoint = await listen(t.app);
    const joined = await officialClient(endpoint, colleague.token).orgs.joinOrganization(corp);
    expect(joined.status).toBe(204);
    expect(await members(corp)).toContainEqual({ user_id: colleague.user.id, role: 'comment' });

    for (const [account, status] of [
      [unverified, 400],
      [foreign, 400],
    ] as const) {
      const res = await call(account, 'POST', `/v1/orgs/${corp}/join`);
      expect(res.statusCode, account.user.email).toBe(status);
      expect(res.json().error.code).toBe(status);
    }
    const unknown = await call(colleague, 'POST', '/v1/orgs/AAAAAAAAAAAAAAAAAAAA/join');
    expect(unknown.statusCode).toBe(404);
    expect((await members(corp)).map((m) => m.user_id).sort()).toEqual([owner.user.id, colleague.user.id].sort());
  });

  it('lets a verified address with a pending invitation join with its role, once', async () => {
    const owner = await t.factory.account();
    const corp = await organizationOf(owner);
    const invitee = await t.factory.account({ email: 'invited@join-other.example', verified: true });
    await call(owner, 'POST', `/v1/orgs/${corp}/invites`, { emails: [{ email: invitee.user.email, role: 'review' }] });
    expect((await call(invitee, 'POST', `/v1/orgs/${corp}/join`)).statusCode).toBe(204);
    expect(await members(corp)).toContainEqual({ user_id: invitee.user.id, role: 'review' });
    expect(
      await t.db
        .selectFrom('organization_email_invitations')
        .select('id')
        .where('organization_id', '=', corp)
        .execute(),
    ).toEqual([]);
  });
});
