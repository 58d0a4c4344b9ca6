import { GitBookAPIError as SeedAPIError, type GitBookAPI as SeedClient } from '@gitbook/api';
import { GitBookAPIError as NewestAPIError, type GitBookAPI as NewestClient } from '@gitbook/api-next';
import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient, officialClient } from './support/client.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

const t = useTestApp();
let endpoint: string;

beforeAll(async () => {
  endpoint = await listen(t.app);
});

/** What a client's own error class says of a refused call. */
interface Refusal {
  isClientError: boolean;
  code: number;
  errorMessage: string;
}

/** One official client: how to make it, how it reports a refusal, and the spec its answers are checked against. */
interface ClientUnderTest {
  name: string;
  handle: string;
  connect(endpoint: string, token: string): SeedClient | NewestClient;
  refusal(call: Promise<unknown>): Promise<Refusal>;
  expectResponse(operationId: string, status: number, body: unknown): void;
}

/** Each package has its own GitBookAPIError class: a refusal is one of that client's own. */
function refusalOf(errorClass: typeof SeedAPIError | typeof NewestAPIError) {
  return (call: Promise<unknown>): Promise<Refusal> =>
    call.then(
      () => ({ isClientError: false, code: 0, errorMessage: 'answered' }),
      (error: unknown) =>
        error instanceof errorClass
          ? { isClientError: true, code: error.code, errorMessage: error.errorMessage }
          : { isClientError: false, code: -1, errorMessage: String(error) },
    );
}

const CLIENTS: ClientUnderTest[] = [
  {
    name: '@gitbook/api 0.143.2',
    handle: 'seed',
    connect: officialClient,
    refusal: refusalOf(SeedAPIError),
    expectResponse: expectSpecResponse,
  },
  {
    name: '@gitbook/api 0.202.0',
    handle: 'newest',
    connect: newestOfficialClient,
    refusal: refusalOf(NewestAPIError),
    expectResponse: expectNewestSpecResponse,
  },
];

describe.each(CLIENTS)('the official client $name against a running server', (client) => {
  const connect = client.connect;
  const check = client.expectResponse;
  // Users' addresses are unique and a domain names organizations: each client's run has its own.
  const domain = `${client.handle}.client.example`;

  it('reads the authenticated user', async () => {
    const me = await t.factory.account({ name: 'Client User' });
    const { data, status } = await connect(endpoint, me.token).user.getAuthenticatedUser();
    expect(status).toBe(200);
    expect(data).toMatchObject({ object: 'user', id: me.user.id, displayName: 'Client User' });
    check('getAuthenticatedUser', 200, data);
  });

  it('lists, reads and updates organizations', async () => {
    // A verified address at the domain: the listing by e-mail domain answers only that.
    const me = await t.factory.account({ email: `me@${domain}`, verified: true });
    const api = connect(endpoint, me.token);
    const org = await t.factory.organization(me.user.id, { title: 'Through the client' });
    await t.factory.organization(me.user.id, { title: 'Another one' });

    const list = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 });
    expect(list.data.count).toBe(2);
    expect(list.data.items).toHaveLength(1);
    check('listOrganizationsForAuthenticatedUser', 200, list.data);
    const secondPage = await api.orgs.listOrganizationsForAuthenticatedUser({
      limit: 1,
      page: list.data.next!.page,
    });
    expect(secondPage.data.items[0]!.id).not.toBe(list.data.items[0]!.id);
    expect(secondPage.data.next).toBeUndefined();

    const read = await api.orgs.getOrganizationById(org.id);
    expect(read.data.title).toBe('Through the client');
    check('getOrganizationById', 200, read.data);

    const updated = await api.orgs.updateOrganizationById(org.id, {
      title: 'Renamed by client',
      emailDomains: [domain],
    });
    expect(updated.data).toMatchObject({ id: org.id, title: 'Renamed by client', emailDomains: [domain] });
    check('updateOrganizationById', 200, updated.data);

    const byDomain = await api.emailDomains.getOrganizationsForEmailDomain(domain);
    expect(byDomain.data.organizations.map((o) => o.id)).toEqual([org.id]);
    check('getOrganizationsForEmailDomain', 200, byDomain.data);

    const stored = await t.db
      .selectFrom('organizations')
      .select('title')
      .where('id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(stored.title).toBe('Renamed by client');
  });

  it('surfaces our errors as each client’s own GitBookAPIError, with the status and message', async () => {
    const me = await t.factory.account();
    const api = connect(endpoint, me.token);
    const refusal = client.refusal;

    const notFound = await refusal(api.orgs.getOrganizationById('AAAAAAAAAAAAAAAAAAAA'));
    expect(notFound).toEqual({
      isClientError: true,
      code: 404,
      errorMessage: 'No organization with this id is visible to you',
    });

    const org = await t.factory.organization(me.user.id);
    const invalid = await refusal(api.orgs.updateOrganizationById(org.id, { title: 'x' }));
    expect(invalid).toEqual({
      isClientError: true,
      code: 400,
      errorMessage: 'body/title must NOT have fewer than 2 characters',
    });
    const stored = await t.db
      .selectFrom('organizations')
      .select('title')
      .where('id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(stored.title).toBe(org.title);

    const unauthenticated = await refusal(
      connect(endpoint, 'quire_wrong').orgs.listOrganizationsForAuthenticatedUser(),
    );
    expect(unauthenticated).toMatchObject({ isClientError: true, code: 401 });
  });
});
