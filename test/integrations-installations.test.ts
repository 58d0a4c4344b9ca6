import { GitBookAPIError } from '@gitbook/api';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { randomString } from '../src/core/ids.js';
import { purgeDeletedSpaces } from '../src/spaces/purge.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

interface Installation {
  id: string;
  status: string;
  space_selection: string;
  site_selection: string;
  spaces: number;
  configuration: Record<string, unknown>;
  externalIds: string[];
  target: { organization: string };
  createdAt: string;
  updatedAt: string;
  urls: { location: string; app: string; publicEndpoint: string };
}
interface ContentInstallation {
  integration: string;
  installation: string;
  status: string;
  configuration: Record<string, unknown>;
  externalIds: string[];
  urls: { location: string; publicEndpoint: string };
  space?: string | { id: string; object: string };
  site?: string;
}
interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function call(account: Account | null, method: Method, url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/v1${url}`,
    ...(account ? { headers: account.headers } : {}),
    ...(payload ? { payload } : {}),
  });
}

async function ok<T>(account: Account, method: Method, url: string, payload: object | undefined, status: number) {
  const res = await call(account, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json<T>();
}

const CONFIGURATIONS = {
  account: {
    properties: {
      token: { type: 'string', title: 'Token' },
      mode: { type: 'string', enum: ['fast', 'slow'] },
      count: { type: 'number' },
      enabled: { type: 'boolean' },
      connect: { type: 'button', callback_url: 'https://example.com/connect', button_text: 'Connect' },
    },
    required: ['token'],
  },
  space: { properties: { path: { type: 'string' } } },
  site: { componentId: 'site-config' },
};

async function publishIntegration(
  account: Account,
  organization: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const name = `inst-${randomString(8).toLowerCase()}`;
  const res = await call(account, 'POST', `/integrations/${name}`, {
    title: 'Installable',
    description: 'Installs',
    script: 'export default {}',
    organization,
    visibility: 'public',
    configurations: CONFIGURATIONS,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(200);
  return name;
}

/** Every row of the installation tables: what a refused write must leave as it was. */
async function installationTables() {
  const rows = async (table: string) =>
    (await sql<{ row: string }>`select t::text as row from ${sql.table(table)} t order by 1`.execute(t.db)).rows.map(
      (r) => r.row,
    );
  return {
    integration_installations: await rows('integration_installations'),
    integration_space_installations: await rows('integration_space_installations'),
    integration_site_installations: await rows('integration_site_installations'),
  };
}

async function expectRefused(
  account: Account,
  method: Method,
  url: string,
  payload: object | undefined,
  status: number,
  message?: string | RegExp,
) {
  const before = await installationTables();
  const res = await call(account, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  expect(res.json().error.code).toBe(status);
  if (message !== undefined) expect(res.json().error.message).toMatch(message);
  expect(await installationTables()).toEqual(before);
}

let ownerAdmin: Account;
let ownerReader: Account;
let owner: string;
let otherAdmin: Account;
let otherReader: Account;
let other: string;
let stranger: Account;
let spaces: { first: string; second: string; third: string; other: string };

beforeAll(async () => {
  const ownerTeam = await t.factory.team(['read']);
  ownerAdmin = ownerTeam.admin;
  ownerReader = ownerTeam.member('read');
  owner = ownerTeam.organization.id;
  const otherTeam = await t.factory.team(['read']);
  otherAdmin = otherTeam.admin;
  otherReader = otherTeam.member('read');
  other = otherTeam.organization.id;
  stranger = await t.factory.account();
  const space = async (account: Account, organization: string, title: string) =>
    (await ok<{ id: string }>(account, 'POST', `/orgs/${organization}/spaces`, { title }, 201)).id;
  spaces = {
    first: await space(ownerAdmin, owner, 'First'),
    second: await space(ownerAdmin, owner, 'Second'),
    third: await space(ownerAdmin, owner, 'Third'),
    other: await space(otherAdmin, other, 'Elsewhere'),
  };
});

describe('installing on an organization', () => {
  it('is for its admins, once: 201 with the installation and its Location, then 409', async () => {
    const name = await publishIntegration(ownerAdmin, owner);
    const res = await call(ownerAdmin, 'POST', `/integrations/${name}/installations`, { organization: owner });
    expect(res.statusCode, res.body).toBe(201);
    const installation = res.json<Installation>();
    expectSpecResponse('installIntegration', 201, installation);
    expect(installation).toMatchObject({
      status: 'active',
      space_selection: 'all',
      site_selection: 'all',
      spaces: 0,
      configuration: {},
      externalIds: [],
      target: { organization: owner },
      urls: { location: `${PUBLIC_URL}/v1/integrations/${name}/installations/${installation.id}` },
    });
    expect(res.headers.location).toBe(installation.urls.location);
    await expectRefused(
      ownerAdmin,
      'POST',
      `/integrations/${name}/installations`,
      { organization: owner },
      409,
      'The integration is already installed on this organization',
    );
    // Another organization installs it too: a public integration installs anywhere.
    await ok(otherAdmin, 'POST', `/integrations/${name}/installations`, { organization: other }, 201);
  });

  it('refuses members who are not admins (403), organizations the caller is not in (404) and unknown ones (404)', async () => {
    const name = await publishIntegration(ownerAdmin, owner);
    const url = `/integrations/${name}/installations`;
    await expectRefused(ownerReader, 'POST', url, { organization: owner }, 403, /needs the admin role/);
    await expectRefused(
      otherAdmin,
      'POST',
      url,
      { organization: owner },
      404,
      'No organization with this id is visible to you',
    );
    await expectRefused(ownerAdmin, 'POST', url, { organization: other }, 404);
    await expectRefused(ownerAdmin, 'POST', url, { organization: 'no-such-organization' }, 404);
    await expectRefused(ownerAdmin, 'POST', url, {}, 400, 'body/organization is required');
    await expectRefused(
      ownerAdmin,
      'POST',
      `/integrations/no-such-integration/installations`,
      { organization: owner },
      404,
    );
  });

  it('installs a private integration only in its own organization', async () => {
    const name = await publishIntegration(ownerAdmin, owner, { visibility: 'private' });
    const url = `/integrations/${name}/installations`;
    // The other organization's admin cannot see it.
    await expectRefused(
      otherAdmin,
      'POST',
      url,
      { organization: other },
      404,
      'No integration with this name is visible to you',
    );
    // The owner's admin, admin of another organization too, cannot take it there.
    const elsewhere = await t.factory.organization(ownerAdmin.user.id);
    await expectRefused(
      ownerAdmin,
      'POST',
      url,
      { organization: elsewhere.id },
      403,
      'A private integration installs only in the organization that publishes it',
    );
    await ok(ownerAdmin, 'POST', url, { organization: owner }, 201);
  });
});

describe('an installation', () => {
  let name: string;
  let ownInstallation: Installation;
  let otherInstallation: Installation;

  beforeAll(async () => {
    name = await publishIntegration(ownerAdmin, owner);
    ownInstallation = await ok(ownerAdmin, 'POST', `/integrations/${name}/installations`, { organization: owner }, 201);
    otherInstallation = await ok(
      otherAdmin,
      'POST',
      `/integrations/${name}/installations`,
      { organization: other },
      201,
    );
  });

  const listed = async (account: Account, query: Record<string, string> = {}) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/integrations/${name}/installations`,
      headers: account.headers,
      query,
    });
    expect(res.statusCode, res.body).toBe(200);
    expectSpecResponse('listIntegrationInstallations', 200, res.json());
    return res.json<Page<Installation>>();
  };

  it('is listed for the publisher’s admins with every other, else only where the caller is an admin', async () => {
    const all = await listed(ownerAdmin);
    expect(all.count).toBe(2);
    expect(all.items.map((item) => item.id)).toEqual([otherInstallation.id, ownInstallation.id]);
    const mine = await listed(otherAdmin);
    expect(mine).toMatchObject({ count: 1, items: [{ id: otherInstallation.id }] });
    for (const account of [ownerReader, otherReader, stranger])
      expect(await listed(account)).toEqual({ count: 0, items: [] });
    const first = await listed(ownerAdmin, { limit: '1' });
    expect(first.items).toHaveLength(1);
    const second = await listed(ownerAdmin, { limit: '1', page: first.next!.page });
    expect(second.items.map((item) => item.id)).toEqual([ownInstallation.id]);
    expect(second.next).toBeUndefined();
  });

  it('is read by the admins of its organization and of the publisher; 403 for other members; 404 for others', async () => {
    const url = `/integrations/${name}/installations/${otherInstallation.id}`;
    for (const account of [otherAdmin, ownerAdmin]) {
      const res = await call(account, 'GET', url);
      expect(res.statusCode).toBe(200);
      expectSpecResponse('getIntegrationInstallationById', 200, res.json());
    }
    expect((await call(otherReader, 'GET', url)).statusCode).toBe(403);
    expect((await call(stranger, 'GET', url)).statusCode).toBe(404);
    expect((await call(ownerReader, 'GET', url)).statusCode).toBe(404);
    expect(
      (await call(otherAdmin, 'GET', `/integrations/${name}/installations/${ownInstallation.id}`)).statusCode,
    ).toBe(404);
    expect((await call(ownerAdmin, 'GET', `/integrations/${name}/installations/nope`)).statusCode).toBe(404);
  });

  it('takes external ids and a configuration that fits the account schema, from the admins of its organization', async () => {
    const url = `/integrations/${name}/installations/${otherInstallation.id}`;
    const updated = await ok<Installation>(
      otherAdmin,
      'PATCH',
      url,
      {
        externalIds: ['ext-1', 'ext-2'],
        configuration: { token: 'abc', mode: 'fast', count: 3, enabled: true },
      },
      200,
    );
    expectSpecResponse('updateIntegrationInstallation', 200, updated);
    expect(updated).toMatchObject({
      externalIds: ['ext-1', 'ext-2'],
      configuration: { token: 'abc', mode: 'fast', count: 3, enabled: true },
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(otherInstallation.updatedAt));

    expect((await listed(ownerAdmin, { externalId: 'ext-2' })).items.map((item) => item.id)).toEqual([
      otherInstallation.id,
    ]);
    expect(await listed(ownerAdmin, { externalId: 'ext-3' })).toEqual({ count: 0, items: [] });
    expect((await listed(otherAdmin, { externalId: 'ext-1' })).count).toBe(1);

    const refusals: Array<[object, string]> = [
      [
        { configuration: { token: 'abc', colour: 'red' } },
        'body/configuration/colour is not a property of the integration’s account configuration',
      ],
      [{ configuration: { token: 7 } }, 'body/configuration/token must be a string'],
      [{ configuration: { token: 'abc', mode: 'medium' } }, 'body/configuration/mode must be one of: "fast", "slow"'],
      [{ configuration: { token: 'abc', count: 'three' } }, 'body/configuration/count must be a number'],
      [{ configuration: { token: 'abc', connect: true } }, 'body/configuration/connect is a button: it takes no value'],
      [{ configuration: { mode: 'fast' } }, 'body/configuration/token is required'],
      [{ externalIds: ['1', '2', '3', '4', '5', '6'] }, 'body/externalIds must NOT have more than 5 items'],
      [{ externalIds: 'one' }, 'body/externalIds must be array'],
      [{ status: 'paused' }, 'body/status is not an accepted field'],
    ];
    for (const [body, message] of refusals) await expectRefused(otherAdmin, 'PATCH', url, body, 400, message);
    await expectRefused(
      ownerAdmin,
      'PATCH',
      url,
      { externalIds: [] },
      403,
      /needs the admin role in the organization it is installed on/,
    );
    await expectRefused(otherReader, 'PATCH', url, { externalIds: [] }, 403);
    await expectRefused(stranger, 'PATCH', url, { externalIds: [] }, 404);
  });
});

