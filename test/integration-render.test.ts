import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import lzString from 'lz-string';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomString } from '../src/core/ids.js';
import { fanOutEvents } from '../src/integrations/events/fan-out.js';
import { SIGNATURE_HEADER, verifySignature } from '../src/integrations/events/signature.js';
import { listen, testConfig, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectNewestSpecResponse } from './support/spec.js';

// A short fetch deadline, so that the slow endpoint below outlasts it quickly.
const t = useTestApp({ config: () => ({ outbound: { ...testConfig('').outbound, timeoutMs: 500 } }) });

/** What the test endpoint answers, by the componentId it is asked to render. */
const ELEMENT = { type: 'block', children: [{ type: 'text', children: ['Service is up'] }] };
type Received = { path: string; headers: IncomingHttpHeaders; body: string; verified: boolean };

let server: Server;
let base: string;
let received: Received[] = [];
let secret = '';

function answer(componentId: string, body: string): { status: number; headers?: Record<string, string>; body: string } {
  switch (componentId) {
    case 'status':
      return {
        status: 200,
        headers: { 'cache-control': 'public, max-age=60' },
        body: JSON.stringify({ type: 'element', element: ELEMENT, state: { count: 1 }, props: JSON.parse(body).props }),
      };
    case 'done':
      return { status: 200, body: JSON.stringify({ type: 'complete', returnValue: { picked: 'a' } }) };
    case 'failing':
      return { status: 500, body: 'internal error' };
    case 'redirecting':
      return { status: 307, headers: { location: 'http://127.0.0.1:9/' }, body: '' };
    case 'prose':
      return { status: 200, body: '<html>not json</html>' };
    case 'shapeless':
      return { status: 200, body: JSON.stringify({ element: { type: 'paragraph' }, state: {}, props: {} }) };
    case 'huge':
      return {
        status: 200,
        body: JSON.stringify({ element: ELEMENT, state: { pad: 'x'.repeat(600 * 1024) }, props: {} }),
      };
    case 'deep':
      return { status: 200, body: `{"element":${'['.repeat(300)}${']'.repeat(300)}}` };
    default:
      return { status: 404, body: '' };
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = String(request.headers[SIGNATURE_HEADER] ?? '');
      const verified = secret !== '' && verifySignature(secret, body, header, Math.floor(Date.now() / 1000));
      received.push({ path: request.url ?? '', headers: request.headers, body, verified });
      // An endpoint refuses what its secret did not sign, as GitBook's runtime does.
      if (!verified) {
        response.writeHead(401).end();
        return;
      }
      const componentId = (JSON.parse(body) as { componentId: string }).componentId;
      if (componentId === 'slow') {
        setTimeout(() => response.writeHead(200).end('{}'), 2000).unref();
        return;
      }
      const { status, headers, body: out } = answer(componentId, body);
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(out);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  received = [];
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(account: Account | null, method: Method, url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/v1${url}`,
    ...(account ? { headers: account.headers } : {}),
    ...(payload ? { payload } : {}),
  });
}
async function ok<T>(account: Account, method: Method, url: string, payload: object | undefined, status = 200) {
  const res = await call(account, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return (res.body === '' ? undefined : res.json()) as T;
}

let admin: Account;
let reader: Account;
let customer: Account;
let org: string;
let customerOrg: string;
let space: string;
let spareSpace: string;
let customerSpace: string;
let site: string;
let name: string;
let installation: string;
let customerInstallation: string;

const documentContext = (spaceId: string) => ({ type: 'document', spaceId, editable: true, theme: 'light' });
const render = (componentId: string, context: object = documentContext(space), extra: object = {}) => ({
  componentId,
  props: { service: 'api' },
  context,
  ...extra,
});

beforeAll(async () => {
  const team = await t.factory.team(['read']);
  admin = team.admin;
  reader = team.member('read');
  org = team.organization.id;
  customer = await t.factory.account();
  customerOrg = (await t.factory.organization(customer.user.id)).id;
  const newSpace = async (account: Account, organization: string) =>
    (await ok<{ id: string }>(account, 'POST', `/orgs/${organization}/spaces`, { title: 'Rendered' }, 201)).id;
  space = await newSpace(admin, org);
  spareSpace = await newSpace(admin, org);
  customerSpace = await newSpace(customer, customerOrg);
  site = (await insertSite(t.db, org)).id;

  name = `render-${randomString(8).toLowerCase()}`;
  await ok(admin, 'POST', `/integrations/${name}`, {
    title: 'Status',
    description: 'Renders a status block',
    script: 'export default {}',
    organization: org,
    visibility: 'public',
    blocks: [{ id: 'status', title: 'Status' }],
    endpoint: `${base}/endpoint`,
  });
  secret = (await ok<{ secret: string }>(admin, 'POST', `/integrations/${name}/signing-secret`, undefined)).secret;
  installation = (
    await ok<{ id: string }>(admin, 'POST', `/integrations/${name}/installations`, { organization: org }, 201)
  ).id;
  await ok(admin, 'POST', `/integrations/${name}/installations/${installation}/spaces`, { space }, 201);
  await ok(admin, 'POST', `/integrations/${name}/installations/${installation}/sites`, { siteId: site }, 201);
  customerInstallation = (
    await ok<{ id: string }>(
      customer,
      'POST',
      `/integrations/${name}/installations`,
      { organization: customerOrg },
      201,
    )
  ).id;
  await ok(
    customer,
    'POST',
    `/integrations/${name}/installations/${customerInstallation}/spaces`,
    { space: customerSpace },
    201,
  );
});

describe('rendering an integration’s UI', () => {
  it('posts a signed ui_render event to the endpoint and answers its ContentKit output', async () => {
    const res = await call(
      reader,
      'POST',
      `/integrations/${name}/render`,
      render('status', documentContext(space), { state: { count: 0 } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ type: 'element', element: ELEMENT, state: { count: 1 }, props: { service: 'api' } });
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.path).toBe('/endpoint');
    expect(request!.verified).toBe(true);
    expect(request!.headers['content-type']).toBe('application/json');
    const event = JSON.parse(request!.body);
    // The spec's PlainObject matches any value, so that its oneOf fails on any prop: checked without props.
    const bare = await ok(reader, 'POST', `/integrations/${name}/render`, { ...render('status'), props: {} });
    expectNewestSpecResponse('renderIntegrationUIWithPost', 200, bare);
    expect(event).toEqual({
      eventId: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      type: 'ui_render',
      installationId: installation,
      spaceId: space,
      auth: { userId: reader.user.id },
      componentId: 'status',
      props: { service: 'api' },
      state: { count: 0 },
      context: documentContext(space),
    });
  });

  it('answers a completed render, and takes the request LZ-compressed by GET', async () => {
    const done = await ok(
      admin,
      'POST',
      `/integrations/${name}/render`,
      render('done', { type: 'configuration_account', organizationId: org, theme: 'dark' }),
    );
    expectNewestSpecResponse('renderIntegrationUIWithPost', 200, done);
    expect(done).toEqual({ type: 'complete', returnValue: { picked: 'a' } });
    const compressed = lzString.compressToEncodedURIComponent(JSON.stringify(render('status')));
    const res = await call(reader, 'GET', `/integrations/${name}/render?request=${compressed}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ type: 'element', element: ELEMENT, state: { count: 1 }, props: { service: 'api' } });
    const bare = lzString.compressToEncodedURIComponent(JSON.stringify({ ...render('status'), props: {} }));
    const bareRes = await call(reader, 'GET', `/integrations/${name}/render?request=${bare}`);
    expectNewestSpecResponse('renderIntegrationUIWithGet', 200, bareRes.json());
    const siteConfiguration = await ok(
      admin,
      'POST',
      `/integrations/${name}/render`,
      render('done', { type: 'configuration_site', siteId: site, theme: 'light' }),
    );
    expect(siteConfiguration).toMatchObject({ type: 'complete' });
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ siteId: site, installationId: installation });
  });

  it('turns the endpoint’s failures into 502s and its silence into a 504', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['failing', 502, /answered the render with HTTP 500/],
      ['redirecting', 502, /answered the render with HTTP 307/],
      ['prose', 502, /something other than JSON/],
      ['shapeless', 502, /not a ContentKit output/],
      ['huge', 502, /larger than 512 KiB/],
      ['deep', 502, /nests deeper than/],
      ['unknown-component', 502, /HTTP 404/],
      ['slow', 504, /did not render within 500 ms/],
    ];
    for (const [componentId, status, message] of cases) {
      const res = await call(reader, 'POST', `/integrations/${name}/render`, render(componentId));
      expect(res.statusCode, `${componentId}: ${res.body}`).toBe(status);
      expect(res.json()).toEqual({ error: { code: status, message: expect.stringMatching(message) } });
    }
  });

  it('goes to the development tunnel for the publisher’s organization, or all of them with `all`', async () => {
    await ok(admin, 'PUT', `/integrations/${name}/dev`, { tunnelUrl: `${base}/tunnel` }, 204);
    await ok(reader, 'POST', `/integrations/${name}/render`, render('status'));
    await ok(customer, 'POST', `/integrations/${name}/render`, render('status', documentContext(customerSpace)));
    expect(received.map((request) => request.path)).toEqual(['/tunnel', '/endpoint']);
    await ok(admin, 'PUT', `/integrations/${name}/dev`, { tunnelUrl: `${base}/tunnel`, all: true }, 204);
    await ok(customer, 'POST', `/integrations/${name}/render`, render('status', documentContext(customerSpace)));
    expect(received.at(-1)!.path).toBe('/tunnel');
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({
      installationId: customerInstallation,
      spaceId: customerSpace,
    });
    // Its events too: an installation set up now is delivered to the tunnel.
    const another = (await ok<{ id: string }>(admin, 'POST', `/orgs/${org}/spaces`, { title: 'Another' }, 201)).id;
    await ok(admin, 'POST', `/integrations/${name}/installations/${installation}/spaces`, { space: another }, 201);
    await fanOutEvents(t.db);
    const deliveries = await t.db
      .selectFrom('event_deliveries as d')
      .innerJoin('integrations as i', 'i.id', 'd.integration_id')
      .select(['d.url', 'd.payload'])
      .where('i.name', '=', name)
      .execute();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(new Set(deliveries.map((delivery) => delivery.url))).toEqual(new Set([`${base}/tunnel`]));

    await ok(admin, 'DELETE', `/integrations/${name}/dev`, undefined, 205);
    await ok(customer, 'POST', `/integrations/${name}/render`, render('status', documentContext(customerSpace)));
    expect(received.at(-1)!.path).toBe('/endpoint');
    await ok(admin, 'DELETE', `/integrations/${name}/installations/${installation}/spaces/${another}`, undefined, 205);
    await fanOutEvents(t.db);
    const after = await t.db
      .selectFrom('event_deliveries as d')
      .innerJoin('integrations as i', 'i.id', 'd.integration_id')
      .select('d.url')
      .where('i.name', '=', name)
      .orderBy('d.seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(after.url).toBe(`${base}/endpoint`);
  });

  it('renders only where the caller sees the UI, sending nothing otherwise', async () => {
    const url = `/integrations/${name}/render`;
    const refusals: Array<[Account | null, object, number, RegExp?]> = [
      [null, render('status'), 401],
      // The customer's admin does not see the publisher's space; the publisher's member no other organization's.
      [customer, render('status'), 404, /No space with this id is visible to you/],
      [reader, render('status', documentContext(customerSpace)), 404],
      // Installed on the organization, not on that space.
      [reader, render('status', documentContext(spareSpace)), 404, /not installed where this UI renders/],
      [
        reader,
        render('status', { type: 'configuration_space', spaceId: space, theme: 'light' }),
        403,
        /admin role on the space/,
      ],
      [reader, render('status', { type: 'configuration_account', organizationId: org, theme: 'light' }), 403],
      [reader, render('status', { type: 'configuration_site', siteId: site, theme: 'light' }), 403],
      [customer, render('status', { type: 'configuration_account', organizationId: org, theme: 'light' }), 404],
      [admin, render('status', { type: 'configuration_site', siteId: 'no-such-site', theme: 'light' }), 404],
      [reader, { props: {}, context: documentContext(space) }, 400, /componentId/],
      [reader, render('x'.repeat(257)), 400, /componentId/],
      [reader, render('status', { type: 'elsewhere', spaceId: space, theme: 'light' }), 400],
      [reader, render('status', { type: 'document', spaceId: space, theme: 'light' }), 400],
      [reader, { ...render('status'), props: 'not an object' }, 400],
    ];
    for (const [account, payload, status, message] of refusals) {
      const res = await call(account, 'POST', url, payload);
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 120)}: ${res.body}`).toBe(status);
      expect(res.json().error.code).toBe(status);
      if (message) expect(res.json().error.message).toMatch(message);
    }
    const unknown = await call(reader, 'POST', '/integrations/no-such-integration/render', render('status'));
    expect(unknown.statusCode).toBe(404);
    for (const request of ['', 'not compressed at all!', lzString.compressToEncodedURIComponent('{"componentId":')]) {
      const res = await call(reader, 'GET', `${url}?request=${encodeURIComponent(request)}`);
      expect(res.statusCode, res.body).toBe(400);
    }
    const wrongShape = lzString.compressToEncodedURIComponent(JSON.stringify({ componentId: 'status' }));
    expect((await call(reader, 'GET', `${url}?request=${wrongShape}`)).json().error.message).toMatch(
      /querystring\/request/,
    );
    expect(received).toEqual([]);
  });

  it('is a 409 for an integration with no endpoint, and the endpoint refuses a wrong signature', async () => {
    const silent = `render-${randomString(8).toLowerCase()}`;
    await ok(admin, 'POST', `/integrations/${silent}`, {
      title: 'Silent',
      description: 'No endpoint',
      script: 'export default {}',
      organization: org,
    });
    const id = (
      await ok<{ id: string }>(admin, 'POST', `/integrations/${silent}/installations`, { organization: org }, 201)
    ).id;
    await ok(admin, 'POST', `/integrations/${silent}/installations/${id}/spaces`, { space }, 201);
    const res = await call(reader, 'POST', `/integrations/${silent}/render`, render('status'));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('The integration names no endpoint to render its UI with');

    // A rotated secret the endpoint does not know yet: it refuses, and so the render is a 502.
    await ok(admin, 'POST', `/integrations/${name}/signing-secret`, undefined);
    const refused = await call(reader, 'POST', `/integrations/${name}/render`, render('status'));
    expect(refused.statusCode).toBe(502);
    expect(received.at(-1)!.verified).toBe(false);
    secret = (await ok<{ secret: string }>(admin, 'POST', `/integrations/${name}/signing-secret`, undefined)).secret;
  });

  it('answers the official client', async () => {
    const client = newestOfficialClient(await listen(t.app), reader.token);
    const { data } = await client.integrations.renderIntegrationUiWithPost(name, {
      componentId: 'status',
      props: { service: 'api' },
      context: { type: 'document', spaceId: space, editable: false, theme: 'light' },
    });
    expect(data).toMatchObject({ element: ELEMENT });
  });
});
