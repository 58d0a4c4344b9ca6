import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

/** A day: the longest a visitor token may live in this file's service. */
const MAX_AGE = 86_400;
const t = useTestApp({ config: { visitorTokenMaxAgeSeconds: MAX_AGE } });
const api = contentApi(() => t.app);

interface Team {
  admin: Account;
  organizationId: string;
}

let victim: Team;
let attacker: Team;

async function call(account: Account, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  return t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });
}

const read = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

/** A published visitor-auth site with one page, and the key its sign-in signs visitor tokens with. */
async function visitorAuthSite(team: Team) {
  const org = `/orgs/${team.organizationId}`;
  const created = await call(team.admin, 'POST', `${org}/sites`, { title: 'Members only', visibility: 'visitor-auth' });
  expect(created.statusCode, created.body).toBe(201);
  const site = created.json() as { id: string };
  const space = await api.createSpace(team.admin, team.organizationId, { title: 'Handbook' });
  await api.change(team.admin, space.id, [
    { operation: 'insert_page', title: 'Secret plans', document: { markdown: 'Only for members.' } },
  ]);
  expect(
    (await call(team.admin, 'POST', `${org}/sites/${site.id}/site-spaces`, { spaceId: space.id })).statusCode,
  ).toBe(201);
  expect((await call(team.admin, 'POST', `${org}/sites/${site.id}/publish`)).statusCode).toBe(200);
  const auth = await call(team.admin, 'GET', `${org}/sites/${site.id}/publishing/auth`);
  return { siteId: site.id, key: auth.json<{ privateKey: string }>().privateKey };
}

const now = () => Math.floor(Date.now() / 1000);

/** A token signed with `key`, with exactly the claims given (none added). */
function sign(key: string, claims: { exp?: number; iat?: number; [name: string]: unknown }) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));
}

/** The visitor is kept out: no cookie is set, and the site's page is not shown. */
async function expectRefused(siteId: string, token: string) {
  const first = await read(`/s/${siteId}?jwt_token=${token}`);
  expect(first.statusCode).toBe(401);
  expect(first.headers['set-cookie']).toBeUndefined();
  expect(first.body).not.toContain('Secret plans');
  // Kept in a cookie by some other means (an older sign-in), it opens nothing either.
  const asCookie = await read(`/s/${siteId}`, `quire_visitor_${siteId}=${token}`);
  expect(asCookie.statusCode).toBe(401);
  expect(asCookie.body).not.toContain('Secret plans');
}

beforeAll(async () => {
  const a = await t.factory.team();
  victim = { admin: a.admin, organizationId: a.organization.id };
  const b = await t.factory.team();
  attacker = { admin: b.admin, organizationId: b.organization.id };
});

describe('a visitor token', () => {
  it('without an expiry is refused, though the site’s key signed it', async () => {
    const { siteId, key } = await visitorAuthSite(victim);
    await expectRefused(siteId, await sign(key, { member: true }));
    await expectRefused(siteId, await sign(key, { member: true, iat: now() }));
  });

  it('that lives longer than VISITOR_TOKEN_MAX_AGE_SECONDS is refused: from now, or from when it was issued', async () => {
    const { siteId, key } = await visitorAuthSite(victim);
    // Years away: a leaked link would open the site for years.
    await expectRefused(siteId, await sign(key, { exp: now() + 5 * 365 * 86_400 }));
    await expectRefused(siteId, await sign(key, { exp: now() + 2 * MAX_AGE }));
    // Issued a month ago and valid until tomorrow: a month-long token, whatever is left of it.
    await expectRefused(siteId, await sign(key, { iat: now() - 30 * 86_400, exp: now() + 3_600 }));
    // Issued in the future, to stretch its life past the bound.
    await expectRefused(siteId, await sign(key, { iat: now() + MAX_AGE, exp: now() + MAX_AGE }));
    // Expired.
    await expectRefused(siteId, await sign(key, { iat: now() - 7_200, exp: now() - 3_600 }));
  });

  it('signed with another site’s key is refused, even one the caller administers', async () => {
    const { siteId } = await visitorAuthSite(victim);
    const own = await visitorAuthSite(attacker);
    await expectRefused(siteId, await sign(own.key, { iat: now(), exp: now() + 3_600 }));
  });

  it('within the bounds opens the site, in a cookie that lasts no longer than the token', async () => {
    const { siteId, key } = await visitorAuthSite(victim);
    const token = await sign(key, { iat: now(), exp: now() + 3_600 });
    const first = await read(`/s/${siteId}?jwt_token=${token}`);
    expect(first.statusCode).toBe(303);
    const setCookie = String(first.headers['set-cookie']);
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)![1]);
    expect(maxAge).toBeGreaterThan(3_500);
    expect(maxAge).toBeLessThanOrEqual(3_600);
    const page = await read(`/s/${siteId}`, setCookie.split(';')[0]);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Secret plans');

    // Without `iat`, the expiry alone is bounded.
    const noIat = await sign(key, { exp: now() + MAX_AGE - 60 });
    expect((await read(`/s/${siteId}?jwt_token=${noIat}`)).statusCode).toBe(303);
  });
});
