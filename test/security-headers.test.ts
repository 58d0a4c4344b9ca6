import Fastify, { type LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { securityHeadersPlugin } from '../src/core/security-headers.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const API_POLICY = "default-src 'none';frame-ancestors 'none'";

/** Directives of a Content-Security-Policy by name, each with its sources. */
function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const policy = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectCommonHeaders(response: LightMyRequestResponse) {
  expect(response.headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  });
  // PUBLIC_URL of the tests is http: no HSTS.
  expect(response.headers['strict-transport-security']).toBeUndefined();
}

let admin: Account;
let organizationId: string;

beforeAll(async () => {
  const team = await t.factory.team();
  admin = team.admin;
  organizationId = team.organization.id;
});

describe('security headers on JSON', () => {
  it('forbid everything to an API answer opened as a page, and keep it to its own origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/user', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res);
    expect(res.headers['content-security-policy']).toBe(API_POLICY);
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('are on refusals and errors as well: 401, 400, 404, an undecodable path, the probes', async () => {
    const responses = [
      await t.app.inject({ method: 'GET', url: '/v1/user' }),
      await t.app.inject({
        method: 'GET',
        url: `/v1/orgs/${organizationId}/spaces?limit=5000`,
        headers: admin.headers,
      }),
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organizationId}/spaces`,
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: '{"title":',
      }),
      await t.app.inject({ method: 'GET', url: '/no/such/route' }),
      await t.app.inject({ method: 'GET', url: '/v1/spaces/%E0%A4%A' }),
      await t.app.inject({ method: 'GET', url: '/healthz' }),
      await t.app.inject({ method: 'GET', url: '/openapi.json' }),
    ];
    expect(responses.map((res) => res.statusCode)).toEqual([401, 400, 400, 404, 400, 200, 200]);
    for (const res of responses) {
      expectCommonHeaders(res);
      expect(res.headers['content-security-policy']).toBe(API_POLICY);
    }
  });
});

describe('security headers on the API reference UI', () => {
  it('let Swagger UI load its own scripts, styles and images and call the API, and nothing else', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expectCommonHeaders(page);
    const csp = directives(page);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('connect-src')).toEqual(["'self'", PUBLIC_URL]);

    // Every script of the page is a file of the UI's own (script-src 'self'): none inline.
    const scripts = [...page.body.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/src="\/docs\/static\/[\w.-]+\.js"/);
    for (const tag of scripts) {
      const src = /src="([^"]+)"/.exec(tag)![1]!;
      const script = await t.app.inject({ method: 'GET', url: src });
      expect(script.statusCode, src).toBe(200);
      expect(script.headers['content-type']).toMatch(/javascript/);
      expectCommonHeaders(script);
    }
  });

  it('send no badge request to validator.swagger.io', async () => {
    const initializer = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain('"validatorUrl":null');
  });
});

describe('security headers on files other sites show', () => {
  it('keep a file download sandboxed, sniff-free and loadable from other origins', async () => {
    const space = await api.createSpace(admin, organizationId, { title: 'Files' });
    const { written } = await api.change(admin, space.id, [
      {
        operation: 'insert_files',
        files: [{ name: 'page.html', contentType: 'text/html', base64: btoa('<script>1</script>') }],
      },
    ]);
    const fileId = (written as { insertedFiles: Array<{ id: string }> }).insertedFiles[0]!.id;
    const file = await api.read(admin, `/v1/spaces/${space.id}/content/files/${fileId}`);
    const download = await t.app.inject({ method: 'GET', url: file.json().downloadURL.replace(PUBLIC_URL, '') });
    expect(download.statusCode).toBe(200);
    expectCommonHeaders(download);
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(download.headers['cross-origin-resource-policy']).toBe('cross-origin');

    const refused = await t.app.inject({ method: 'GET', url: `/files/${fileId}/page.html?expires=1&signature=x` });
    expect(refused.statusCode).toBe(404);
    expectCommonHeaders(refused);
  });

  it('keep an integration image sandboxed and loadable from other origins', async () => {
    const name = `headers-${organizationId.slice(0, 8).toLowerCase()}`;
    const published = await t.app.inject({
      method: 'POST',
      url: `/v1/integrations/${name}`,
      headers: admin.headers,
      payload: {
        title: 'Headers',
        description: 'An icon',
        script: 'export default {}',
        organization: organizationId,
        visibility: 'public',
        icon: PNG,
      },
    });
    expect(published.statusCode, published.body).toBe(200);
    const icon = await t.app.inject({ method: 'GET', url: new URL(published.json().urls.icon as string).pathname });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expectCommonHeaders(icon);
    expect(icon.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(icon.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});

describe('Strict-Transport-Security', () => {
  async function served(publicUrl: string) {
    const app = Fastify();
    await app.register(securityHeadersPlugin, { publicUrl, docsPrefix: '/docs', embeddablePrefixes: ['/files/'] });
    app.get('/v1/thing', async () => ({ ok: true }));
    app.get('/docs', async (_request, reply) => reply.type('text/html').send('<p>docs</p>'));
    await app.ready();
    return app;
  }

  it('is sent when the public URL is https, and only then', async () => {
    const https = await served('https://docs.example.com/base');
    const http = await served('http://docs.example.com');
    for (const url of ['/v1/thing', '/docs', '/nothing']) {
      expect((await https.inject({ method: 'GET', url })).headers['strict-transport-security']).toBe(
        'max-age=31536000',
      );
      expect((await http.inject({ method: 'GET', url })).headers['strict-transport-security']).toBeUndefined();
    }
    const docs = await https.inject({ method: 'GET', url: '/docs' });
    expect(directives(docs).get('connect-src')).toEqual(["'self'", 'https://docs.example.com']);
    await Promise.all([https.close(), http.close()]);
  });
});
