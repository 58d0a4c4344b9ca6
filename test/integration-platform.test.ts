import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomString } from '../src/core/ids.js';
import { listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectNewestSpecResponse, expectSpecSchema } from './support/spec.js';

// Private addresses refused, as in production: the tunnel's checks are what this file tests.
const t = useTestApp({ config: () => ({ outbound: { ...testConfig('').outbound, allowPrivate: false } }) });

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

/** A read answered as the newest spec says. */
async function read<T>(account: Account, url: string, operationId: string): Promise<T> {
  const body = await ok<T>(account, 'GET', url, undefined);
  expectNewestSpecResponse(operationId, 200, body);
  return body;
}

async function refused(account: Account | null, method: Method, url: string, status: number, payload?: object) {
  const res = await call(account, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  expect(res.json().error.code).toBe(status);
  return res.json<{ error: { message: string } }>().error.message;
}

let admin: Account;
let reader: Account;
let guest: Account;
let org: string;
let customer: Account;
let customerOrg: string;
let stranger: Account;
const names = {} as { blocks: string; scripts: string; privateOwn: string; privateOther: string; idle: string };
let blocksInstallation: string;
let customerInstallation: string;
let space: string;
let spareSpace: string;
let customerSpace: string;
let site: string;
let endpoint: string | undefined;
/** The app listening, for the official client: once for the file. */
const listening = async () => (endpoint ??= await listen(t.app));

const BLOCKS = [{ id: 'status', title: 'Status', description: 'The status of a service' }];

async function publish(account: Account, organization: string, fields: Record<string, unknown>, prefix = 'platform') {
  const name = `${prefix}-${randomString(8).toLowerCase()}`;
  await ok(account, 'POST', `/integrations/${name}`, {
    title: `Integration ${name}`,
    description: 'Lists where it is',
    script: 'export default {}',
    organization,
    visibility: 'public',
    ...fields,
  });
  return name;
}

const install = async (account: Account, name: string, organization: string) =>
  (await ok<{ id: string }>(account, 'POST', `/integrations/${name}/installations`, { organization }, 201)).id;

beforeAll(async () => {
  const team = await t.factory.team(['read', null]);
  admin = team.admin;
  reader = team.member('read');
  guest = team.member(null);
  org = team.organization.id;
  customer = await t.factory.account();
  customerOrg = (await t.factory.organization(customer.user.id)).id;
  stranger = await t.factory.account();
  const newSpace = async (account: Account, organization: string, title: string) =>
    (await ok<{ id: string }>(account, 'POST', `/orgs/${organization}/spaces`, { title }, 201)).id;
  space = await newSpace(admin, org, 'Installed');
  spareSpace = await newSpace(admin, org, 'Spare');
  customerSpace = await newSpace(customer, customerOrg, 'Customer');
  site = (await insertSite(t.db, org)).id;

  names.blocks = await publish(admin, org, { blocks: BLOCKS, title: 'Status blocks' }, 'blocks');
  names.scripts = await publish(admin, org, {
    scopes: ['site:script:inject', 'site:script:cookies'],
    contentSecurityPolicy: { 'script-src': 'https://cdn.example.com' },
  });
  names.privateOwn = await publish(admin, org, { visibility: 'private' });
  names.privateOther = await publish(customer, customerOrg, { visibility: 'private' });
  names.idle = await publish(admin, org, {});

  blocksInstallation = await install(admin, names.blocks, org);
  customerInstallation = await install(customer, names.blocks, customerOrg);
  await ok(admin, 'POST', `/integrations/${names.blocks}/installations/${blocksInstallation}/spaces`, { space }, 201);
  await ok(
    admin,
    'PATCH' as Method,
    `/integrations/${names.blocks}/installations/${blocksInstallation}/spaces/${space}`,
    {
      externalIds: ['acme'],
    },
  );
  await ok(
    customer,
    'POST',
    `/integrations/${names.blocks}/installations/${customerInstallation}/spaces`,
    {
      space: customerSpace,
    },
    201,
  );
  const scripts = await install(admin, names.scripts, org);
  await ok(admin, 'POST', `/integrations/${names.scripts}/installations/${scripts}/sites`, { siteId: site }, 201);
  await install(admin, names.privateOwn, org);
});

describe('development mode', () => {
  const devRow = async (name: string) =>
    t.db
      .selectFrom('integrations')
      .select(['dev_tunnel_url', 'dev_all_organizations'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();

  it('stores the tunnel for the publisher’s admins, and clears it', async () => {
    const url = `/integrations/${names.idle}/dev`;
    await ok(admin, 'PUT', url, { tunnelUrl: 'https://93.184.215.14/tunnel', all: true }, 204);
    expect(await devRow(names.idle)).toEqual({
      dev_tunnel_url: 'https://93.184.215.14/tunnel',
      dev_all_organizations: true,
    });
    await ok(admin, 'PUT', url, { tunnelUrl: 'https://93.184.215.14:8443/' }, 204);
    expect(await devRow(names.idle)).toEqual({
      dev_tunnel_url: 'https://93.184.215.14:8443/',
      dev_all_organizations: false,
    });
    await ok(admin, 'DELETE', url, undefined, 205);
    expect(await devRow(names.idle)).toEqual({ dev_tunnel_url: null, dev_all_organizations: false });
    // Disabling it again changes nothing and says so the same way.
    await ok(admin, 'DELETE', url, undefined, 205);
  });

  it('refuses a tunnel the outbound rules refuse, changing nothing', async () => {
    const url = `/integrations/${names.idle}/dev`;
    await ok(admin, 'PUT', url, { tunnelUrl: 'https://93.184.215.14/kept' }, 204);
    const cases: Array<[object, RegExp]> = [
      [{}, /body\/tunnelUrl is required|must have required property 'tunnelUrl'/],
      [{ tunnelUrl: '' }, /body\/tunnelUrl/],
      [
        { tunnelUrl: `https://example.com/${'a'.repeat(256)}` },
        /body\/tunnelUrl must NOT have more than 256 characters/,
      ],
      [{ tunnelUrl: 'not a url' }, /body\/tunnelUrl must be an absolute https URL/],
      [{ tunnelUrl: 'ftp://93.184.215.14/' }, /body\/tunnelUrl must be an https URL/],
      [{ tunnelUrl: 'http://93.184.215.14/' }, /body\/tunnelUrl must be an https URL/],
      [{ tunnelUrl: 'https://user:secret@93.184.215.14/' }, /must not contain credentials/],
      [{ tunnelUrl: 'https://127.0.0.1:9000/' }, /names a private address/],
      [{ tunnelUrl: 'https://[::1]/' }, /names a private address/],
      [{ tunnelUrl: 'https://10.0.0.8/' }, /names a private address/],
      [{ tunnelUrl: 'https://localhost/' }, /resolves to a private address|does not resolve/],
      [{ tunnelUrl: 'https://93.184.215.14/', all: 'yes' }, /body\/all/],
      [{ tunnelUrl: 'https://93.184.215.14/', extra: 1 }, /body/],
    ];
    for (const [payload, message] of cases) {
      expect(await refused(admin, 'PUT', url, 400, payload)).toMatch(message);
    }
    expect(await devRow(names.idle)).toEqual({
      dev_tunnel_url: 'https://93.184.215.14/kept',
      dev_all_organizations: false,
    });
  });

  it('is the publisher’s admins’ alone: 401, 403 where the integration is seen, 404 where it is not', async () => {
    const url = `/integrations/${names.idle}/dev`;
    const body = { tunnelUrl: 'https://93.184.215.14/intruder' };
    const before = await devRow(names.idle);
    await refused(null, 'PUT', url, 401, body);
    expect(await refused(reader, 'PUT', url, 403, body)).toMatch(/needs the admin role/);
    expect(await refused(customer, 'PUT', url, 403, body)).toMatch(/needs the admin role/);
    await refused(customer, 'DELETE', url, 403);
    await refused(customer, 'PUT', `/integrations/${names.privateOwn}/dev`, 404, body);
    await refused(admin, 'PUT', '/integrations/no-such-integration/dev', 404, body);
    const narrow = await t.factory.token(admin.user.id, { scopes: ['integration:read'] });
    expect(await refused(narrow, 'PUT', url, 403, body)).toMatch(/integration:publish/);
    expect(await devRow(names.idle)).toEqual(before);
  });

  it('works through the official client', async () => {
    const client = newestOfficialClient(await listening(), admin.token);
    await client.integrations.setIntegrationDevelopmentMode(names.idle, { tunnelUrl: 'https://93.184.215.14/client' });
    expect((await devRow(names.idle)).dev_tunnel_url).toBe('https://93.184.215.14/client');
    await client.integrations.disableIntegrationDevelopmentMode(names.idle);
    expect((await devRow(names.idle)).dev_tunnel_url).toBeNull();
  });
});

describe('where an integration is installed', () => {
  it('lists every installation’s spaces for the publisher’s admins, page by page, by external id, extended', async () => {
    const url = `/integrations/${names.blocks}/spaces`;
    const all = await read<{ items: Array<{ space: string; installation: string }>; count: number }>(
      admin,
      url,
      'listIntegrationSpaceInstallations',
    );
    expect(all.count).toBe(2);
    expect(all.items.map((item) => item.space).sort()).toEqual([space, customerSpace].sort());
    const first = await read<{ items: unknown[]; next: { page: string } }>(
      admin,
      `${url}?limit=1`,
      'listIntegrationSpaceInstallations',
    );
    expect(first.items).toHaveLength(1);
    const second = await read<{ items: unknown[]; next?: unknown }>(
      admin,
      `${url}?limit=1&page=${first.next.page}`,
      'listIntegrationSpaceInstallations',
    );
    expect(second.items).toHaveLength(1);
    expect(second.next).toBeUndefined();
    expect(second.items).not.toEqual(first.items);
    const byExternalId = await read<{ items: Array<Record<string, unknown>> }>(
      admin,
      `${url}?externalId=acme`,
      'listIntegrationSpaceInstallations',
    );
    expect(byExternalId.items).toEqual([
      {
        integration: names.blocks,
        installation: blocksInstallation,
        status: 'active',
        configuration: {},
        externalIds: ['acme'],
        urls: {
          location: `${PUBLIC_URL}/v1/integrations/${names.blocks}/installations/${blocksInstallation}/spaces/${space}`,
          publicEndpoint: `${PUBLIC_URL}/integrations/${names.blocks}/installations/${blocksInstallation}`,
          publicContentEndpoint: `${PUBLIC_URL}/integrations/${names.blocks}/installations/${blocksInstallation}`,
        },
        space,
      },
    ]);
    const extended = await read<{ items: Array<{ space: { object: string; id: string } }> }>(
      admin,
      `${url}?externalId=acme&extended=true`,
      'listIntegrationSpaceInstallations',
    );
    expect(extended.items[0]!.space).toMatchObject({ object: 'space', id: space });
    expect(await refused(admin, 'GET', `${url}?limit=1001`, 400)).toMatch(/limit/);
    expect(await refused(admin, 'GET', `${url}?page=forged`, 400)).toMatch(/querystring\/page/);
  });

  it('lists the sites, each as a Site with extended', async () => {
    const url = `/integrations/${names.scripts}/sites`;
    const listed = await read<{ items: Array<{ site: string }> }>(admin, url, 'listIntegrationSiteInstallations');
    expect(listed.items.map((item) => item.site)).toEqual([site]);
    // The service's Site is the one of the reference spec (0.143.2), which the newest extends.
    const extended = await ok<{ items: Array<{ site: { object: string; id: string } }> }>(
      admin,
      'GET',
      `${url}?extended=true`,
      undefined,
    );
    expect(extended.items[0]!.site).toMatchObject({ object: 'site', id: site });
    expectSpecSchema('Site', extended.items[0]!.site);
    expectNewestSpecResponse('listIntegrationSiteInstallations', 200, {
      ...extended,
      items: extended.items.map((item) => ({ ...item, site: item.site.id })),
    });
  });

  it('keeps the lists from everyone but the publisher’s admins', async () => {
    for (const list of ['spaces', 'sites']) {
      const url = `/integrations/${names.blocks}/${list}`;
      await refused(null, 'GET', url, 401);
      expect(await refused(reader, 'GET', url, 403)).toMatch(/needs the admin role/);
      // The customer installed it, but does not publish it: other organizations' spaces are not theirs to see.
      expect(await refused(customer, 'GET', url, 403)).toMatch(/needs the admin role/);
      await refused(customer, 'GET', `/integrations/${names.privateOwn}/${list}`, 404);
    }
  });
});

describe('an organization’s integrations', () => {
  it('lists every public integration and the organization’s own, not another’s private ones', async () => {
    const listed = await read<{ items: Array<{ name: string }>; count: number }>(
      reader,
      `/orgs/${org}/integrations?limit=1000`,
      'listOrganizationIntegrations',
    );
    const listedNames = listed.items.map((item) => item.name);
    expect(listedNames).toEqual(expect.arrayContaining([names.blocks, names.scripts, names.privateOwn, names.idle]));
    expect(listedNames).not.toContain(names.privateOther);
    const theirs = await read<{ items: Array<{ name: string }> }>(
      customer,
      `/orgs/${customerOrg}/integrations?limit=1000`,
      'listOrganizationIntegrations',
    );
    expect(theirs.items.map((item) => item.name)).toContain(names.privateOther);
    expect(theirs.items.map((item) => item.name)).not.toContain(names.privateOwn);
    const searched = await read<{ items: Array<{ name: string }>; count: number }>(
      reader,
      `/orgs/${org}/integrations?search=status%20blocks`,
      'listOrganizationIntegrations',
    );
    expect(searched).toMatchObject({ count: 1, items: [{ name: names.blocks }] });
    const withBlocks = await read<{ items: Array<{ name: string }> }>(
      reader,
      `/orgs/${org}/integrations?blocks=true&owner=${org}`,
      'listOrganizationIntegrations',
    );
    expect(withBlocks.items.map((item) => item.name)).toEqual([names.blocks]);
  });

  it('is for members with a role: guests 403, others 404', async () => {
    expect(await refused(guest, 'GET', `/orgs/${org}/integrations`, 403)).toMatch(/Guests cannot/);
    await refused(stranger, 'GET', `/orgs/${org}/integrations`, 404);
    await refused(customer, 'GET', `/orgs/${org}/integrations`, 404);
    await refused(null, 'GET', `/orgs/${org}/integrations`, 401);
    await refused(reader, 'GET', `/orgs/${org}/integrations?category=nonsense`, 400);
  });

  it('tells an integration’s installation status, 404 where it is not installed', async () => {
    const status = await read(
      reader,
      `/orgs/${org}/integrations/${names.blocks}/installation_status`,
      'getOrganizationIntegrationStatus',
    );
    expect(status).toEqual({ status: 'active' });
    expect(await refused(reader, 'GET', `/orgs/${org}/integrations/${names.idle}/installation_status`, 404)).toBe(
      'The integration is not installed on this organization',
    );
    await refused(stranger, 'GET', `/orgs/${org}/integrations/${names.blocks}/installation_status`, 404);
    await refused(reader, 'GET', `/orgs/${org}/integrations/${names.privateOther}/installation_status`, 404);
  });

  it('lists the statuses of its installations on itself, its spaces and its sites', async () => {
    const base = `/orgs/${org}/integrations/installations-status`;
    const onOrganization = await read<{
      items: Array<{ status: string; integration: { name: string }; target: unknown }>;
    }>(reader, base, 'listOrganizationIntegrationsStatus');
    expect(onOrganization.items.map((item) => item.integration.name).sort()).toEqual(
      [names.blocks, names.scripts, names.privateOwn].sort(),
    );
    expect(
      onOrganization.items.every(
        (item) => JSON.stringify(item.target) === JSON.stringify({ type: 'organization', organizationId: org }),
      ),
    ).toBe(true);
    const onSpace = await read<{ items: Array<{ integration: { name: string }; target: unknown }> }>(
      reader,
      `${base}?target=space&space=${space}`,
      'listOrganizationIntegrationsStatus',
    );
    expect(onSpace.items.map((item) => [item.integration.name, item.target])).toEqual([
      [names.blocks, { type: 'space', spaceId: space }],
    ]);
    const onSpare = await read<{ items: unknown[]; count: number }>(
      reader,
      `${base}?target=space&space=${spareSpace}`,
      'listOrganizationIntegrationsStatus',
    );
    expect(onSpare).toEqual({ items: [], count: 0 });
    const onSite = await read<{ items: Array<{ status: string; integration: { name: string }; target: unknown }> }>(
      reader,
      `${base}?target=site`,
      'listOrganizationIntegrationsStatus',
    );
    expect(onSite.items.map((item) => [item.status, item.integration.name, item.target])).toEqual([
      ['active', names.scripts, { type: 'site', siteId: site }],
    ]);
    const paged = await read<{ items: unknown[]; next: { page: string }; count: number }>(
      reader,
      `${base}?limit=2`,
      'listOrganizationIntegrationsStatus',
    );
    expect(paged.count).toBe(3);
    const rest = await read<{ items: unknown[] }>(
      reader,
      `${base}?limit=2&page=${paged.next.page}`,
      'listOrganizationIntegrationsStatus',
    );
    expect(rest.items).toHaveLength(1);
    expect(await refused(reader, 'GET', `${base}?site=${site}`, 400)).toBe(
      'querystring/site is only valid with target=site',
    );
    expect(await refused(reader, 'GET', `${base}?target=site&space=${space}`, 400)).toBe(
      'querystring/space is only valid with target=space',
    );
    await refused(reader, 'GET', `${base}?target=collection`, 400);
    // A cursor of the space list is no cursor of the site list.
    await refused(reader, 'GET', `${base}?target=site&page=${paged.next.page}`, 400);
    await refused(customer, 'GET', base, 404);
    await refused(guest, 'GET', base, 403);
  });
});

describe('a space’s and a site’s integrations', () => {
  it('lists the integrations installed on a space and their blocks, for its members', async () => {
    const listed = await read<{ items: Array<{ name: string }>; count: number }>(
      reader,
      `/spaces/${space}/integrations`,
      'listSpaceIntegrations',
    );
    expect(listed).toMatchObject({ count: 1, items: [{ name: names.blocks }] });
    const none = await read(reader, `/spaces/${space}/integrations?search=nothing-like-it`, 'listSpaceIntegrations');
    expect(none).toEqual({ items: [], count: 0 });
    expect(await read(reader, `/spaces/${spareSpace}/integrations`, 'listSpaceIntegrations')).toEqual({
      items: [],
      count: 0,
    });
    const blocks = await read(reader, `/spaces/${space}/integration-blocks`, 'listSpaceIntegrationsBlocks');
    expect(blocks).toEqual([{ name: names.blocks, blocks: BLOCKS }]);
    expect(await read(reader, `/spaces/${spareSpace}/integration-blocks`, 'listSpaceIntegrationsBlocks')).toEqual([]);
    for (const url of [`/spaces/${space}/integrations`, `/spaces/${space}/integration-blocks`]) {
      await refused(customer, 'GET', url, 404);
      await refused(stranger, 'GET', url, 404);
      await refused(null, 'GET', url, 401);
    }
  });

  it('lists the integrations installed on a site and the scripts they inject, for its organization’s members', async () => {
    const listed = await read<{ items: Array<{ name: string }> }>(
      reader,
      `/orgs/${org}/sites/${site}/integrations`,
      'listSiteIntegrations',
    );
    expect(listed.items.map((item) => item.name)).toEqual([names.scripts]);
    const scripts = await read(reader, `/orgs/${org}/sites/${site}/integration-scripts`, 'listSiteIntegrationScripts');
    const scriptsInstallation = await t.db
      .selectFrom('integration_site_installations')
      .select('installation_id')
      .where('site_id', '=', site)
      .executeTakeFirstOrThrow();
    expect(scripts).toEqual([
      {
        script: `${PUBLIC_URL}/integrations/${names.scripts}/installations/${scriptsInstallation.installation_id}/sites/${site}/script.js`,
        cookies: true,
        contentSecurityPolicy: 'script-src https://cdn.example.com',
      },
    ]);
    for (const url of [`/orgs/${org}/sites/${site}/integrations`, `/orgs/${org}/sites/${site}/integration-scripts`]) {
      await refused(customer, 'GET', url, 404);
      await refused(guest, 'GET', url, 404);
      await refused(customer, 'GET', url.replace(org, customerOrg), 404);
    }
  });

  it('answers the official client', async () => {
    const client = newestOfficialClient(await listening(), reader.token);
    const { data: spaceIntegrations } = await client.spaces.listSpaceIntegrations(space);
    expect(spaceIntegrations.items.map((item) => item.name)).toEqual([names.blocks]);
    const { data: blocks } = await client.spaces.listSpaceIntegrationsBlocks(space);
    expect(blocks).toHaveLength(1);
    const { data: organizationIntegrations } = await client.orgs.listOrganizationIntegrations(org, {
      search: 'status',
    });
    expect(organizationIntegrations.items.map((item) => item.name)).toContain(names.blocks);
    const { data: status } = await client.orgs.getOrganizationIntegrationStatus(org, names.blocks);
    expect(status).toEqual({ status: 'active' });
    const { data: scripts } = await client.orgs.listSiteIntegrationScripts(org, site);
    expect(scripts).toHaveLength(1);
  });
});

it('leaves the installation tables as they were after every refused read above', async () => {
  const rows = await sql<{ n: number }>`select count(*)::int as n from integration_installation_tokens`.execute(t.db);
  expect(rows.rows[0]!.n).toBe(0);
});