describe('installations on spaces', () => {
  let name: string;
  let installation: Installation;
  let base: string;

  beforeAll(async () => {
    name = await publishIntegration(ownerAdmin, owner);
    installation = await ok(ownerAdmin, 'POST', `/integrations/${name}/installations`, { organization: owner }, 201);
    base = `/integrations/${name}/installations/${installation.id}`;
  });

  const installationNow = () => ok<Installation>(ownerAdmin, 'GET', base, undefined, 200);

  it('installs on a space of the installation’s organization, once, for the space’s admins', async () => {
    const res = await call(ownerAdmin, 'POST', `${base}/spaces`, { space: spaces.first });
    expect(res.statusCode, res.body).toBe(201);
    const installed = res.json<ContentInstallation>();
    expectSpecResponse('installIntegrationOnSpace', 201, installed);
    expect(installed).toEqual({
      integration: name,
      installation: installation.id,
      status: 'active',
      configuration: {},
      externalIds: [],
      space: spaces.first,
      urls: {
        location: `${PUBLIC_URL}/v1${base}/spaces/${spaces.first}`,
        publicEndpoint: `${PUBLIC_URL}/integrations/${name}/installations/${installation.id}`,
        publicContentEndpoint: `${PUBLIC_URL}/integrations/${name}/installations/${installation.id}`,
      },
    });
    expect(res.headers.location).toBe(installed.urls.location);
    expect(await installationNow()).toMatchObject({ space_selection: 'selected', spaces: 1, site_selection: 'all' });

    await expectRefused(ownerAdmin, 'POST', `${base}/spaces`, { space: spaces.first }, 409);
    // A space of another organization, or none: 404.
    await expectRefused(ownerAdmin, 'POST', `${base}/spaces`, { space: spaces.other }, 404);
    await expectRefused(otherAdmin, 'POST', `${base}/spaces`, { space: spaces.other }, 404);
    await expectRefused(ownerAdmin, 'POST', `${base}/spaces`, { space: 'no-such-space' }, 404);
    await expectRefused(
      ownerReader,
      'POST',
      `${base}/spaces`,
      { space: spaces.second },
      403,
      'Installing on a space needs the admin role on the space',
    );
    await expectRefused(stranger, 'POST', `${base}/spaces`, { space: spaces.second }, 404);
    await expectRefused(
      ownerAdmin,
      'POST',
      `/integrations/${name}/installations/nope/spaces`,
      { space: spaces.second },
      404,
    );
  });

  it('lists and gets them, with the Space itself when extended', async () => {
    await ok(ownerAdmin, 'POST', `${base}/spaces`, { space: spaces.second }, 201);
    const page = await ok<Page<ContentInstallation>>(ownerAdmin, 'GET', `${base}/spaces`, undefined, 200);
    expectSpecResponse('listIntegrationInstallationSpaces', 200, page);
    expect(page.count).toBe(2);
    expect(page.items.map((item) => item.space)).toEqual([spaces.second, spaces.first]);
    const extended = await ok<Page<ContentInstallation>>(
      ownerAdmin,
      'GET',
      `${base}/spaces?extended=true&limit=1`,
      undefined,
      200,
    );
    expectSpecResponse('listIntegrationInstallationSpaces', 200, extended);
    expect(extended.items[0]!.space).toMatchObject({ object: 'space', id: spaces.second });
    const next = await ok<Page<ContentInstallation>>(
      ownerAdmin,
      'GET',
      `${base}/spaces?extended=true&limit=1&page=${encodeURIComponent(extended.next!.page)}`,
      undefined,
      200,
    );
    expect(next.items.map((item) => (item.space as { id: string }).id)).toEqual([spaces.first]);

    const one = await ok<ContentInstallation>(ownerAdmin, 'GET', `${base}/spaces/${spaces.first}`, undefined, 200);
    expectSpecResponse('getIntegrationSpaceInstallation', 200, one);
    expect(one.space).toBe(spaces.first);
    expect((await call(ownerAdmin, 'GET', `${base}/spaces/${spaces.third}`)).statusCode).toBe(404);
    expect((await call(ownerReader, 'GET', `${base}/spaces`)).statusCode).toBe(403);
    expect((await call(stranger, 'GET', `${base}/spaces/${spaces.first}`)).statusCode).toBe(404);
  });

  it('updates one, its configuration checked against the space schema', async () => {
    const url = `${base}/spaces/${spaces.first}`;
    const updated = await ok<ContentInstallation>(
      ownerAdmin,
      'PATCH',
      url,
      {
        configuration: { path: 'docs/' },
        externalIds: ['repo-1'],
      },
      200,
    );
    expectSpecResponse('updateIntegrationSpaceInstallation', 200, updated);
    expect(updated).toMatchObject({ configuration: { path: 'docs/' }, externalIds: ['repo-1'] });
    await expectRefused(
      ownerAdmin,
      'PATCH',
      url,
      { configuration: { branch: 'main' } },
      400,
      'body/configuration/branch is not a property of the integration’s space configuration',
    );
    await expectRefused(
      ownerAdmin,
      'PATCH',
      `${base}/spaces/${spaces.third}`,
      { externalIds: [] },
      404,
      'The installation is not on this space',
    );
    await expectRefused(ownerReader, 'PATCH', url, { externalIds: [] }, 403);
  });

  it('are removed with their space: hidden while it is in the trash, gone when it is purged', async () => {
    await ok(ownerAdmin, 'POST', `${base}/spaces`, { space: spaces.third }, 201);
    const before = (await installationNow()).spaces;
    const deleted = await call(ownerAdmin, 'DELETE', `/spaces/${spaces.third}`);
    expect(deleted.statusCode).toBe(205);
    expect((await call(ownerAdmin, 'GET', `${base}/spaces/${spaces.third}`)).statusCode).toBe(404);
    const page = await ok<Page<ContentInstallation>>(ownerAdmin, 'GET', `${base}/spaces`, undefined, 200);
    expect(page.items.map((item) => item.space)).not.toContain(spaces.third);
    expect((await installationNow()).spaces).toBe(before - 1);
    await purgeDeletedSpaces(t.db, systemClock, { retentionMs: 0, batchSize: 100 });
    const rows = await t.db
      .selectFrom('integration_space_installations')
      .select('space_id')
      .where('space_id', '=', spaces.third)
      .execute();
    expect(rows).toEqual([]);
  });

  it('uninstalls from a space: 205, and the installation selects all spaces again once none is left', async () => {
    for (const space of [spaces.first, spaces.second]) {
      await expectRefused(ownerReader, 'DELETE', `${base}/spaces/${space}`, undefined, 403);
      const res = await call(ownerAdmin, 'DELETE', `${base}/spaces/${space}`);
      expect(res.statusCode).toBe(205);
      expect(res.body).toBe('');
    }
    expect((await call(ownerAdmin, 'DELETE', `${base}/spaces/${spaces.first}`)).statusCode).toBe(404);
    expect(await installationNow()).toMatchObject({ space_selection: 'all', spaces: 0 });
  });

  it('follow the integration’s target: not on spaces for one that targets sites or organizations', async () => {
    for (const target of ['site', 'organization']) {
      const targeted = await publishIntegration(ownerAdmin, owner, { target });
      const own = await ok<Installation>(
        ownerAdmin,
        'POST',
        `/integrations/${targeted}/installations`,
        { organization: owner },
        201,
      );
      await expectRefused(
        ownerAdmin,
        'POST',
        `/integrations/${targeted}/installations/${own.id}/spaces`,
        { space: spaces.first },
        400,
        /^The integration installs on (sites|organizations) only, not on a space$/,
      );
    }
  });
});

