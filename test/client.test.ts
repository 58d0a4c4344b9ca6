import { GitBookAPIError } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
let endpoint: string;

beforeAll(async () => {
  endpoint = await listen(t.app);
});

describe('the official @gitbook/api client against a running server', () => {
  it('reads the authenticated user', async () => {
    const me = await t.factory.account({ name: 'Client User' });
    const { data, status } = await officialClient(endpoint, me.token).user.getAuthenticatedUser();
    expect(status).toBe(200);
    expect(data).toMatchObject({ object: 'user', id: me.user.id, displayName: 'Client User' });
    expectSpecResponse('getAuthenticatedUser', 200, data);
  });

  it('lists, reads and updates organizations', async () => {
    // A verified address at the domain: the listing by e-mail domain answers only that.
    const me = await t.factory.account({ email: 'me@client.example', verified: true });
    const client = officialClient(endpoint, me.token);
    const org = await t.factory.organization(me.user.id, { title: 'Through the client' });
    await t.factory.organization(me.user.id, { title: 'Another one' });

    const list = await client.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 });
    expect(list.data.count).toBe(2);
    expect(list.data.items).toHaveLength(1);
    expectSpecResponse('listOrganizationsForAuthenticatedUser', 200, list.data);
    const secondPage = await client.orgs.listOrganizationsForAuthenticatedUser({
      limit: 1,
      page: list.data.next!.page,
    });
    expect(secondPage.data.items[0]!.id).not.toBe(list.data.items[0]!.id);
    expect(secondPage.data.next).toBeUndefined();

    const read = await client.orgs.getOrganizationById(org.id);
    expect(read.data.title).toBe('Through the client');
    expectSpecResponse('getOrganizationById', 200, read.data);

    const updated = await client.orgs.updateOrganizationById(org.id, {
      title: 'Renamed by client',
      emailDomains: ['client.example'],
    });
    expect(updated.data).toMatchObject({ id: org.id, title: 'Renamed by client', emailDomains: ['client.example'] });
    expectSpecResponse('updateOrganizationById', 200, updated.data);

    const byDomain = await client.emailDomains.getOrganizationsForEmailDomain('client.example');
    expect(byDomain.data.organizations.map((o) => o.id)).toEqual([org.id]);
    expectSpecResponse('getOrganizationsForEmailDomain', 200, byDomain.data);

    const stored = await t.db
      .selectFrom('organizations')
      .select('title')
      .where('id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(stored.title).toBe('Renamed by client');
  });

  it('surfaces our errors as GitBookAPIError with the status and message', async () => {
    const me = await t.factory.account();
    const client = officialClient(endpoint, me.token);

    const notFound = await client.orgs.getOrganizationById('AAAAAAAAAAAAAAAAAAAA').catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(GitBookAPIError);
    expect((notFound as GitBookAPIError).code).toBe(404);
    expect((notFound as GitBookAPIError).errorMessage).toBe('No organization with this id is visible to you');

    const org = await t.factory.organization(me.user.id);
    const invalid = await client.orgs.updateOrganizationById(org.id, { title: 'x' }).catch((error: unknown) => error);
    expect((invalid as GitBookAPIError).code).toBe(400);
    expect((invalid as GitBookAPIError).errorMessage).toBe('body/title must NOT have fewer than 2 characters');

    const unauthenticated = await officialClient(endpoint, 'quire_wrong')
      .orgs.listOrganizationsForAuthenticatedUser()
      .catch((error: unknown) => error);
    expect((unauthenticated as GitBookAPIError).code).toBe(401);
  });
});
