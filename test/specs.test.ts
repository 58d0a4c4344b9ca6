import { GitBookAPIError } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/core/ids.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

/** A small text limit, so that an oversized text is quick to send. */
const MAX_BYTES = 16 * 1024;
const t = useTestApp({
  config: {
    specs: {
      maxBytes: MAX_BYTES,
      maxFiles: 10,
      maxRefDepth: 3,
      fetchTimeoutMs: 1_000,
      processTimeoutMs: 10_000,
      pollIntervalMs: 50,
      maxAttempts: 3,
    },
  },
});

const SOURCE = { url: 'https://example.com/openapi.json' };
const TEXT = '{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}}';

let admin: Account;
let reader: Account;
let editor: Account;
let guest: Account;
let stranger: Account;
let organizationId: string;

beforeAll(async () => {
  const team = await t.factory.team(['read', 'edit', null]);
  admin = team.admin;
  organizationId = team.organization.id;
  reader = team.member('read');
  editor = team.member('edit');
  guest = team.member(null);
  stranger = await t.factory.account();
  await t.factory.organization(stranger.user.id);
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function call(account: Account | null, method: Method, path = '', payload?: unknown, org = organizationId) {
  return t.app.inject({
    method,
    url: `/v1/orgs/${org}/openapi${path}`,
    ...(account ? { headers: account.headers } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/** Every row of the spec tables: what a refused request must leave as it was. */
async function specTables() {
  return {
    specs: await t.db.selectFrom('openapi_specs').selectAll().orderBy('id').execute(),
    versions: await t.db.selectFrom('openapi_spec_versions').select(['id', 'spec_id']).orderBy('id').execute(),
    jobs: await t.db.selectFrom('openapi_spec_jobs').selectAll().orderBy('id').execute(),
  };
}

async function create(slug: string, source: object = SOURCE, account = admin) {
  const res = await call(account, 'POST', '', { slug, source });
  expect(res.statusCode, res.body).toBe(201);
  expectSpecResponse('createOpenAPISpec', 201, res.json());
  return res.json();
}

describe('OpenAPI specs', () => {
  it('are created by admins, pending, with a Location, and read back by slug', async () => {
    const res = await call(admin, 'POST', '', { slug: 'payments', source: SOURCE });
    expect(res.statusCode).toBe(201);
    const spec = res.json();
    expectSpecResponse('createOpenAPISpec', 201, spec);
    const location = `${PUBLIC_URL}/v1/orgs/${organizationId}/openapi/payments`;
    expect(res.headers.location).toBe(location);
    expect(spec).toEqual({
      object: 'openapi-spec',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      createdAt: expect.any(String),
      updatedAt: spec.createdAt,
      slug: 'payments',
      sourceURL: SOURCE.url,
      processingState: 'pending',
      visibility: 'private',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location, app: `${PUBLIC_URL}/app/o/${organizationId}/openapi/payments` },
    });
    const jobs = await t.db.selectFrom('openapi_spec_jobs').selectAll().where('spec_id', '=', spec.id).execute();
    expect(jobs).toMatchObject([{ state: 'pending', attempts: 0, organization_id: organizationId }]);

    const read = await call(reader, 'GET', '/payments');
    expect(read.statusCode).toBe(200);
    expectSpecResponse('getOpenAPISpecBySlug', 200, read.json());
    expect(read.json()).toEqual({ ...spec, permissions: { view: true, edit: false } });
  });

  it('are created from a text, which is kept for processing but never shown', async () => {
    const spec = await create('from-text', { text: TEXT });
    expect(spec.sourceURL).toBeUndefined();
    const row = await t.db
      .selectFrom('openapi_specs')
      .select(['source_url', 'source_text'])
      .where('id', '=', spec.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ source_url: null, source_text: TEXT });
    expect((await call(admin, 'GET', '/from-text')).body).not.toContain('3.0.3');
  });

  it('are created or updated by PUT, which answers 200 and processes the spec again each time', async () => {
    const created = await call(admin, 'PUT', '/billing', { source: SOURCE });
    expect(created.statusCode).toBe(200);
    expectSpecResponse('createOrUpdateOpenAPISpecBySlug', 200, created.json());
    expect(created.json()).toMatchObject({ slug: 'billing', sourceURL: SOURCE.url, processingState: 'pending' });

    // Processed meanwhile (as a worker would leave it), then published again with the same source.
    await t.db
      .updateTable('openapi_specs')
      .set({ processing_state: 'complete', last_processed_at: new Date() })
      .where('id', '=', created.json().id)
      .execute();
    await t.db.deleteFrom('openapi_spec_jobs').where('spec_id', '=', created.json().id).execute();
    const again = await call(admin, 'PUT', '/billing', { source: SOURCE });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: created.json().id, processingState: 'pending' });
    expect(again.json().updatedAt >= created.json().updatedAt).toBe(true);

    const other = await call(admin, 'PUT', '/billing', { source: { text: TEXT } });
    expect(other.json()).toMatchObject({ id: created.json().id, processingState: 'pending' });
    expect(other.json().sourceURL).toBeUndefined();
    const jobs = await t.db
      .selectFrom('openapi_spec_jobs')
      .select('state')
      .where('spec_id', '=', created.json().id)
      .execute();
    expect(jobs).toEqual([{ state: 'pending' }]);
  });

  it('change visibility (no processing) or source (processed again) by PATCH', async () => {
    const spec = await create('patched');
    await t.db.deleteFrom('openapi_spec_jobs').where('spec_id', '=', spec.id).execute();
    await t.db.updateTable('openapi_specs').set({ processing_state: 'complete' }).where('id', '=', spec.id).execute();

    const visible = await call(admin, 'PATCH', '/patched', { visibility: 'public' });
    expect(visible.statusCode).toBe(200);
    expectSpecResponse('updateOpenAPISpecBySlug', 200, visible.json());
    expect(visible.json()).toMatchObject({ visibility: 'public', processingState: 'complete', sourceURL: SOURCE.url });
    expect(await t.db.selectFrom('openapi_spec_jobs').select('id').where('spec_id', '=', spec.id).execute()).toEqual(
      [],
    );

    const moved = await call(admin, 'PATCH', '/patched', { source: { url: 'https://example.org/v2.yaml' } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      visibility: 'public',
      processingState: 'pending',
      sourceURL: 'https://example.org/v2.yaml',
    });
    expect(
      await t.db.selectFrom('openapi_spec_jobs').select('id').where('spec_id', '=', spec.id).execute(),
    ).toHaveLength(1);
    expect((await call(admin, 'PATCH', '/nothing-here', { visibility: 'public' })).statusCode).toBe(404);
  });

  it('are deleted by admins with their versions and jobs: 205, then 404', async () => {
    const spec = await create('doomed');
    await t.db.insertInto('openapi_spec_versions').values(versionRow(spec.id, new Date())).execute();
    const res = await call(admin, 'DELETE', '/doomed');
    expect(res.statusCode).toBe(205);
    expect(res.body).toBe('');
    expect((await call(admin, 'GET', '/doomed')).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/doomed')).statusCode).toBe(404);
    expect(
      await t.db.selectFrom('openapi_spec_versions').select('id').where('spec_id', '=', spec.id).execute(),
    ).toEqual([]);
    expect(await t.db.selectFrom('openapi_spec_jobs').select('id').where('spec_id', '=', spec.id).execute()).toEqual(
      [],
    );
    // The slug is free again.
    await create('doomed');
  });

  it('404 on an unknown slug, and on a version or content of a spec without any', async () => {
    expect((await call(admin, 'GET', '/no-such-spec')).json()).toEqual({
      error: { code: 404, message: 'No OpenAPI spec with this slug is visible to you' },
    });
    await create('fresh');
    const latest = await call(admin, 'GET', '/fresh/versions/latest');
    expect(latest.statusCode).toBe(404);
    expect(latest.json().error.message).toMatch(/has no version yet/);
    expect((await call(admin, 'GET', '/fresh/versions/latest/content')).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/fresh/versions/${newId()}`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/fresh/versions/${newId()}/content`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/fresh/versions/${newId()}/raw`)).statusCode).toBe(404);
    const list = await call(admin, 'GET', '/fresh/versions');
    expectSpecResponse('listOpenAPISpecVersions', 200, list.json());
    expect(list.json()).toEqual({ count: 0, items: [] });
  });

  it('keep one organization’s slugs apart from another’s', async () => {
    await create('shared-name');
    const other = await t.factory.team();
    const res = await call(other.admin, 'POST', '', { slug: 'shared-name', source: SOURCE }, other.organization.id);
    expect(res.statusCode).toBe(201);
    expect((await call(admin, 'GET', '/shared-name', undefined, other.organization.id)).statusCode).toBe(404);
  });
});

describe('refused input', () => {
  const refusals: Array<[string, Method, string, unknown, RegExp]> = [
    ['an upper-case slug', 'POST', '', { slug: 'Payments', source: SOURCE }, /body\/slug must match pattern/],
    ['a slug with a leading hyphen', 'POST', '', { slug: '-pay', source: SOURCE }, /body\/slug must match pattern/],
    ['a slug with two hyphens in a row', 'POST', '', { slug: 'a--b', source: SOURCE }, /body\/slug/],
    ['an empty slug', 'POST', '', { slug: '', source: SOURCE }, /body\/slug must NOT have fewer than 1/],
    ['a slug of 101 characters', 'POST', '', { slug: 'a'.repeat(101), source: SOURCE }, /more than 100/],
    ['no slug', 'POST', '', { source: SOURCE }, /body\/slug is required/],
    ['no source', 'POST', '', { slug: 'nosource' }, /body\/source is required/],
    ['a source that is neither', 'POST', '', { slug: 'neither', source: {} }, /body\/source/],
    ['a URL and a text', 'POST', '', { slug: 'both', source: { url: SOURCE.url, text: TEXT } }, /body\/source/],
    ['an ftp URL', 'POST', '', { slug: 'ftp', source: { url: 'ftp://example.com/a.json' } }, /body\/source\/url/],
    ['a file URL', 'POST', '', { slug: 'file', source: { url: 'file:///etc/passwd' } }, /body\/source\/url/],
    ['a URL that is not one', 'POST', '', { slug: 'nourl', source: { url: 'not a url' } }, /body\/source\/url/],
    [
      'a URL over 2048 characters',
      'POST',
      '',
      { slug: 'longurl', source: { url: `https://example.com/${'a'.repeat(2048)}` } },
      /body\/source\/url must NOT have more than 2048/,
    ],
    ['an empty text', 'POST', '', { slug: 'empty', source: { text: '' } }, /body\/source\/text/],
    [
      'a text over SPEC_MAX_BYTES characters',
      'POST',
      '',
      { slug: 'big', source: { text: 'x'.repeat(MAX_BYTES + 1) } },
      /body\/source\/text must NOT have more than 16384 characters/,
    ],
    [
      // Within the limit in characters, over it in UTF-8 bytes.
      'a text over SPEC_MAX_BYTES bytes',
      'POST',
      '',
      { slug: 'wide', source: { text: 'é'.repeat(MAX_BYTES / 2 + 1) } },
      /body\/source\/text is over the 16384-byte limit/,
    ],
    ['an unknown field', 'POST', '', { slug: 'extra', source: SOURCE, title: 'x' }, /body\/title is not an accepted/],
    ['an unknown field in the source', 'POST', '', { slug: 'extra', source: { ...SOURCE, ref: 'x' } }, /body\/source/],
    ['a PUT to a slug that is not one', 'PUT', '/Not_A_Slug', { source: SOURCE }, /params\/specSlug must match/],
    ['a PUT without source', 'PUT', '/put-nothing', {}, /body\/source is required/],
    ['a PUT with a slug in the body', 'PUT', '/put-slug', { slug: 'x', source: SOURCE }, /body\/slug is not an/],
    ['an empty PATCH', 'PATCH', '/kept', {}, /body must NOT have fewer than 1 properties/],
    ['an unknown visibility', 'PATCH', '/kept', { visibility: 'secret' }, /body\/visibility must be one of/],
    ['a limit over 1000', 'GET', '?limit=1001', undefined, /querystring\/limit must be <= 1000/],
    ['a page cursor of another list', 'GET', '?page=abc', undefined, /querystring\/page is not a page cursor/],
  ];

  beforeAll(async () => {
    await create('kept');
  });

  it.each(refusals)('%s is a 400 that changes nothing', async (_name, method, path, payload, message) => {
    const before = await specTables();
    const res = await call(admin, method, path, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toEqual({ code: 400, message: expect.stringMatching(message) });
    expect(await specTables()).toEqual(before);
  });

  it('a slug already taken is a 409 that changes nothing', async () => {
    await create('taken');
    const before = await specTables();
    const res = await call(admin, 'POST', '', { slug: 'taken', source: { text: TEXT } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      'The slug "taken" is already taken by another OpenAPI spec of the organization',
    );
    expect(await specTables()).toEqual(before);
  });

  it('concurrent creates of one slug make one spec: one 201, the others 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(admin, 'POST', '', { slug: 'race', source: SOURCE })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await t.db.selectFrom('openapi_specs').select('id').where('slug', '=', 'race').execute();
    expect(rows).toHaveLength(1);
    expect(
      await t.db.selectFrom('openapi_spec_jobs').select('id').where('spec_id', '=', rows[0]!.id).execute(),
    ).toHaveLength(1);
  });

  it('concurrent PUTs of a new slug make one spec with one waiting job', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(admin, 'PUT', '/put-race', { source: SOURCE })),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((res) => res.json().id)).size).toBe(1);
    const jobs = await t.db
      .selectFrom('openapi_spec_jobs')
      .select('state')
      .where('spec_id', '=', answers[0]!.json().id)
      .execute();
    expect(jobs).toEqual([{ state: 'pending' }]);
  });
});

describe('who may call them', () => {
  beforeAll(async () => {
    await create('roles');
  });

  it('members of any role list and read; guests are refused the list (403), non-members see nothing (404)', async () => {
    for (const member of [admin, reader, editor]) {
      const list = await call(member, 'GET');
      expect(list.statusCode).toBe(200);
      expectSpecResponse('listOpenAPISpecs', 200, list.json());
      expect((await call(member, 'GET', '/roles')).statusCode).toBe(200);
      expect((await call(member, 'GET', '/roles/versions')).statusCode).toBe(200);
    }
    expect((await call(guest, 'GET')).json()).toEqual({
      error: { code: 403, message: 'Guests cannot see the OpenAPI specs of the organization' },
    });
    const unknown = (await call(admin, 'GET', '/not-a-spec')).body;
    expect((await call(guest, 'GET', '/roles')).body).toBe(unknown);
    expect((await call(guest, 'GET', '/roles/versions')).body).toBe(unknown);
    expect((await call(stranger, 'GET')).statusCode).toBe(404);
    expect((await call(stranger, 'GET', '/roles')).body).toBe(unknown);
  });

  it('only admins write: members 403, guests and non-members 404, and nothing changes', async () => {
    const writes: Array<[Method, string, object | undefined]> = [
      ['POST', '', { slug: 'by-member', source: SOURCE }],
      ['PUT', '/roles', { source: { text: TEXT } }],
      ['PUT', '/new-by-member', { source: SOURCE }],
      ['PATCH', '/roles', { visibility: 'public' }],
      ['DELETE', '/roles', undefined],
    ];
    for (const [method, path, payload] of writes) {
      const before = await specTables();
      for (const member of [reader, editor]) {
        const res = await call(member, method, path, payload);
        expect(res.statusCode, `${method} ${path}`).toBe(403);
        expect(res.json().error.message).toMatch(/needs the admin role in the organization/);
      }
      const guestRes = await call(guest, method, path, payload);
      expect(guestRes.statusCode, `${method} ${path}`).toBe(path === '' ? 403 : 404);
      expect((await call(stranger, method, path, payload)).statusCode, `${method} ${path}`).toBe(404);
      expect((await call(null, method, path, payload)).statusCode).toBe(401);
      expect(await specTables()).toEqual(before);
    }
  });

  it('scopes: openapi:read reads, openapi:write writes, other scopes neither', async () => {
    const readOnly = await t.factory.token(admin.user.id, { scopes: ['openapi:read'] });
    const writer = await t.factory.token(admin.user.id, { scopes: ['openapi:write'] });
    const other = await t.factory.token(admin.user.id, { scopes: ['space:read'] });

    expect((await call(readOnly, 'GET', '/roles')).statusCode).toBe(200);
    expect((await call(readOnly, 'GET')).statusCode).toBe(200);
    const refused = await call(readOnly, 'POST', '', { slug: 'scoped', source: SOURCE });
    expect(refused.json()).toEqual({
      error: { code: 403, message: 'This token lacks the "openapi:write" scope this operation needs' },
    });
    expect((await call(other, 'GET', '/roles')).statusCode).toBe(403);
    expect((await call(other, 'GET')).statusCode).toBe(403);
    // A write scope includes its read.
    expect((await call(writer, 'GET', '/roles')).statusCode).toBe(200);
    expect((await call(writer, 'POST', '', { slug: 'scoped', source: SOURCE })).statusCode).toBe(201);
  });
});

function versionRow(specId: string, createdAt: Date) {
  return {
    id: newId(),
    organization_id: organizationId,
    spec_id: specId,
    source_url: SOURCE.url,
    content_hash: newId(),
    entry_text: TEXT,
    entry_format: 'json' as const,
    filesystem: JSON.stringify({ entrypoint: SOURCE.url, files: [] }),
    outline: JSON.stringify({ info: { title: 'T', version: '1' }, tags: [], operations: [], operationCount: 0 }),
    created_at: createdAt,
  };
}

describe('pagination', () => {
  it('pages through the specs newest first, with the total count', async () => {
    const team = await t.factory.team();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(team.admin, 'POST', '', { slug: `page-${i}`, source: SOURCE }, team.organization.id);
      ids.push(res.json().id);
    }
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const query = page ? `?limit=2&page=${page}` : '?limit=2';
      const res = await call(team.admin, 'GET', query, undefined, team.organization.id);
      expect(res.statusCode).toBe(200);
      expectSpecResponse('listOpenAPISpecs', 200, res.json());
      expect(res.json().count).toBe(5);
      seen.push(...res.json().items.map((item: { id: string }) => item.id));
      page = res.json().next?.page;
    } while (page);
    expect(seen).toEqual([...ids].reverse());
    const none = await call(team.admin, 'GET', '?limit=0', undefined, team.organization.id);
    expect(none.json()).toEqual({ count: 5, items: [] });
  });

  it('pages through a spec’s versions newest first', async () => {
    const spec = await create('many-versions');
    const rows = Array.from({ length: 5 }, (_, i) => versionRow(spec.id, new Date(Date.UTC(2025, 0, 1 + i))));
    await t.db.insertInto('openapi_spec_versions').values(rows).execute();
    await t.db.updateTable('openapi_specs').set({ last_version_id: rows[4]!.id }).where('id', '=', spec.id).execute();
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await call(reader, 'GET', `/many-versions/versions?limit=2${page ? `&page=${page}` : ''}`);
      expectSpecResponse('listOpenAPISpecVersions', 200, res.json());
      expect(res.json().count).toBe(5);
      seen.push(...res.json().items.map((item: { id: string }) => item.id));
      page = res.json().next?.page;
    } while (page);
    expect(seen).toEqual(rows.map((row) => row.id).reverse());

    const latest = await call(reader, 'GET', '/many-versions/versions/latest');
    expectSpecResponse('getLatestOpenAPISpecVersion', 200, latest.json());
    expect(latest.json()).toEqual({
      object: 'openapi-spec-version',
      id: rows[4]!.id,
      createdAt: '2025-01-05T00:00:00.000Z',
      url: SOURCE.url,
      urls: { location: `${PUBLIC_URL}/v1/orgs/${organizationId}/openapi/many-versions/versions/${rows[4]!.id}` },
    });
    const byId = await call(reader, 'GET', `/many-versions/versions/${rows[0]!.id}`);
    expectSpecResponse('getOpenAPISpecVersionById', 200, byId.json());
    expect(byId.json().id).toBe(rows[0]!.id);
    // A version of another spec is not this spec's.
    const other = await create('other-versions');
    expect((await call(reader, 'GET', `/other-versions/versions/${rows[0]!.id}`)).statusCode).toBe(404);
    expect(other.lastVersion).toBeUndefined();
    // A cursor of the versions list is not one of the specs list.
    const cursor = (await call(reader, 'GET', '/many-versions/versions?limit=1')).json().next.page;
    expect((await call(reader, 'GET', `?page=${cursor}`)).statusCode).toBe(400);
  });
});

