import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomString } from '../src/core/ids.js';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function call(headers: Record<string, string> | null, method: Method, url: string, payload?: object) {
  return t.app.inject({ method, url: `/v1${url}`, ...(headers ? { headers } : {}), ...(payload ? { payload } : {}) });
}

async function ok<T>(account: Account, method: Method, url: string, payload: object | undefined, status: number) {
  const res = await call(account.headers, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return (res.body === '' ? undefined : res.json()) as T;
}

const tokenRows = async () =>
  (await sql<{ row: string }>`select t::text as row from integration_installation_tokens t order by 1`.execute(t.db))
    .rows;

/** A refusal: the status, the error body, and no token made. */
async function expectRefused(headers: Record<string, string> | null, url: string, status: number, message?: RegExp) {
  const before = await tokenRows();
  const res = await call(headers, 'POST', url);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.code).toBe(status);
  if (message) expect(res.json().error.message).toMatch(message);
  expect(await tokenRows()).toEqual(before);
}

let publisher: Account;
let publisherReader: Account;
let ownerOrg: string;
let customer: Account;
let customerOrg: string;
let stranger: Account;
let name: string;
let ownInstallation: string;
let customerInstallation: string;
const spaces = {} as { own: string; ownSpare: string; customer: string; customerSpare: string };
let customerSite: string;
let customerSpareSite: string;

async function publish(scopes: string[], fields: Record<string, unknown> = {}) {
  const integration = `tokens-${randomString(8).toLowerCase()}`;
  await ok(
    publisher,
    'POST',
    `/integrations/${integration}`,
    {
      title: 'Token maker',
      description: 'Calls the API as its installations',
      script: 'export default {}',
      organization: ownerOrg,
      visibility: 'public',
      scopes,
      ...fields,
    },
    200,
  );
  return integration;
}

async function install(account: Account, integration: string, organization: string) {
  return (
    await ok<{ id: string }>(account, 'POST', `/integrations/${integration}/installations`, { organization }, 201)
  ).id;
}

async function mint(integration: string, installation: string, account = publisher): Promise<string> {
  const res = await call(account.headers, 'POST', `/integrations/${integration}/installations/${installation}/tokens`);
  expect(res.statusCode, res.body).toBe(200);
  expectNewestSpecResponse('createIntegrationInstallationToken', 200, res.json());
  return res.json<{ token: string }>().token;
}

beforeAll(async () => {
  const team = await t.factory.team(['read']);
  publisher = team.admin;
  publisherReader = team.member('read');
  ownerOrg = team.organization.id;
  customer = await t.factory.account();
  customerOrg = (await t.factory.organization(customer.user.id)).id;
  stranger = await t.factory.account();
  const space = async (account: Account, organization: string, title: string, visibility = 'private') =>
    (await ok<{ id: string }>(account, 'POST', `/orgs/${organization}/spaces`, { title, visibility }, 201)).id;
  spaces.own = await space(publisher, ownerOrg, 'Own');
  spaces.ownSpare = await space(publisher, ownerOrg, 'Own spare', 'public');
  spaces.customer = await space(customer, customerOrg, 'Customer');
  spaces.customerSpare = await space(customer, customerOrg, 'Customer spare', 'public');
  customerSite = (await insertSite(t.db, customerOrg)).id;
  customerSpareSite = (await insertSite(t.db, customerOrg)).id;

  name = await publish(['space:metadata:read', 'space:content:read']);
  ownInstallation = await install(publisher, name, ownerOrg);
  customerInstallation = await install(customer, name, customerOrg);
  await ok(
    publisher,
    'POST',
    `/integrations/${name}/installations/${ownInstallation}/spaces`,
    { space: spaces.own },
    201,
  );
  const base = `/integrations/${name}/installations/${customerInstallation}`;
  await ok(customer, 'POST', `${base}/spaces`, { space: spaces.customer }, 201);
  await ok(customer, 'POST', `${base}/sites`, { siteId: customerSite }, 201);
});

