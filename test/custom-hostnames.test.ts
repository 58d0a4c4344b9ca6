import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCustomHostnames } from '../src/custom-hostnames/actions.js';
import { TestDnsServer } from './support/dns-server.js';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';
import type { Account } from './support/factory.js';

/**
 * Custom hostnames are claims: proven by a DNS TXT record the service issued,
 * looked up on a real DNS server on 127.0.0.1. Each attack is made as an
 * attacker with an organization of their own would make it.
 */
const dns = new TestDnsServer();
beforeAll(() => dns.start());
afterAll(() => dns.stop());
const t = useTestApp({
  config: () => ({
    hostnames: { reserved: ['status.example.org', '*.internal.example'], dnsServers: [dns.address] },
  }),
});
const api = contentApi(() => t.app);

interface Org {
  admin: Account;
  id: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function call(account: Account | undefined, method: Method, url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/v1${url}`,
    headers: account?.headers ?? {},
    ...(payload ? { payload } : {}),
  });
}

/** An ordinary user who makes an organization of their own, as anyone may. */
async function ownOrganization(): Promise<Org> {
  const admin = await t.factory.account();
  const created = await call(admin, 'POST', '/orgs', { title: 'Own org' });
  expect(created.statusCode, created.body).toBe(201);
  return { admin, id: created.json().id as string };
}

async function publishedSite(org: Org, title: string): Promise<string> {
  const created = await call(org.admin, 'POST', `/orgs/${org.id}/sites`, { title });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = created.json().id as string;
  const space = await api.createSpace(org.admin, org.id, { title: `${title} space` });
  await api.change(org.admin, space.id, [
    { operation: 'insert_page', title: `${title} home`, document: { markdown: `Welcome to ${title}.` } },
  ]);
  const added = await call(org.admin, 'POST', `/orgs/${org.id}/sites/${siteId}/site-spaces`, { spaceId: space.id });
  expect(added.statusCode, added.body).toBe(201);
  expect((await call(org.admin, 'POST', `/orgs/${org.id}/sites/${siteId}/publish`)).statusCode).toBe(200);
  return siteId;
}

async function setHostname(org: Org, siteId: string, hostname: string | null) {
  return call(org.admin, 'PATCH', `/orgs/${org.id}/sites/${siteId}`, { hostname });
}

async function storedSite(siteId: string) {
  return t.db
    .selectFrom('sites')
    .select(['hostname', 'hostname_status', 'hostname_verified_at', 'hostname_token'])
    .where('id', '=', siteId)
    .executeTakeFirstOrThrow();
}

const read = (url: string, host: string) =>
  t.app.inject({ method: 'GET', url, headers: { host, accept: 'text/html' } });

/** Proves the claim as its owner would: the record they were given, then a revalidation. */
async function prove(org: Org, hostname: string): Promise<void> {
  const claim = await call(org.admin, 'GET', `/custom-hostnames/${hostname}`);
  expect(claim.statusCode, claim.body).toBe(200);
  const { name, value } = claim.json().verification as { name: string; value: string };
  dns.setTxt(name, [value]);
  expect((await call(org.admin, 'PATCH', `/custom-hostnames/${hostname}`)).statusCode).toBe(204);
  expect((await call(org.admin, 'GET', `/custom-hostnames/${hostname}`)).json()).toMatchObject({ isActive: true });
}

let victim: Org;
let victimSite: string;
let attacker: Org;
let attackerSite: string;
beforeAll(async () => {
  victim = await ownOrganization();
  victimSite = await publishedSite(victim, 'Victim');
  attacker = await ownOrganization();
  attackerSite = await publishedSite(attacker, 'Attacker');
});

describe('the service’s own host and reserved hosts', () => {
  it('can never be a site’s hostname, in any case, with a trailing dot or a port, and the service keeps its host', async () => {
    for (const hostname of ['docs.test', 'DOCS.TEST', 'docs.test.', 'Docs.Test.']) {
      const refused = await setHostname(attacker, attackerSite, hostname);
      expect(refused.statusCode, hostname).toBe(400);
      expect(refused.json()).toEqual({
        error: {
          code: 400,
          message: 'body/hostname "docs.test" is reserved: it is the service’s own host or one its operator reserved',
        },
      });
    }
    // With a port it is not a hostname at all.
    expect((await setHostname(attacker, attackerSite, 'docs.test:443')).statusCode).toBe(400);
    expect(await storedSite(attackerSite)).toMatchObject({ hostname: null, hostname_token: null });

    // Even live in the database (proven before PUBLIC_URL or the list changed), a reserved host is never rewritten.
    await t.db
      .updateTable('sites')
      .set({
        hostname: 'docs.test',
        hostname_token: 'quire-site-verification=old',
        hostname_status: 'live',
        hostname_verified_at: new Date(),
      })
      .where('id', '=', attackerSite)
      .execute();
    await t.app.context.siteHostnames.refresh();
    const health = await t.app.inject({ method: 'GET', url: '/healthz', headers: { host: 'DOCS.test.:80' } });
    expect(health.statusCode).toBe(200);
    const orgs = await t.app.inject({
      method: 'GET',
      url: '/v1/orgs',
      headers: { ...victim.admin.headers, host: 'docs.test' },
    });
    expect(orgs.statusCode).toBe(200);
    await setHostname(attacker, attackerSite, null);
    await t.app.context.siteHostnames.refresh();
  });

  it('refuses hosts the operator reserved, names under a reserved suffix, IP addresses and what is not a DNS name', async () => {
    const cases: Array<[string, RegExp]> = [
      ['status.example.org', /"status\.example\.org" is reserved/],
      ['STATUS.example.org.', /"status\.example\.org" is reserved/],
      ['api.internal.example', /"api\.internal\.example" is reserved: its operator reserved the names under it/],
      ['127.0.0.1', /not an IP address/],
      ['[::1]', /not an IP address/],
      ['localhost', /two labels at least/],
      ['a..b.example', /must be a DNS name/],
      ['under_score.example.com', /must be a DNS name/],
      [`${'a'.repeat(64)}.example.com`, /must be a DNS name/],
    ];
    for (const [hostname, message] of cases) {
      const refused = await setHostname(attacker, attackerSite, hostname);
      expect(refused.statusCode, hostname).toBe(400);
      expect(refused.json().error.message, hostname).toMatch(message);
    }
    expect((await storedSite(attackerSite)).hostname).toBeNull();
  });
});

describe('a hostname claim', () => {
  it('is pending until its TXT record holds the token: it routes nothing and is nobody’s published address', async () => {
    const org = await ownOrganization();
    const siteId = await publishedSite(org, 'Pending');
    const set = await setHostname(org, siteId, 'Docs.Pending.Example.');
    expect(set.statusCode, set.body).toBe(200);
    expectSpecResponse('updateSiteById', 200, set.json());
    expect(set.json()).toMatchObject({ hostname: 'docs.pending.example', hostnameStatus: 'pending' });
    expect(set.json().urls.published).toBe(`http://docs.test/s/${siteId}`);

    const claim = await call(org.admin, 'GET', '/custom-hostnames/docs.pending.example');
    expect(claim.statusCode, claim.body).toBe(200);
    expectNewestSpecResponse('getCustomHostname', 200, claim.json());
    const token = (await storedSite(siteId)).hostname_token!;
    expect(claim.json()).toEqual({
      object: 'custom-hostname',
      hostname: 'docs.pending.example',
      target: { type: 'site', site: siteId },
      isActive: false,
      status: 'dns_no_cname',
      verification: { type: 'TXT', name: '_quire-challenge.docs.pending.example', value: token, state: 'pending' },
      urls: { location: 'http://docs.test/v1/custom-hostnames/docs.pending.example' },
    });

    // Pending: its host is not the site's.
    const before = await read('/', 'docs.pending.example');
    expect(before.body).not.toContain('Welcome to Pending');

    // A record with another value proves nothing.
    dns.setTxt('_quire-challenge.docs.pending.example', ['quire-site-verification=guessed']);
    expect((await call(org.admin, 'PATCH', '/custom-hostnames/docs.pending.example')).statusCode).toBe(204);
    expect((await call(org.admin, 'GET', '/custom-hostnames/docs.pending.example')).json()).toMatchObject({
      isActive: false,
      status: 'dns_wrong_cname',
      verification: { state: 'mismatch' },
    });
    expect((await read('/', 'docs.pending.example')).body).not.toContain('Welcome to Pending');

    // The issued value proves it: the host reads the site, which is published there.
    dns.setTxt('_quire-challenge.docs.pending.example', ['v=spf1 -all', token]);
    expect((await call(org.admin, 'PATCH', '/custom-hostnames/docs.pending.example')).statusCode).toBe(204);
    const live = await call(org.admin, 'GET', '/custom-hostnames/docs.pending.example');
    expectNewestSpecResponse('getCustomHostname', 200, live.json());
    expect(live.json()).toMatchObject({ isActive: true, status: 'live', verification: { state: 'live' } });
    const home = await read('/', 'DOCS.pending.example.');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Welcome to Pending');
    const site = await call(org.admin, 'GET', `/orgs/${org.id}/sites/${siteId}`);
    expect(site.json()).toMatchObject({ hostnameStatus: 'live', urls: { published: 'http://docs.pending.example' } });

    // Live: nothing to revalidate.
    const again = await call(org.admin, 'PATCH', '/custom-hostnames/docs.pending.example');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: { code: 409, message: expect.stringContaining('is live') } });
  });

  it('on a site’s hostname, the API, the app, the documents and the probes are 404 and reach neither the API nor the reader', async () => {
    const org = await ownOrganization();
    const siteId = await publishedSite(org, 'Walled');
    await setHostname(org, siteId, 'walled.example.net');
    await prove(org, 'walled.example.net');
    const host = 'walled.example.net';
    for (const url of [
      '/v1/orgs',
      '/v1/user',
      '/app',
      '/app/o',
      '/docs',
      '/docs/',
      '/openapi.json',
      '/healthz',
      '/readyz',
      '/V1/orgs',
    ]) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { ...org.admin.headers, host } });
      expect(answer.statusCode, url).toBe(404);
      // The API's not-found answer, not the reader's page: the request reached no route.
      expect(answer.json(), url).toEqual({
        error: { code: 404, message: `No route for GET ${url}` },
      });
    }
    const write = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { ...org.admin.headers, host },
      payload: { title: 'Through the hostname' },
    });
    expect(write.statusCode).toBe(404);
    // The site's pages are there; the service is still itself on its own host.
    expect((await read('/', host)).body).toContain('Welcome to Walled');
    expect((await t.app.inject({ method: 'GET', url: '/healthz', headers: { host: 'docs.test' } })).statusCode).toBe(
      200,
    );
  });

  it('is shown, revalidated and removed only for admins of the site’s organization', async () => {
    await setHostname(victim, victimSite, 'docs.victim.example');
    await prove(victim, 'docs.victim.example');
    const editor = await t.factory.account();
    await t.factory.member(victim.id, editor.user.id, 'edit');
    for (const caller of [attacker.admin, editor]) {
      for (const method of ['GET', 'PATCH'] as const) {
        const refused = await call(caller, method, '/custom-hostnames/docs.victim.example');
        expect(refused.statusCode, method).toBe(404);
        expect(refused.json()).toEqual({
          error: { code: 404, message: 'No custom hostname by this name is yours to manage' },
        });
      }
      // Removing what is not theirs removes nothing.
      expect((await call(caller, 'DELETE', '/custom-hostnames/docs.victim.example')).statusCode).toBe(204);
    }
    expect((await call(undefined, 'GET', '/custom-hostnames/docs.victim.example')).statusCode).toBe(401);
    expect(await storedSite(victimSite)).toMatchObject({ hostname: 'docs.victim.example', hostname_status: 'live' });
    expect((await read('/', 'docs.victim.example')).body).toContain('Welcome to Victim');
  });
});

