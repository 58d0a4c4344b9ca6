import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig, useTestApp } from './support/app.js';

const t = useTestApp();

describe('error responses', () => {
  it('answers an unknown route with 404 in the error body shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/nothing?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 404, message: 'No route for GET /v2/nothing' } });
  });

  it('answers malformed JSON with 400', async () => {
    const me = await t.factory.account();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { ...me.headers, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 400, message: 'The request body is not valid JSON' } });
  });

  it('answers a body that is not JSON with 415', async () => {
    const me = await t.factory.account();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/orgs',
        headers: { ...me.headers, 'content-type': contentType },
        payload: 'title=x',
      });
      expect(res.statusCode, contentType).toBe(415);
      expect(res.json()).toEqual({
        error: { code: 415, message: 'The request body must be JSON (Content-Type: application/json)' },
      });
    }
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const me = await t.factory.account();
    for (const payload of ['[]', '"title"', '42', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/orgs',
        headers: { ...me.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.code).toBe(400);
    }
  });

  it('answers a body over the size limit with 413 and creates nothing', async () => {
    const app = await buildApp(testConfig(t.database.url, { bodyLimit: 1024 }));
    try {
      const me = await t.factory.account();
      const res = await app.inject({
        method: 'POST',
        url: '/v1/orgs',
        headers: me.headers,
        payload: { title: 'x'.repeat(2000) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        error: { code: 413, message: 'The request body is larger than this service accepts' },
      });
      const memberships = await t.db
        .selectFrom('organization_members')
        .select('user_id')
        .where('user_id', '=', me.user.id)
        .execute();
      expect(memberships).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('tags every response with a request id, keeping the caller’s own', async () => {
    const generated = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
  });

  it('never answers 500 to odd input, and always with the error body shape', async () => {
    const me = await t.factory.account();
    const org = await t.factory.organization(me.user.id);
    const collection = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${org.id}/collections`,
        headers: me.headers,
        payload: { title: 'C' },
      })
    ).json();
    const space = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${org.id}/spaces`,
        headers: me.headers,
        payload: { title: 'S' },
      })
    ).json();
    const paths = [
      `/v1/orgs/${org.id}`,
      `/v1/orgs/${org.id}/spaces`,
      `/v1/orgs/${org.id}/collections?nested=maybe`,
      `/v1/spaces/${space.id}`,
      `/v1/spaces/${space.id}?shareKey=${'k'.repeat(500)}`,
      `/v1/spaces/${space.id}/move`,
      `/v1/spaces/${space.id}/transfer`,
      `/v1/spaces/${space.id}/duplicate`,
      `/v1/spaces/${space.id}/restore`,
      `/v1/collections/${collection.id}`,
      `/v1/collections/${collection.id}/spaces`,
      `/v1/collections/${collection.id}/move`,
      `/v1/collections/${collection.id}/transfer`,
      '/v1/orgs/%00%ff',
      `/v1/orgs/${'x'.repeat(500)}`,
      '/v1/orgs/../../etc/passwd',
      '/v1/orgs?limit=1e3',
      '/v1/orgs?limit=&page=',
      '/v1/orgs?page=%F0%9F%98%80',
      '/v1/email-domains/%2e%2e/orgs',
      `/v1/email-domains/${'a'.repeat(300)}.com/orgs`,
      '/v1/users/%20',
    ];
    const payloads: unknown[] = [
      { title: '\u0000\u0000' },
      { title: '😀'.repeat(255) },
      { title: 'ok', hostname: 'x'.repeat(10_000) },
      { emailDomains: [null] },
      { defaultContent: { type: 'site' } },
      { logo: 'http://' },
      { title: { $gt: '' } },
      { __proto__: { admin: true }, title: 'Proto' },
      { constructor: { prototype: { admin: true } } },
      { parent: { $ne: null } },
      { parent: 'x'.repeat(129) },
      { position: { before: { type: 'space', space: null } } },
      {
        position: {
          before: { type: 'collection', collection: collection.id },
          after: { type: 'collection', collection: collection.id },
        },
      },
      { organization: '' },
      { organization: org.id },
      { emoji: '\u0000' },
      { visibility: 'in-collection' },
      { defaultLevel: 'inherit', editMode: 'locked' },
    ];
    for (const url of paths) {
      for (const method of ['GET', 'PATCH', 'POST', 'PUT'] as const) {
        const withBody = method === 'PATCH' || method === 'POST' || method === 'PUT';
        for (const payload of withBody ? payloads : [undefined]) {
          const res = await t.app.inject({
            method,
            url,
            headers: me.headers,
            ...(payload === undefined ? {} : { payload: payload as object }),
          });
          expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(res.json(), `${method} ${url}`).toEqual({
              error: { code: res.statusCode, message: expect.any(String) },
            });
          }
        }
      }
    }
  });

  it('keeps a NUL character out of the database with a 400', async () => {
    const me = await t.factory.account();
    const org = await t.factory.organization(me.user.id, { title: 'Clean' });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${org.id}`,
      headers: me.headers,
      payload: { title: 'a\u0000b' },
    });
    expect(res.statusCode).toBe(400);
    const stored = await t.db
      .selectFrom('organizations')
      .select('title')
      .where('id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(stored.title).toBe('Clean');
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After and RateLimit headers once a user used their allowance, per user', async () => {
    const app = await buildApp(testConfig(t.database.url, { rateLimit: { max: 3, windowMs: 60_000 } }));
    try {
      const first = await t.factory.account();
      const second = await t.factory.account();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await app.inject({ method: 'GET', url: '/v1/user', headers: first.headers })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);

      const limited = await app.inject({ method: 'GET', url: '/v1/user', headers: first.headers });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: { code: 429, message: expect.stringMatching(/^Rate limit exceeded/) } });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['ratelimit-limit']).toBe('3');
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(limited.headers['ratelimit-reset']).toBeDefined();

      const other = await app.inject({ method: 'GET', url: '/v1/user', headers: second.headers });
      expect(other.statusCode).toBe(200);
      expect(other.headers['ratelimit-remaining']).toBe('2');

      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('refuses an address that keeps sending made-up tokens before looking them up, without touching valid tokens', async () => {
    const app = await buildApp(testConfig(t.database.url, { rateLimit: { max: 3, windowMs: 60_000 } }));
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await app.inject({
          method: 'GET',
          url: '/v1/user',
          headers: { authorization: `Bearer made-up-${i}` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const refused = await app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: 'Bearer made-up-again' },
      });
      expect(refused.json()).toEqual({
        error: { code: 429, message: expect.stringMatching(/^Too many failed authentications/) },
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

      // Another address is not affected.
      const elsewhere = await app.inject({
        method: 'GET',
        url: '/v1/user',
        remoteAddress: '10.1.2.3',
        headers: { authorization: 'Bearer nope' },
      });
      expect(elsewhere.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('still serves a valid token whose answer is cached while its address is refused for bad ones', async () => {
    const app = await buildApp(
      testConfig(t.database.url, { rateLimit: { max: 2, windowMs: 60_000 }, authCacheTtlMs: 60_000 }),
    );
    try {
      const me = await t.factory.account();
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
      for (let i = 0; i < 3; i++)
        await app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer bad-${i}` } });
      expect(
        (await app.inject({ method: 'GET', url: '/v1/user', headers: { authorization: 'Bearer bad-x' } })).statusCode,
      ).toBe(429);
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
