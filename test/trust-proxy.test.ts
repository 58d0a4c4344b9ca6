import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/app.js';
import { TestDnsServer } from './support/dns-server.js';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';

/**
 * Behind TRUST_PROXY, the proxy's own entry is believed and nothing a client
 * wrote before it: the client's address (rate limits, the failed-login
 * limiter) and the host it asked for (a site's hostname) are the proxy's say.
 * The proxy in these tests is the test itself, connecting from 127.0.0.1.
 */
const dns = new TestDnsServer();
beforeAll(() => dns.start());
afterAll(() => dns.stop());
const hostnames = () => ({ reserved: [], dnsServers: [dns.address] });
const t = useTestApp({ config: () => ({ hostnames: hostnames() }) });

const apps: FastifyInstance[] = [];
async function appWith(config: Partial<AppConfig>): Promise<FastifyInstance> {
  const app = await buildOwnApp(testConfig(t.database.url, { hostnames: hostnames(), ...config }));
  await app.ready();
  apps.push(app);
  return app;
}
afterAll(async () => {
  for (const app of apps) await app.close();
});

let admin: Account;
beforeAll(async () => {
  // A victim whose site is live at its proven hostname.
  admin = await t.factory.account();
  const org = (
    await t.app.inject({ method: 'POST', url: '/v1/orgs', headers: admin.headers, payload: { title: 'Victim' } })
  ).json();
  const site = (
    await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${org.id}/sites`,
      headers: admin.headers,
      payload: { title: 'Victim docs' },
    })
  ).json();
  await t.app.inject({
    method: 'PATCH',
    url: `/v1/orgs/${org.id}/sites/${site.id}`,
    headers: admin.headers,
    payload: { hostname: 'docs.victim.example' },
  });
  const claim = (
    await t.app.inject({ method: 'GET', url: '/v1/custom-hostnames/docs.victim.example', headers: admin.headers })
  ).json();
  dns.setTxt(claim.verification.name, [claim.verification.value]);
  const proven = await t.app.inject({
    method: 'PATCH',
    url: '/v1/custom-hostnames/docs.victim.example',
    headers: admin.headers,
  });
  expect(proven.statusCode).toBe(204);
});

describe('one trusted hop (TRUST_PROXY=1)', () => {
  it('counts failed authentications by the address the proxy appended, whatever a client prepends', async () => {
    const app = await appWith({ trustProxy: 1, rateLimit: { max: 3, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: `Bearer made-up-${i}`, 'x-forwarded-for': `198.18.0.${i}, 203.0.113.7` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Another client behind the same proxy is its own address.
    const other = await app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: 'Bearer made-up', 'x-forwarded-for': '203.0.113.8' },
    });
    expect(other.statusCode).toBe(401);
  });

  it('rate-limits a client by the address the proxy appended, whatever a client prepends', async () => {
    const app = await appWith({ trustProxy: 1, rateLimit: { max: 3, windowMs: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({
        method: 'GET',
        url: '/s/no-such-site',
        headers: { 'x-forwarded-for': `198.18.1.${i}, 203.0.113.9` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
  });

  it('reads the host the proxy appended: a client cannot choose a site’s hostname, nor leave one', async () => {
    const app = await appWith({ trustProxy: 1 });
    // The client prepends the victim's hostname; the proxy appends the service's host.
    const prepended = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { host: 'docs.test', 'x-forwarded-host': 'docs.victim.example, docs.test' },
    });
    expect(prepended.statusCode).toBe(200);
    expect(prepended.json()).toMatchObject({ status: 'ok' });
    // The proxy says the victim's hostname: the site is read, and its links say the same host.
    const atSite = await app.inject({
      method: 'GET',
      url: '/',
      headers: { host: 'internal:3000', 'x-forwarded-host': 'docs.test, docs.victim.example' },
    });
    expect(atSite.statusCode).toBe(404);
    expect(atSite.headers['content-type']).toContain('text/html');
    const api = await app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { ...admin.headers, host: 'internal:3000', 'x-forwarded-host': 'docs.test, docs.victim.example' },
    });
    expect(api.statusCode).toBe(404);
  });
});

describe('trusted proxies by address (TRUST_PROXY=10.0.0.0/8)', () => {
  it('believes nothing forwarded from any other peer, and the proxy’s last entry from a listed one', async () => {
    const app = await appWith({ trustProxy: ['10.0.0.0/8'], rateLimit: { max: 3, windowMs: 60_000 } });
    // A client connecting straight to the service: its X-Forwarded-* are its own words.
    const direct = await app.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '127.0.0.1',
      headers: { host: 'docs.test', 'x-forwarded-host': 'docs.victim.example' },
    });
    expect(direct.statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/user',
        remoteAddress: '127.0.0.1',
        headers: { authorization: 'Bearer made-up', 'x-forwarded-for': `198.18.2.${i}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Through the listed proxy, its entry counts.
    const proxied = await app.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '10.1.2.3',
      headers: { host: 'internal', 'x-forwarded-host': 'docs.test, docs.victim.example' },
    });
    expect(proxied.statusCode).toBe(404);
  });
});