describe('through the newest official client', () => {
  it('reads a claim with its record, revalidates it once the record holds the token, and removes it', async () => {
    const org = await ownOrganization();
    const siteId = await publishedSite(org, 'Client');
    expect((await setHostname(org, siteId, 'docs.client.example')).statusCode).toBe(200);
    const client = newestOfficialClient(await listen(t.app), org.admin.token);

    const pending = await client.customHostnames.getCustomHostname('docs.client.example');
    expectNewestSpecResponse('getCustomHostname', 200, pending.data);
    expect(pending.data).toMatchObject({ hostname: 'docs.client.example', isActive: false, target: { site: siteId } });
    const { name, value } = (pending.data as unknown as { verification: { name: string; value: string } }).verification;
    dns.setTxt(name, [value]);
    expect((await client.customHostnames.dnsRevalidateCustomHostname('docs.client.example')).status).toBe(204);
    const live = await client.customHostnames.getCustomHostname('docs.client.example');
    expect(live.data).toMatchObject({ isActive: true });
    expect((await read('/', 'docs.client.example')).body).toContain('Welcome to Client');

    expect((await client.customHostnames.removeCustomHostname('docs.client.example')).status).toBe(205);
    expect(await storedSite(siteId)).toMatchObject({ hostname: null });
    await t.app.context.siteHostnames.refresh();
    expect((await read('/', 'docs.client.example')).body).not.toContain('Welcome to Client');
  });
});

