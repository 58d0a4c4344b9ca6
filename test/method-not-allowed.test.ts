import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';

const t = useTestApp();

describe('a known path with another method', () => {
  it('answers 405 with the methods the path takes in Allow, path parameters included', async () => {
    const me = await t.factory.account();
    const cases: Array<[method: 'PUT' | 'DELETE' | 'GET' | 'POST' | 'PATCH', url: string, allow: string]> = [
      ['PUT', '/v1/spaces/abc', 'GET, HEAD, PATCH, DELETE'],
      ['GET', '/v1/spaces/abc/move', 'POST'],
      ['DELETE', '/v1/orgs?limit=1', 'GET, HEAD, POST'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['PATCH', '/v1/spaces/abc/change-requests/7/content', 'GET, HEAD, POST'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.app.inject({ method, url, headers: me.headers });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
      const path = url.split('?')[0];
      expect(res.json()).toEqual({
        error: { code: 405, message: `${method} is not allowed on ${path}; it takes ${allow}` },
      });
    }
  });

  it('answers HEAD and OPTIONS the same way, without a body for HEAD and without OPTIONS in Allow', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/v1/spaces/abc/move' });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('POST');
    expect(head.body).toBe('');
    const options = await t.app.inject({ method: 'OPTIONS', url: '/v1/spaces/abc' });
    expect(options.statusCode).toBe(405);
    expect(options.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
  });

  it('answers before authentication, as for an unknown path: the method is wrong whatever the token', async () => {
    for (const headers of [{}, { authorization: 'Bearer made-up' }]) {
      const res = await t.app.inject({ method: 'PUT', url: '/v1/spaces/abc', headers });
      expect(res.statusCode).toBe(405);
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    // The right method with a bad token is still a 401.
    const right = await t.app.inject({
      method: 'PATCH',
      url: '/v1/spaces/abc',
      headers: { authorization: 'Bearer made-up' },
      payload: { title: 'x' },
    });
    expect(right.statusCode).toBe(401);
  });

  it('carries the security headers and the request id', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/spaces/abc', headers: { 'x-request-id': 'trace-405' } });
    expect(res.statusCode).toBe(405);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-request-id']).toBe('trace-405');
  });
});

describe('an unknown path', () => {
  it('stays a 404 whatever the method', async () => {
    const me = await t.factory.account();
    for (const [method, url] of [
      ['PUT', '/v1/nothing'],
      ['GET', '/v1/spaces/abc/nothing'],
      ['GET', '/v1/spaces/abc/'],
      ['DELETE', '/v2/spaces/abc'],
      // Over the router's parameter length: no route takes it, whatever the method.
      ['OPTIONS', `/v1/spaces/${'x'.repeat(200)}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: me.headers });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.json()).toEqual({ error: { code: 404, message: `No route for ${method} ${url}` } });
    }
  });
});