describe('making an installation’s token', () => {
  it('gives the publisher’s admin a token for any installation, stored only as its hash, expiring in an hour', async () => {
    const token = await mint(name, customerInstallation);
    expect(token).toMatch(/^quire_inst_[A-Za-z0-9]{40}$/);
    const row = await t.db
      .selectFrom('integration_installation_tokens')
      .selectAll()
      .where('token_hash', '=', createHash('sha256').update(token).digest())
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      organization_id: customerOrg,
      installation_id: customerInstallation,
      scopes: ['space:metadata:read', 'space:content:read'],
      created_by: publisher.user.id,
    });
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(60 * 60 * 1000);
    const stored = (await tokenRows()).map((r) => r.row).join('\n');
    expect(stored).not.toContain(token);
  });

  it('refuses everyone else, making nothing: 401, 403 where they see the integration, 404 where they do not', async () => {
    const url = `/integrations/${name}/installations/${customerInstallation}/tokens`;
    await expectRefused(null, url, 401);
    await expectRefused(publisherReader.headers, url, 403, /needs the admin role in the organization that publishes/);
    // The customer's admin manages the installation, not the integration.
    await expectRefused(customer.headers, url, 403, /needs the admin role in the organization that publishes/);
    await expectRefused(stranger.headers, url, 403);
    await expectRefused(publisher.headers, `/integrations/${name}/installations/no-such-installation/tokens`, 404);
    await expectRefused(
      publisher.headers,
      `/integrations/no-such-integration/installations/${ownInstallation}/tokens`,
      404,
    );
    // An installation of another integration is not this one's.
    const otherName = await publish([]);
    const otherInstallation = await install(customer, otherName, customerOrg);
    await expectRefused(publisher.headers, `/integrations/${name}/installations/${otherInstallation}/tokens`, 404);
    const privateName = await publish([], { visibility: 'private' });
    await expectRefused(
      customer.headers,
      `/integrations/${privateName}/installations/${customerInstallation}/tokens`,
      404,
      /No integration with this name is visible to you/,
    );
  });

  it('refuses a token an admin issued, and one without the integration:publish scope', async () => {
    const url = `/integrations/${name}/installations/${customerInstallation}/tokens`;
    const narrow = await t.factory.token(publisher.user.id, { scopes: ['integration:read'] });
    await expectRefused(narrow.headers, url, 403, /lacks the "integration:publish" scope/);
    // A second admin of the publisher, with only a token the first issued: it works there, but makes no token.
    const second = await t.factory.user();
    await t.factory.member(ownerOrg, second.id, 'admin');
    const issued = await ok<{ token: string }>(
      publisher,
      'POST',
      `/orgs/${ownerOrg}/members/${second.id}/tokens`,
      {},
      201,
    );
    await expectRefused(bearer(issued.token), url, 403, /cannot make tokens/);
  });

  it('makes as many tokens as are asked for at once, each its own and each working', async () => {
    const before = (await tokenRows()).length;
    const tokens = await Promise.all(Array.from({ length: 8 }, () => mint(name, customerInstallation)));
    expect(new Set(tokens).size).toBe(8);
    expect((await tokenRows()).length).toBe(before + 8);
    const reads = await Promise.all(tokens.map((token) => call(bearer(token), 'GET', `/spaces/${spaces.customer}`)));
    expect(reads.map((res) => res.statusCode)).toEqual(Array.from({ length: 8 }, () => 200));
  });

  it('refuses a paused installation with a 409', async () => {
    const paused = await publish([]);
    const installation = await install(customer, paused, customerOrg);
    await t.db
      .updateTable('integration_installations')
      .set({ status: 'paused' })
      .where('id', '=', installation)
      .execute();
    await expectRefused(
      publisher.headers,
      `/integrations/${paused}/installations/${installation}/tokens`,
      409,
      /paused/,
    );
  });
});