describe('installations on sites', () => {
  let name: string;
  let installation: Installation;
  let base: string;
  let site: string;
  let secondSite: string;
  let otherSite: string;

  beforeAll(async () => {
    name = await publishIntegration(ownerAdmin, owner);
    installation = await ok(ownerAdmin, 'POST', `/integrations/${name}/installations`, { organization: owner }, 201);
    base = `/integrations/${name}/installations/${installation.id}`;
    site = (await insertSite(t.db, owner)).id;
    secondSite = (await insertSite(t.db, owner)).id;
    otherSite = (await insertSite(t.db, other)).id;
  });

  it('installs, lists, gets, updates and uninstalls, for the admins of the site’s organization', async () => {
    const res = await call(ownerAdmin, 'POST', `${base}/sites`, { siteId: site });
    expect(res.statusCode, res.body).toBe(201);
    const installed = res.json<ContentInstallation>();
    expectSpecResponse('installIntegrationOnSite', 201, installed);
    expect(installed).toMatchObject({ integration: name, installation: installation.id, site, status: 'active' });
    expect(res.headers.location).toBe(`${PUBLIC_URL}/v1${base}/sites/${site}`);
    expect((await ok<Installation>(ownerAdmin, 'GET', base, undefined, 200)).site_selection).toBe('selected');

    await expectRefused(ownerAdmin, 'POST', `${base}/sites`, { siteId: site }, 409);
    await expectRefused(
      ownerAdmin,
      'POST',
      `${base}/sites`,
      { siteId: otherSite },
      404,
      'No site with this id in the installation’s organization',
    );
    await expectRefused(ownerAdmin, 'POST', `${base}/sites`, { siteId: 'no-such-site' }, 404);
    await expectRefused(ownerReader, 'POST', `${base}/sites`, { siteId: secondSite }, 403);
    await expectRefused(otherAdmin, 'POST', `${base}/sites`, { siteId: otherSite }, 404);

    const page = await ok<Page<ContentInstallation>>(ownerAdmin, 'GET', `${base}/sites`, undefined, 200);
    expectSpecResponse('listIntegrationInstallationSites', 200, page);
    expect(page).toMatchObject({ count: 1, items: [{ site }] });
    const one = await ok<ContentInstallation>(ownerAdmin, 'GET', `${base}/sites/${site}`, undefined, 200);
    expectSpecResponse('getIntegrationSiteInstallation', 200, one);
    expect((await call(ownerAdmin, 'GET', `${base}/sites/${secondSite}`)).statusCode).toBe(404);

    // The site configuration is a component: any object within the bound is taken.
    const updated = await ok<ContentInstallation>(
      ownerAdmin,
      'PATCH',
      `${base}/sites/${site}`,
      {
        configuration: { anything: ['goes'] },
        externalIds: ['site-ext'],
      },
      200,
    );
    expectSpecResponse('updateIntegrationSiteInstallation', 200, updated);
    expect(updated).toMatchObject({ configuration: { anything: ['goes'] }, externalIds: ['site-ext'] });
    await expectRefused(
      ownerAdmin,
      'PATCH',
      `${base}/sites/${site}`,
      { configuration: { big: 'x'.repeat(70_000) } },
      400,
      /must NOT be larger than 65536 bytes/,
    );
    await expectRefused(ownerReader, 'PATCH', `${base}/sites/${site}`, { externalIds: [] }, 403);

    await expectRefused(ownerReader, 'DELETE', `${base}/sites/${site}`, undefined, 403);
    const removed = await call(ownerAdmin, 'DELETE', `${base}/sites/${site}`);
    expect(removed.statusCode).toBe(205);
    expect((await call(ownerAdmin, 'DELETE', `${base}/sites/${site}`)).statusCode).toBe(404);
    expect((await ok<Installation>(ownerAdmin, 'GET', base, undefined, 200)).site_selection).toBe('all');
  });

  it('are removed with their site', async () => {
    await ok(ownerAdmin, 'POST', `${base}/sites`, { siteId: secondSite }, 201);
    const res = await call(ownerAdmin, 'DELETE', `/orgs/${owner}/sites/${secondSite}`);
    expect(res.statusCode).toBe(205);
    const rows = await t.db
      .selectFrom('integration_site_installations')
      .select('site_id')
      .where('site_id', '=', secondSite)
      .execute();
    expect(rows).toEqual([]);
  });

  it('follow the integration’s target: not on sites for one that targets spaces', async () => {
    const targeted = await publishIntegration(ownerAdmin, owner, { target: 'space' });
    const own = await ok<Installation>(
      ownerAdmin,
      'POST',
      `/integrations/${targeted}/installations`,
      { organization: owner },
      201,
    );
    await expectRefused(
      ownerAdmin,
      'POST',
      `/integrations/${targeted}/installations/${own.id}/sites`,
      { siteId: site },
      400,
      'The integration installs on spaces only, not on a site',
    );
  });
});

