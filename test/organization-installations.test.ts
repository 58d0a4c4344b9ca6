import { beforeAll, describe, expect, it } from 'vitest';
import { randomString } from '../src/core/ids.js';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let outsider: Team;

beforeAll(async () => {
  team = await t.factory.team(['edit', null]);
  outsider = await t.factory.team();
});

type Method = 'GET' | 'POST';
const call = (account: Account, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });

async function publishAndInstall(publisher: Team, on: Team, title: string): Promise<string> {
  const name = `org-inst-${randomString(8).toLowerCase()}`;
  const published = await call(publisher.admin, 'POST', `/integrations/${name}`, {
    title,
    description: 'Installs',
    script: 'export default {}',
    organization: publisher.organization.id,
    visibility: 'public',
  });
  expect(published.statusCode, published.body).toBe(200);
  const installed = await call(on.admin, 'POST', `/integrations/${name}/installations`, {
    organization: on.organization.id,
  });
  expect(installed.statusCode, installed.body).toBe(201);
  return name;
}

describe('listOrganizationInstallations', () => {
  it('lists each integration installed on the organization with its installation, newest first, through the newest client', async () => {
    const owner = await t.factory.team();
    const first = await publishAndInstall(owner, owner, 'Analytics');
    const second = await publishAndInstall(outsider, owner, 'Chat widget');
    // Installed elsewhere only: not in this organization's list.
    await publishAndInstall(outsider, outsider, 'Elsewhere');

    const client = newestOfficialClient(await listen(t.app), owner.admin.token);
    const listed = await client.orgs.listOrganizationInstallations(owner.organization.id);
    expectNewestSpecResponse('listOrganizationInstallations', 200, listed.data);
    expect(listed.data.count).toBe(2);
    expect(listed.data.items.map((item) => item.integration.name)).toEqual([second, first]);
    for (const item of listed.data.items) {
      expect(item.installation.target).toEqual({ organization: owner.organization.id });
    }

    const paged = await client.orgs.listOrganizationInstallations(owner.organization.id, { limit: 1 });
    expect(paged.data.items.map((item) => item.integration.name)).toEqual([second]);
    const next = await client.orgs.listOrganizationInstallations(owner.organization.id, {
      limit: 1,
      page: paged.data.next!.page,
    });
    expect(next.data.items.map((item) => item.integration.name)).toEqual([first]);
    expect(next.data.next).toBeUndefined();

    const searched = await client.orgs.listOrganizationInstallations(owner.organization.id, { search: 'CHAT' });
    expect(searched.data.count).toBe(1);
    expect(searched.data.items.map((item) => item.integration.name)).toEqual([second]);
  });

  it('is for admins: other members 403, outsiders 404, bad input 400', async () => {
    await publishAndInstall(team, team, 'Private tools');
    const url = `/orgs/${team.organization.id}/installations`;
    expect((await call(team.admin, 'GET', url)).statusCode).toBe(200);
    expect((await call(team.member('edit'), 'GET', url)).statusCode).toBe(403);
    expect((await call(team.member(null), 'GET', url)).statusCode).toBe(403);
    const foreign = await call(outsider.admin, 'GET', url);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Private tools');
    expect((await call(team.admin, 'GET', `${url}?search=${'x'.repeat(101)}`)).statusCode).toBe(400);
    expect((await call(team.admin, 'GET', `${url}?limit=1001`)).statusCode).toBe(400);
    expect((await call(team.admin, 'GET', `${url}?page=forged`)).statusCode).toBe(400);
  });
});
