import { describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../src/core/clock.js';
import { revokeApiToken } from '../src/users/api-token-queries.js';
import { buildOwnApp, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

const UNAUTHORIZED = {
  error: { code: 401, message: 'Authentication required: send a valid API token as "Authorization: Bearer <token>"' },
};

describe('authentication', () => {
  it('answers GET /v1/user with the caller', async () => {
    const me = await t.factory.account({ email: 'Me@Example.com', name: 'Me Myself' });

    const res = await t.app.inject({ method: 'GET', url: '/v1/user', headers: me.headers });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      object: 'user',
      id: me.user.id,
      displayName: 'Me Myself',
      email: 'me@example.com',
      urls: { location: `${PUBLIC_URL}/v1/users/${me.user.id}` },
    });
    expectSpecResponse('getAuthenticatedUser', 200, res.json());
  });

  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer '],
    ['a token with spaces in it', 'Bearer quire_abc def'],
    ['an unknown token', 'Bearer quire_0000000000000000000000000000000000000000'],
  ])('refuses %s with 401 and the same message', async (_case, authorization) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual(UNAUTHORIZED);
  });

  it('accepts the scheme name in any case', async () => {
    const me = await t.factory.account();
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: `bearer ${me.token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a revoked token', async () => {
    const me = await t.factory.account();
    expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);

    await revokeApiToken(t.db, systemClock, me.tokenId);

    const res = await t.app.inject({ method: 'GET', url: '/v1/user', headers: me.headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
  });

  it('refuses an expired token and accepts one not yet expired', async () => {
    const expired = await t.factory.account({ expiresAt: new Date(Date.now() - 1000) });
    const fresh = await t.factory.account({ expiresAt: new Date(Date.now() + 3_600_000) });

    expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: expired.headers })).json()).toEqual(
      UNAUTHORIZED,
    );
    expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: fresh.headers })).statusCode).toBe(200);
  });

  it('stores only the SHA-256 hash of a token', async () => {
    const me = await t.factory.account();
    const row = await t.db.selectFrom('api_tokens').selectAll().where('id', '=', me.tokenId).executeTakeFirstOrThrow();
    expect(row.token_hash).toHaveLength(32);
    expect(JSON.stringify(row)).not.toContain(me.token.slice(6));
    expect(me.token).toMatch(/^quire_[A-Za-z0-9]{40}$/);
  });

  it('requires a token on every /v1 route, before looking at the body', async () => {
    for (const [method, url] of [
      ['GET', '/v1/orgs'],
      ['POST', '/v1/orgs'],
      ['GET', '/v1/orgs/anything'],
      ['PATCH', '/v1/orgs/anything'],
      ['GET', '/v1/email-domains/example.com/orgs'],
      ['GET', '/v1/users/anything'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('token scopes', () => {
  it('lets a token use only the operations its scopes allow', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id, { title: 'Scoped' });
    const readOnly = await t.factory.token(owner.user.id, { scopes: ['organization:read'] });

    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: readOnly.headers })).statusCode,
    ).toBe(200);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: readOnly.headers,
      payload: { title: 'Changed' },
    });
    expect(patch.statusCode).toBe(403);
    expect(patch.json()).toEqual({
      error: { code: 403, message: 'This token lacks the "organization:write" scope this operation needs' },
    });
    const user = await t.app.inject({ method: 'GET', url: '/v1/user', headers: readOnly.headers });
    expect(user.statusCode).toBe(403);

    const stored = await t.db
      .selectFrom('organizations')
      .select('title')
      .where('id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(stored.title).toBe('Scoped');
  });

  it('counts a :write scope as its :read scope too', async () => {
    const owner = await t.factory.account();
    const org = await t.factory.organization(owner.user.id);
    const writer = await t.factory.token(owner.user.id, { scopes: ['organization:write'] });

    expect((await t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: writer.headers })).statusCode).toBe(
      200,
    );
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: writer.headers,
      payload: { ai: true },
    });
    expect(patch.statusCode).toBe(200);
  });
});

describe('GET /v1/users/{userId}', () => {
  it('shows a user who shares an organization, and hides everyone else', async () => {
    const me = await t.factory.account();
    const colleague = await t.factory.account();
    const stranger = await t.factory.account();
    const org = await t.factory.organization(me.user.id);
    await t.factory.member(org.id, colleague.user.id, 'read');

    const visible = await t.app.inject({ method: 'GET', url: `/v1/users/${colleague.user.id}`, headers: me.headers });
    expect(visible.statusCode).toBe(200);
    expect(visible.json()).toMatchObject({ object: 'user', id: colleague.user.id });
    expectSpecResponse('getUserById', 200, visible.json());

    const self = await t.app.inject({ method: 'GET', url: `/v1/users/${me.user.id}`, headers: me.headers });
    expect(self.statusCode).toBe(200);

    const hidden = await t.app.inject({ method: 'GET', url: `/v1/users/${stranger.user.id}`, headers: me.headers });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: { code: 404, message: 'No user with this id is visible to you' } });
  });
});

describe('the token cache', () => {
  it('keeps a token revoked elsewhere working no longer than AUTH_CACHE_TTL_MS', async () => {
    let now = Date.now();
    const clock: Clock = { now: () => new Date(now) };
    const app = await buildOwnApp(testConfig(t.database.url, { authCacheTtlMs: 5_000 }), { clock });
    try {
      const me = await t.factory.account();
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);

      // Revoked by another instance or the CLI: this instance has not heard of it.
      await revokeApiToken(t.db, systemClock, me.tokenId);
      now += 4_000;
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
      now += 1_001;
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('forgets a token revoked on this instance at once', async () => {
    const app = await buildOwnApp(testConfig(t.database.url, { authCacheTtlMs: 60_000 }));
    try {
      const me = await t.factory.account();
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
      await revokeApiToken(t.db, systemClock, me.tokenId);
      app.forgetToken(me.tokenId);
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('still refuses a cached token once it expires', async () => {
    let now = Date.now();
    const clock: Clock = { now: () => new Date(now) };
    const app = await buildOwnApp(testConfig(t.database.url, { authCacheTtlMs: 60_000 }), { clock });
    try {
      const me = await t.factory.account({ expiresAt: new Date(now + 2_000) });
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
      now += 2_000;
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});