describe('an installation’s token, as an attacker would use it', () => {
  let token: string;
  beforeAll(async () => {
    token = await mint(name, customerInstallation);
  });

  it('reads the published side of the spaces it is installed on, as its scopes allow', async () => {
    const space = await call(bearer(token), 'GET', `/spaces/${spaces.customer}`);
    expect(space.statusCode, space.body).toBe(200);
    expect(space.json()).toMatchObject({ id: spaces.customer, visibility: 'private' });
    const pages = await call(bearer(token), 'GET', `/spaces/${spaces.customer}/content`);
    expect(pages.statusCode, pages.body).toBe(200);
  });

  it('reaches no space it is not installed on, in its organization or another, whatever their visibility', async () => {
    for (const space of [spaces.customerSpare, spaces.own, spaces.ownSpare, 'no-such-space']) {
      for (const url of [`/spaces/${space}`, `/spaces/${space}/content`]) {
        const res = await call(bearer(token), 'GET', url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
        expect(res.json().error.message).toBe('No space with this id is visible to you');
      }
    }
  });

  it('reaches nothing of another organization', async () => {
    for (const url of [
      `/orgs/${ownerOrg}/integrations`,
      `/orgs/${ownerOrg}/integrations/installations-status`,
      `/orgs/${ownerOrg}/spaces`,
    ]) {
      const res = await call(bearer(token), 'GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBeGreaterThanOrEqual(403);
      expect(res.statusCode).toBeLessThanOrEqual(404);
    }
    const own = await call(bearer(token), 'GET', `/orgs/${ownerOrg}/integrations`);
    expect(own.statusCode).toBe(404);
  });

  it('calls nothing outside the installation’s operations: users, members, writes, change requests, comments', async () => {
    const refused: Array<[Method, string, object?]> = [
      ['GET', '/user'],
      ['GET', `/orgs/${customerOrg}/members`],
      ['GET', `/orgs/${customerOrg}/spaces`],
      ['POST', `/orgs/${customerOrg}/spaces`, { title: 'Planted' }],
      ['PATCH', `/spaces/${spaces.customer}`, { title: 'Renamed' }],
      ['DELETE', `/spaces/${spaces.customer}`],
      ['GET', `/spaces/${spaces.customer}/change-requests`],
      ['GET', `/spaces/${spaces.customer}/comments`],
      ['GET', `/integrations/${name}/installations`],
      ['PATCH', `/integrations/${name}/installations/${customerInstallation}`, { externalIds: ['mine'] }],
      ['DELETE', `/integrations/${name}/installations/${customerInstallation}`],
      ['POST', `/user/tokens`, { label: 'more' }],
    ];
    const spacesBefore = await sql`select s::text from spaces s order by 1`.execute(t.db);
    for (const [method, url, payload] of refused) {
      const res = await call(bearer(token), method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().error.message).toBe('An integration installation’s token cannot call this operation');
    }
    expect(await sql`select s::text from spaces s order by 1`.execute(t.db)).toEqual(spacesBefore);
  });

  it('opens neither a web reader session nor the spaces’ Git remotes', async () => {
    const git = await t.app.inject({
      method: 'GET',
      url: `/git/${spaces.customer}.git/info/refs?service=git-upload-pack`,
      headers: bearer(token),
    });
    expect(git.statusCode, git.body).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/app/sign-in',
      headers: { origin: 'http://docs.test', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token }).toString(),
    });
    expect(signIn.statusCode, signIn.body).toBe(401);
    expect(signIn.headers['set-cookie']).toBeUndefined();
    expect(await t.db.selectFrom('app_sessions').select('user_id').execute()).toEqual([]);
  });

  it('reads its own installation, and its spaces and sites, and no other installation', async () => {
    const base = `/integrations/${name}/installations/${customerInstallation}`;
    const own = await call(bearer(token), 'GET', base);
    expect(own.statusCode, own.body).toBe(200);
    expectNewestSpecResponse('getIntegrationInstallationById', 200, own.json());
    expect(own.json()).toMatchObject({ id: customerInstallation, target: { organization: customerOrg } });
    const listed = await call(bearer(token), 'GET', `${base}/spaces`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().items.map((item: { space: string }) => item.space)).toEqual([spaces.customer]);
    const onSpace = await call(bearer(token), 'GET', `${base}/spaces/${spaces.customer}`);
    expect(onSpace.statusCode, onSpace.body).toBe(200);
    expectNewestSpecResponse('getIntegrationSpaceInstallation', 200, onSpace.json());
    const onSite = await call(bearer(token), 'GET', `${base}/sites/${customerSite}`);
    expect(onSite.statusCode, onSite.body).toBe(200);
    for (const url of [
      `/integrations/${name}/installations/${ownInstallation}`,
      `/integrations/${name}/installations/${ownInstallation}/spaces`,
      `${base}/spaces/${spaces.customerSpare}`,
      `${base}/sites/${customerSpareSite}`,
    ]) {
      const res = await call(bearer(token), 'GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
    }
  });

  it('cannot make tokens, for its own installation or another', async () => {
    for (const installation of [customerInstallation, ownInstallation]) {
      await expectRefused(
        bearer(token),
        `/integrations/${name}/installations/${installation}/tokens`,
        403,
        /cannot call this operation/,
      );
    }
  });

  it('is refused what its integration’s scopes do not name', async () => {
    const metadataOnly = await publish(['space:metadata:read']);
    const installation = await install(customer, metadataOnly, customerOrg);
    await ok(
      customer,
      'POST',
      `/integrations/${metadataOnly}/installations/${installation}/spaces`,
      { space: spaces.customer },
      201,
    );
    const narrow = await mint(metadataOnly, installation);
    expect((await call(bearer(narrow), 'GET', `/spaces/${spaces.customer}`)).statusCode).toBe(200);
    const pages = await call(bearer(narrow), 'GET', `/spaces/${spaces.customer}/content`);
    expect(pages.statusCode).toBe(403);
    expect(pages.json().error.message).toBe(
      'The integration does not declare the "space:content:read" scope this operation needs',
    );
    // Another integration's name is not its own.
    const foreign = await call(bearer(narrow), 'GET', `/integrations/${name}/spaces`);
    expect(foreign.statusCode).toBe(404);
  });

  it('lists only its own installation’s spaces and sites', async () => {
    // The publisher's own installation has a space too: the customer's token must not see it.
    const listedSpaces = await call(bearer(token), 'GET', `/integrations/${name}/spaces`);
    expect(listedSpaces.statusCode, listedSpaces.body).toBe(200);
    expectNewestSpecResponse('listIntegrationSpaceInstallations', 200, listedSpaces.json());
    expect(listedSpaces.json().items.map((item: { space: string }) => item.space)).toEqual([spaces.customer]);
    const listedSites = await call(bearer(token), 'GET', `/integrations/${name}/sites`);
    expect(listedSites.statusCode, listedSites.body).toBe(200);
    expect(listedSites.json().items.map((item: { site: string }) => item.site)).toEqual([customerSite]);
    expect(listedSites.json().items.map((item: { site: string }) => item.site)).not.toContain(customerSpareSite);
  });

  it('reads its organization’s integrations, and only its own installation’s status', async () => {
    const listed = await call(bearer(token), 'GET', `/orgs/${customerOrg}/integrations`);
    expect(listed.statusCode, listed.body).toBe(200);
    expectNewestSpecResponse('listOrganizationIntegrations', 200, listed.json());
    expect(listed.json().items.map((item: { name: string }) => item.name)).toContain(name);
    // The customer has installed other integrations: their statuses are not this installation's to read.
    const installed = await t.db
      .selectFrom('integration_installations')
      .select('id')
      .where('organization_id', '=', customerOrg)
      .execute();
    expect(installed.length).toBeGreaterThan(1);
    const statuses = await call(bearer(token), 'GET', `/orgs/${customerOrg}/integrations/installations-status`);
    expect(statuses.statusCode, statuses.body).toBe(200);
    expectNewestSpecResponse('listOrganizationIntegrationsStatus', 200, statuses.json());
    expect(statuses.json()).toMatchObject({
      count: 1,
      items: [
        { status: 'active', integration: { name }, target: { type: 'organization', organizationId: customerOrg } },
      ],
    });
    const onSpaces = await call(
      bearer(token),
      'GET',
      `/orgs/${customerOrg}/integrations/installations-status?target=space`,
    );
    expect(onSpaces.json().items.map((item: { target: unknown }) => item.target)).toEqual([
      { type: 'space', spaceId: spaces.customer },
    ]);
  });

  it('stops working when it expires, and when its installation goes', async () => {
    const expiring = await mint(name, customerInstallation);
    await t.db
      .updateTable('integration_installation_tokens')
      .set({ expires_at: sql`created_at + interval '1 millisecond'` })
      .where('token_hash', '=', createHash('sha256').update(expiring).digest())
      .execute();
    const expired = await call(bearer(expiring), 'GET', `/spaces/${spaces.customer}`);
    expect(expired.statusCode).toBe(401);
    // The next token of the integration takes the expired ones away, of any installation.
    const expiredHash = createHash('sha256').update(expiring).digest();
    await mint(name, ownInstallation);
    expect(
      await t.db
        .selectFrom('integration_installation_tokens')
        .select('id')
        .where('token_hash', '=', expiredHash)
        .execute(),
    ).toEqual([]);

    const short = await publish(['space:metadata:read']);
    const installation = await install(customer, short, customerOrg);
    await ok(
      customer,
      'POST',
      `/integrations/${short}/installations/${installation}/spaces`,
      { space: spaces.customer },
      201,
    );
    const doomed = await mint(short, installation);
    expect((await call(bearer(doomed), 'GET', `/spaces/${spaces.customer}`)).statusCode).toBe(200);
    await ok(customer, 'DELETE', `/integrations/${short}/installations/${installation}`, undefined, 205);
    expect((await call(bearer(doomed), 'GET', `/spaces/${spaces.customer}`)).statusCode).toBe(401);
    expect((await call(bearer(`${doomed}x`), 'GET', `/spaces/${spaces.customer}`)).statusCode).toBe(401);
  });
});

describe('through the official client', () => {
  it('makes a token, and the token reads the installation’s space and lists its spaces', async () => {
    const endpoint = await listen(t.app);
    const admin = newestOfficialClient(endpoint, publisher.token);
    const { data } = await admin.integrations.createIntegrationInstallationToken(name, customerInstallation);
    expectNewestSpecResponse('createIntegrationInstallationToken', 200, data);
    const asInstallation = newestOfficialClient(endpoint, data.token);
    const { data: space } = await asInstallation.spaces.getSpaceById(spaces.customer);
    expect(space.id).toBe(spaces.customer);
    const { data: listed } = await asInstallation.integrations.listIntegrationSpaceInstallations(name);
    expect(listed.items).toHaveLength(1);
    await expect(asInstallation.spaces.getSpaceById(spaces.own)).rejects.toMatchObject({ code: 404 });
  });
});