describe('a hostname another organization holds live', () => {
  it('can be claimed, but the claim stays pending and routes nothing while the record names the holder', async () => {
    await setHostname(victim, victimSite, 'handbook.victim.example');
    await prove(victim, 'handbook.victim.example');
    const victimToken = (await storedSite(victimSite)).hostname_token!;

    const claimed = await setHostname(attacker, attackerSite, 'HANDBOOK.victim.example');
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ hostname: 'handbook.victim.example', hostnameStatus: 'pending' });
    // The attacker sees their own claim, never the victim's record.
    const own = await call(attacker.admin, 'GET', '/custom-hostnames/handbook.victim.example');
    expect(own.json()).toMatchObject({ target: { site: attackerSite }, isActive: false });
    expect(own.json().verification.value).not.toBe(victimToken);

    // Revalidating against the victim's record: a mismatch.
    expect((await call(attacker.admin, 'PATCH', '/custom-hostnames/handbook.victim.example')).statusCode).toBe(204);
    expect((await storedSite(attackerSite)).hostname_status).toBe('mismatch');

    // Even with their value added beside the victim's, the record still names the holder: contested.
    dns.setTxt('_quire-challenge.handbook.victim.example', [victimToken, own.json().verification.value]);
    expect((await call(attacker.admin, 'PATCH', '/custom-hostnames/handbook.victim.example')).statusCode).toBe(204);
    expect(await storedSite(attackerSite)).toMatchObject({ hostname_status: 'contested', hostname_verified_at: null });

    // The periodic check changes nothing of it either.
    await checkCustomHostnames(t.app.context, 1000);
    expect(await storedSite(attackerSite)).toMatchObject({ hostname_status: 'contested', hostname_verified_at: null });
    expect(await storedSite(victimSite)).toMatchObject({
      hostname: 'handbook.victim.example',
      hostname_status: 'live',
    });
    const page = await read('/', 'handbook.victim.example');
    expect(page.body).toContain('Welcome to Victim');
    expect(page.body).not.toContain('Welcome to Attacker');
    const victimView = await call(victim.admin, 'GET', `/orgs/${victim.id}/sites/${victimSite}`);
    expect(victimView.json()).toMatchObject({ urls: { published: 'http://handbook.victim.example' } });

    // The attacker removing their claim takes only theirs.
    expect((await call(attacker.admin, 'DELETE', '/custom-hostnames/handbook.victim.example')).statusCode).toBe(205);
    expect((await storedSite(attackerSite)).hostname).toBeNull();
    expect((await storedSite(victimSite)).hostname_status).toBe('live');
  });

  it('goes over to a new claimant only once the record holds their value and no longer the holder’s', async () => {
    const previous = await ownOrganization();
    const previousSite = await publishedSite(previous, 'Previous');
    await setHostname(previous, previousSite, 'docs.sold.example');
    await prove(previous, 'docs.sold.example');
    const buyer = await ownOrganization();
    const buyerSite = await publishedSite(buyer, 'Buyer');
    await setHostname(buyer, buyerSite, 'docs.sold.example');
    const buyerToken = (await storedSite(buyerSite)).hostname_token!;

    // The domain changed hands: its DNS names only the buyer now.
    dns.setTxt('_quire-challenge.docs.sold.example', [buyerToken]);
    expect((await call(buyer.admin, 'PATCH', '/custom-hostnames/docs.sold.example')).statusCode).toBe(204);
    expect(await storedSite(buyerSite)).toMatchObject({ hostname_status: 'live' });
    expect(await storedSite(previousSite)).toMatchObject({
      hostname: 'docs.sold.example',
      hostname_status: 'mismatch',
      hostname_verified_at: null,
    });
    expect((await read('/', 'docs.sold.example')).body).toContain('Welcome to Buyer');
    const previousView = await call(previous.admin, 'GET', `/orgs/${previous.id}/sites/${previousSite}`);
    expect(previousView.json()).toMatchObject({
      hostnameStatus: 'pending',
      urls: { published: `http://docs.test/s/${previousSite}` },
    });
  });
});

