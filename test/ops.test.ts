import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig, useTestApp } from './support/app.js';
import { TcpProxy } from './support/tcp-proxy.js';

const t = useTestApp();

describe('probes and API description', () => {
  it('answers /healthz and /readyz without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });

  it('publishes an OpenAPI document of every route, generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
      Object.values(methods).map((operation) => operation.operationId),
    );
    expect(operations.sort()).toEqual(
      [
        'createOrganization',
        'getAuthenticatedUser',
        'getOrganizationById',
        'getOrganizationsForEmailDomain',
        'getUserById',
        'listOrganizationsForAuthenticatedUser',
        'updateOrganizationById',
      ].sort(),
    );
    expect(doc.components.schemas).toHaveProperty('ErrorResponse');
    expect(doc.components.schemas).toHaveProperty('Organization');
    expect(doc.paths['/v1/orgs/{organizationId}'].patch.requestBody.content['application/json'].schema.properties.title).toMatchObject({
      minLength: 2,
      maxLength: 255,
    });
  });

  it('serves an API reference page at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('when the database goes away', () => {
  it('answers 503 while it is gone and recovers by itself when it returns', async () => {
    const target = new URL(t.database.url);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const viaProxy = new URL(t.database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const app = await buildApp(testConfig(viaProxy.toString()));
    try {
      const me = await t.factory.account();
      expect((await app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers })).statusCode).toBe(200);

      await proxy.cut();
      const during = await app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers });
      expect(during.statusCode).toBe(503);
      expect(during.json()).toEqual({ error: { code: 503, message: 'The database is unavailable; try again shortly' } });
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      await proxy.start();
      expect((await app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await proxy.cut();
    }
  });
});
