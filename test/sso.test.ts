import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOwnApp, listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
/** A self-signed certificate valid until 2125, made for these tests. */
const CERTIFICATE = readFileSync(new URL('./fixtures/idp-valid.pem', import.meta.url), 'utf8');
const BASE64_ONLY = CERTIFICATE.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

const saml = (
  account: Account,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  organizationId: string,
  path = '',
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/v1/orgs/${organizationId}/saml${path}`,
    headers: account.headers,
    ...(payload ? { payload } : {}),
  });

describe('SAML providers', () => {
  it('are created by admins, pending until complete, with the service endpoints and the default team', async () => {
    const { admin, organization } = await t.factory.team();
    const team = (
      await t.app.inject({
        method: 'PUT',
        url: `/v1/orgs/${organization.id}/teams`,
        headers: admin.headers,
        payload: { title: 'SSO people' },
      })
    ).json();

    const pending = await saml(admin, 'POST', organization.id, '', { label: 'Okta' });
    expect(pending.statusCode).toBe(201);
    // The spec requires these fields even before they are set; an empty ssoURL cannot pass its `uri` format.
    expect(pending.json()).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      status: 'pending',
      defaultRole: 'read',
      ssoURL: '',
      entityID: '',
      certificate: '',
    });
    expect(pending.headers.location).toBe(`${PUBLIC_URL}/v1/orgs/${organization.id}/saml/${pending.json().id}`);

    const id = pending.json().id;
    const completed = await saml(admin, 'PATCH', organization.id, `/${id}`, {
      entityID: 'https://idp.example.com/entity',
      ssoURL: 'https://idp.example.com/sso',
      certificate: BASE64_ONLY,
      defaultTeam: team.id,
      defaultRole: null,
    });
    expect(completed.statusCode).toBe(200);
    expectSpecResponse('updateOrganizationSAMLProvider', 200, completed.json());
    expect(completed.json()).toMatchObject({
      status: 'active',
      defaultRole: null,
      defaultTeam: { object: 'team', id: team.id, title: 'SSO people' },
      service: {
        acsURL: `${PUBLIC_URL}/sso/saml/${id}/acs`,
        startURL: `${PUBLIC_URL}/sso/saml/${id}/start`,
        entityID: `${PUBLIC_URL}/sso/saml/${id}`,
      },
    });
    expect(completed.json().certificate).toBe(CERTIFICATE.trim());
    const created = await saml(admin, 'POST', organization.id, '', {
      label: 'Complete at once',
      entityID: 'urn:idp',
      ssoURL: 'https://idp.example.com/sso',
      certificate: CERTIFICATE,
    });
    expect(created.json().status).toBe('active');
    expectSpecResponse('createOrganizationSAMLProvider', 201, created.json());
    await saml(admin, 'DELETE', organization.id, `/${created.json().id}`);

    const logins = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/sso`,
      headers: admin.headers,
    });
    expect(logins.json()).toEqual({ items: [{ id, label: 'Okta', startURL: `${PUBLIC_URL}/sso/saml/${id}/start` }] });
    expectSpecResponse('listSSOProviderLoginsInOrganization', 200, logins.json());

    const list = await saml(admin, 'GET', organization.id);
    expect(list.json().count).toBe(1);
    expectSpecResponse('listSAMLProvidersInOrganizationById', 200, list.json());
    expectSpecResponse(
      'getOrganizationSAMLProviderById',
      200,
      (await saml(admin, 'GET', organization.id, `/${id}`)).json(),
    );

    // Deleting the team only clears it from the provider.
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/orgs/${organization.id}/teams/${team.id}`,
      headers: admin.headers,
    });
    expect((await saml(admin, 'GET', organization.id, `/${id}`)).json().defaultTeam).toBeUndefined();

    expect((await saml(admin, 'DELETE', organization.id, `/${id}`)).statusCode).toBe(204);
    expect((await saml(admin, 'GET', organization.id, `/${id}`)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}/sso`, headers: admin.headers })).json(),
    ).toEqual({ items: [] });
  });

  it('refuses every bad field with 400 and stores nothing', async () => {
    const { admin, organization } = await t.factory.team();
    const other = await t.factory.team();
    const foreignTeam = (
      await t.app.inject({
        method: 'PUT',
        url: `/v1/orgs/${other.organization.id}/teams`,
        headers: other.admin.headers,
        payload: { title: 'Theirs' },
      })
    ).json();
    const cases: Array<[object, RegExp]> = [
      [{}, /^body\/label is required$/],
      [{ label: '' }, /^body\/label must NOT have fewer than 1 characters$/],
      [{ label: 'x'.repeat(31) }, /^body\/label must NOT have more than 30 characters$/],
      [{ label: 'L', ssoURL: 'http://idp.example.com/sso' }, /^body\/ssoURL must match pattern "\^https:\/\/"$/],
      [{ label: 'L', ssoURL: 'not a url' }, /^body\/ssoURL/],
      [
        { label: 'L', ssoURL: `https://idp.example.com/${'x'.repeat(2048)}` },
        /^body\/ssoURL must NOT have more than 2048 characters$/,
      ],
      [{ label: 'L', entityID: 'e'.repeat(1025) }, /^body\/entityID must NOT have more than 1024 characters$/],
      [{ label: 'L', certificate: 'c'.repeat(10_001) }, /^body\/certificate must NOT have more than 10000 characters$/],
      [{ label: 'L', certificate: 'not a certificate' }, /^body\/certificate is not an X\.509 certificate/],
      [{ label: 'L', defaultTeam: foreignTeam.id }, /^body\/defaultTeam: no team ".+" in this organization$/],
      [{ label: 'L', defaultRole: 'owner' }, /^body\/defaultRole must be one of/],
      [{ label: 'L', status: 'active' }, /^body\/status is not an accepted field$/],
    ];
    for (const [payload, message] of cases) {
      const res = await saml(admin, 'POST', organization.id, '', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect(
      await t.db.selectFrom('saml_providers').select('id').where('organization_id', '=', organization.id).execute(),
    ).toEqual([]);
  });

  it('refuses a certificate that has expired', async () => {
    const app = await buildOwnApp(testConfig(t.database.url), {
      clock: { now: () => new Date('2200-01-01T00:00:00.000Z') },
    });
    try {
      const { admin, organization } = await t.factory.team();
      const res = await app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/saml`,
        headers: admin.headers,
        payload: { label: 'Old', certificate: CERTIFICATE },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^body\/certificate expired on 21\d\d-/);
    } finally {
      await app.close();
    }
  });

  it('is for admins only; the login infos are for members', async () => {
    const { admin, organization, member } = await t.factory.team(['create', null]);
    const provider = (await saml(admin, 'POST', organization.id, '', { label: 'Kept' })).json();
    for (const [method, path, payload] of [
      ['GET', '', undefined],
      ['POST', '', { label: 'Nope' }],
      ['GET', `/${provider.id}`, undefined],
      ['PATCH', `/${provider.id}`, { label: 'Taken' }],
      ['DELETE', `/${provider.id}`, undefined],
    ] as const) {
      const res = await saml(member('create'), method, organization.id, path, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
    }
    expect((await saml(admin, 'GET', organization.id, `/${provider.id}`)).json().label).toBe('Kept');
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}/sso`, headers: member(null).headers }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/v1/orgs/${organization.id}/sso`,
          headers: (await t.factory.account()).headers,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('SSO through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('creates, lists, reads, updates and deletes a provider, and lists the logins', async () => {
    const { admin, organization } = await t.factory.team();
    const client = officialClient(endpoint, admin.token);
    const created = await client.orgs.createOrganizationSamlProvider(organization.id, {
      label: 'Client IdP',
      certificate: CERTIFICATE,
    });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(
      (await client.orgs.listSamlProvidersInOrganizationById(organization.id)).data.items.map((p) => p.id),
    ).toEqual([id]);
    expect((await client.orgs.getOrganizationSamlProviderById(organization.id, id)).data.label).toBe('Client IdP');
    const updated = await client.orgs.updateOrganizationSamlProvider(organization.id, id, {
      entityID: 'urn:idp',
      ssoURL: 'https://idp.example.com/sso',
    });
    expect(updated.data.status).toBe('active');
    expect(
      (await client.orgs.listSsoProviderLoginsInOrganization(organization.id)).data.items.map((login) => login.id),
    ).toEqual([id]);
    expect((await client.orgs.deleteOrganizationSamlProvider(organization.id, id)).status).toBe(204);
  });
});