describe('the periodic check', () => {
  it('checks a site whose row a write beside it holds (a reader’s page view), neither skipping it nor waiting', async () => {
    const org = await ownOrganization();
    const siteId = await publishedSite(org, 'Viewed');
    await setHostname(org, siteId, 'docs.viewed.example');
    // A pending claim, proven by its record while the site's row is held FOR KEY SHARE, as a foreign key's insert holds it.
    const token = (await storedSite(siteId)).hostname_token!;
    dns.setTxt('_quire-challenge.docs.viewed.example', [token]);
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('sites').select('id').where('id', '=', siteId).forKeyShare().execute();
      await checkCustomHostnames(t.app.context, 1000);
    });
    expect((await storedSite(siteId)).hostname_status).toBe('live');
  });

  it('stops a hostname at once when its record is gone, and keeps it through a failed look-up', async () => {
    const org = await ownOrganization();
    const siteId = await publishedSite(org, 'Checked');
    await setHostname(org, siteId, 'docs.checked.example');
    await prove(org, 'docs.checked.example');

    dns.setFailing('_quire-challenge.docs.checked.example', true);
    await checkCustomHostnames(t.app.context, 1000);
    expect((await storedSite(siteId)).hostname_status).toBe('live');
    expect((await read('/', 'docs.checked.example')).body).toContain('Welcome to Checked');

    dns.setFailing('_quire-challenge.docs.checked.example', false);
    dns.setTxt('_quire-challenge.docs.checked.example', []);
    await checkCustomHostnames(t.app.context, 1000);
    expect(await storedSite(siteId)).toMatchObject({ hostname_status: 'missing', hostname_verified_at: null });
    expect((await read('/', 'docs.checked.example')).body).not.toContain('Welcome to Checked');

    // The record back: the next run makes it live again, without its owner asking.
    const token = (await storedSite(siteId)).hostname_token!;
    dns.setTxt('_quire-challenge.docs.checked.example', [token]);
    await checkCustomHostnames(t.app.context, 1000);
    expect((await storedSite(siteId)).hostname_status).toBe('live');
    expect((await read('/', 'docs.checked.example')).body).toContain('Welcome to Checked');
  });

  it('looks up no more claims a run than its batch', async () => {
    const checked = await checkCustomHostnames(t.app.context, 2);
    expect(checked).toBe(2);
  });
});