describe('the official client', () => {
  it('creates, reads, lists, updates and deletes specs', async () => {
    const client = officialClient(await listen(t.app), admin.token);
    const created = await client.orgs.createOpenApiSpec(organizationId, { slug: 'client-spec', source: SOURCE });
    expect(created.status).toBe(201);
    expectSpecResponse('createOpenAPISpec', 201, created.data);

    const got = await client.orgs.getOpenApiSpecBySlug(organizationId, 'client-spec');
    expectSpecResponse('getOpenAPISpecBySlug', 200, got.data);
    expect(got.data.id).toBe(created.data.id);

    const list = await client.orgs.listOpenApiSpecs(organizationId, { limit: 100 });
    expectSpecResponse('listOpenAPISpecs', 200, list.data);
    expect(list.data.items.map((item) => item.slug)).toContain('client-spec');

    const put = await client.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, 'client-spec', {
      source: { text: TEXT },
    });
    expectSpecResponse('createOrUpdateOpenAPISpecBySlug', 200, put.data);
    expect(put.data.sourceURL).toBeUndefined();

    const patched = await client.orgs.updateOpenApiSpecBySlug(organizationId, 'client-spec', {
      visibility: 'public' as never,
    });
    expectSpecResponse('updateOpenAPISpecBySlug', 200, patched.data);
    expect(patched.data.visibility).toBe('public');

    const versions = await client.orgs.listOpenApiSpecVersions(organizationId, 'client-spec');
    expectSpecResponse('listOpenAPISpecVersions', 200, versions.data);
    expect(versions.data.items).toEqual([]);
    const latest = await client.orgs.getLatestOpenApiSpecVersion(organizationId, 'client-spec').catch((e) => e);
    expect(latest).toBeInstanceOf(GitBookAPIError);
    expect((latest as GitBookAPIError).code).toBe(404);

    const deleted = await client.orgs.deleteOpenApiSpecBySlug(organizationId, 'client-spec');
    expect(deleted.status).toBe(205);
    const gone = await client.orgs.getOpenApiSpecBySlug(organizationId, 'client-spec').catch((e) => e);
    expect((gone as GitBookAPIError).code).toBe(404);
  });
});