describe('removing an installation', () => {
  it('uninstalls from the organization with its spaces and sites (205), for the organization’s admins', async () => {
    const name = await publishIntegration(ownerAdmin, owner);
    const installation = await ok<Installation>(
      otherAdmin,
      'POST',
      `/integrations/${name}/installations`,
      { organization: other },
      201,
    );
    const base = `/integrations/${name}/installations/${installation.id}`;
    await ok(otherAdmin, 'POST', `${base}/spaces`, { space: spaces.other }, 201);
    await ok(otherAdmin, 'POST', `${base}/sites`, { siteId: (await insertSite(t.db, other)).id }, 201);
    await expectRefused(ownerAdmin, 'DELETE', base, undefined, 403);
    await expectRefused(otherReader, 'DELETE', base, undefined, 403);
    await expectRefused(stranger, 'DELETE', base, undefined, 404);
    const res = await call(otherAdmin, 'DELETE', base);
    expect(res.statusCode).toBe(205);
    expect(res.body).toBe('');
    expect((await call(otherAdmin, 'GET', base)).statusCode).toBe(404);
    for (const table of ['integration_space_installations', 'integration_site_installations'] as const) {
      expect(
        await t.db.selectFrom(table).select('installation_id').where('installation_id', '=', installation.id).execute(),
      ).toEqual([]);
    }
  });

  it('unpublishing removes every installation, with their spaces and sites', async () => {
    const name = await publishIntegration(ownerAdmin, owner);
    const own = await ok<Installation>(
      ownerAdmin,
      'POST',
      `/integrations/${name}/installations`,
      { organization: owner },
      201,
    );
    const elsewhere = await ok<Installation>(
      otherAdmin,
      'POST',
      `/integrations/${name}/installations`,
      { organization: other },
      201,
    );
    await ok(ownerAdmin, 'POST', `/integrations/${name}/installations/${own.id}/spaces`, { space: spaces.first }, 201);
    await ok(
      otherAdmin,
      'POST',
      `/integrations/${name}/installations/${elsewhere.id}/spaces`,
      { space: spaces.other },
      201,
    );
    await ok(
      ownerAdmin,
      'POST',
      `/integrations/${name}/installations/${own.id}/sites`,
      { siteId: (await insertSite(t.db, owner)).id },
      201,
    );
    expect((await call(ownerAdmin, 'DELETE', `/integrations/${name}`)).statusCode).toBe(204);
    const ids = [own.id, elsewhere.id];
    expect(await t.db.selectFrom('integration_installations').select('id').where('id', 'in', ids).execute()).toEqual(
      [],
    );
    for (const table of ['integration_space_installations', 'integration_site_installations'] as const) {
      expect(
        await t.db.selectFrom(table).select('installation_id').where('installation_id', 'in', ids).execute(),
      ).toEqual([]);
    }
  });
});

describe('the official client', () => {
  it('installs, lists, updates and uninstalls', async () => {
    const name = await publishIntegration(ownerAdmin, owner);
    const client = officialClient(await listen(t.app), ownerAdmin.token);
    const { data: installation } = await client.integrations.installIntegration(name, { organization: owner });
    expectSpecResponse('installIntegration', 201, installation);
    const { data: page } = await client.integrations.listIntegrationInstallations(name);
    expect(page.items.map((item) => item.id)).toEqual([installation.id]);
    const { data: updated } = await client.integrations.updateIntegrationInstallation(name, installation.id, {
      externalIds: ['from-client'],
      configuration: { token: 'x' },
    });
    expect(updated.externalIds).toEqual(['from-client']);
    const { data: onSpace } = await client.integrations.installIntegrationOnSpace(name, installation.id, {
      space: spaces.first,
    });
    expect(onSpace.space).toBe(spaces.first);
    const { data: spacesPage } = await client.integrations.listIntegrationInstallationSpaces(name, installation.id);
    expect(spacesPage.count).toBe(1);
    await client.integrations.uninstallIntegrationFromSpace(name, installation.id, spaces.first);
    await client.integrations.uninstallIntegration(name, installation.id);
    const gone = await client.integrations
      .getIntegrationInstallationById(name, installation.id)
      .catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(GitBookAPIError);
    expect((gone as GitBookAPIError).code).toBe(404);
  });
});
