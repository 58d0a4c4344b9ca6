import { GitBookAPIError } from '@gitbook/api';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { TRANSLATION_LANGUAGES } from '../src/translations/schemas.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';

const t = useTestApp();

/**
 * Part B's TranslationSettings, field by field: the seeds' resource is not the
 * GitBook spec's Translation, so responses are held against this instead.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateSettings = ajv.compile({
  type: 'object',
  additionalProperties: false,
  required: ['object', 'id', 'title', 'languages', 'createdAt', 'updatedAt', 'permissions', 'urls'],
  properties: {
    object: { const: 'translation-settings' },
    id: { type: 'string', minLength: 1 },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    languages: { type: 'array', items: { type: 'string', enum: [...TRANSLATION_LANGUAGES] } },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    permissions: {
      type: 'object',
      additionalProperties: false,
      required: ['view', 'edit'],
      properties: { view: { type: 'boolean' }, edit: { type: 'boolean' } },
    },
    urls: {
      type: 'object',
      additionalProperties: false,
      required: ['location'],
      properties: { location: { type: 'string', format: 'uri' } },
    },
  },
});
const validateList = ajv.compile({
  type: 'object',
  required: ['items', 'count'],
  properties: {
    items: { type: 'array' },
    count: { type: 'integer', minimum: 0 },
    next: { type: 'object', required: ['page'], properties: { page: { type: 'string' } } },
  },
});

function expectSettings(body: unknown) {
  if (!validateSettings(body))
    throw new Error(`Not Part B's TranslationSettings: ${ajv.errorsText(validateSettings.errors)}`);
}

function expectList(body: { items: unknown[] }) {
  if (!validateList(body)) throw new Error(`Not a list: ${ajv.errorsText(validateList.errors)}`);
  body.items.forEach(expectSettings);
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(account: Account | undefined, method: Method, organizationId: string, path = '', payload?: object) {
  return t.app.inject({
    method,
    url: `/v1/orgs/${organizationId}/translations${path}`,
    headers: account?.headers ?? {},
    ...(payload ? { payload } : {}),
  });
}

async function storedRows(organizationId: string) {
  return t.db
    .selectFrom('translation_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
}

describe('translation settings', () => {
  it('are created, read, listed, replaced and deleted by an admin, as Part B shapes them', async () => {
    const { admin, organization } = await t.factory.team();
    const created = await call(admin, 'POST', organization.id, '', {
      title: 'Docs in Europe',
      languages: ['fr', 'de'],
    });
    expect(created.statusCode).toBe(201);
    const settings = created.json();
    expectSettings(settings);
    expect(settings).toMatchObject({
      object: 'translation-settings',
      title: 'Docs in Europe',
      languages: ['fr', 'de'],
      permissions: { view: true, edit: true },
      urls: { location: `${PUBLIC_URL}/v1/orgs/${organization.id}/translations/${settings.id}` },
    });
    expect(settings.createdAt).toBe(settings.updatedAt);
    expect(created.headers.location).toBe(settings.urls.location);

    const read = await call(admin, 'GET', organization.id, `/${settings.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(settings);

    const list = await call(admin, 'GET', organization.id);
    expect(list.statusCode).toBe(200);
    expectList(list.json());
    expect(list.json()).toEqual({ items: [settings], count: 1 });

    // A replace without languages keeps them; with languages, replaces them.
    const renamed = await call(admin, 'PUT', organization.id, `/${settings.id}`, { title: 'Docs abroad' });
    expect(renamed.statusCode).toBe(200);
    expectSettings(renamed.json());
    expect(renamed.json()).toMatchObject({
      title: 'Docs abroad',
      languages: ['fr', 'de'],
      createdAt: settings.createdAt,
    });
    expect(Date.parse(renamed.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(settings.updatedAt));
    const relanguaged = await call(admin, 'PUT', organization.id, `/${settings.id}`, {
      title: 'Docs abroad',
      languages: ['ja', 'pt-br', 'zh-tw'],
    });
    expect(relanguaged.json().languages).toEqual(['ja', 'pt-br', 'zh-tw']);
    expect((await storedRows(organization.id))[0]).toMatchObject({
      title: 'Docs abroad',
      languages: ['ja', 'pt-br', 'zh-tw'],
    });

    const deleted = await call(admin, 'DELETE', organization.id, `/${settings.id}`);
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    expect((await call(admin, 'GET', organization.id, `/${settings.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', organization.id, `/${settings.id}`)).statusCode).toBe(404);
    expect(await storedRows(organization.id)).toEqual([]);
  });

  it('start with no languages when a create names none', async () => {
    const { admin, organization } = await t.factory.team();
    const res = await call(admin, 'POST', organization.id, '', { title: 'x' });
    expect(res.statusCode).toBe(201);
    expect(res.json().languages).toEqual([]);
  });

  it('refuse bad input with a 400 that names the field, and store nothing', async () => {
    const { admin, organization } = await t.factory.team();
    const existing = (await call(admin, 'POST', organization.id, '', { title: 'Kept', languages: ['en'] })).json();
    const before = await storedRows(organization.id);
    const bodies: Array<[object | undefined, RegExp]> = [
      [{}, /title/],
      [{ title: '' }, /title/],
      [{ title: 'x'.repeat(101) }, /title/],
      [{ title: 42 }, /title/],
      [{ title: 'ok', languages: ['xx'] }, /languages/],
      [{ title: 'ok', languages: ['en', 'en'] }, /languages/],
      [{ title: 'ok', languages: 'en' }, /languages/],
      [{ title: 'ok', extra: true }, /extra|additional/],
    ];
    for (const [payload, field] of bodies) {
      for (const [method, path] of [
        ['POST', ''],
        ['PUT', `/${existing.id}`],
      ] as const) {
        const res = await call(admin, method, organization.id, path, payload);
        expect(res.statusCode, `${method} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json().error.message).toMatch(field);
      }
    }
    // A PUT with no body at all.
    expect((await call(admin, 'PUT', organization.id, `/${existing.id}`)).statusCode).toBe(400);
    expect(await storedRows(organization.id)).toEqual(before);
  });

  it('are read by members of any role, changed by admins only, hidden from guests and outsiders', async () => {
    const { admin, organization, member } = await t.factory.team(['read', 'create', null]);
    const settings = (await call(admin, 'POST', organization.id, '', { title: 'Shared', languages: ['es'] })).json();
    const before = await storedRows(organization.id);
    const outsider = await t.factory.account();

    for (const role of ['read', 'create'] as const) {
      const reader = member(role);
      const list = await call(reader, 'GET', organization.id);
      expect(list.statusCode).toBe(200);
      expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([settings.id]);
      const read = await call(reader, 'GET', organization.id, `/${settings.id}`);
      expect(read.statusCode).toBe(200);
      expectSettings(read.json());
      expect(read.json().permissions).toEqual({ view: true, edit: false });
      expect((await call(reader, 'POST', organization.id, '', { title: 'No' })).statusCode).toBe(403);
      expect((await call(reader, 'PUT', organization.id, `/${settings.id}`, { title: 'No' })).statusCode).toBe(403);
      expect((await call(reader, 'DELETE', organization.id, `/${settings.id}`)).statusCode).toBe(403);
    }

    const guest = member(null);
    expect((await call(guest, 'GET', organization.id)).statusCode).toBe(403);
    expect((await call(guest, 'POST', organization.id, '', { title: 'No' })).statusCode).toBe(403);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const payload = method === 'PUT' ? { title: 'No' } : undefined;
      expect((await call(guest, method, organization.id, `/${settings.id}`, payload)).statusCode).toBe(404);
      expect((await call(outsider, method, organization.id, `/${settings.id}`, payload)).statusCode).toBe(404);
    }
    expect((await call(outsider, 'GET', organization.id)).statusCode).toBe(404);
    expect((await call(outsider, 'POST', organization.id, '', { title: 'No' })).statusCode).toBe(404);
    for (const method of ['GET', 'POST'] as const) {
      expect((await call(undefined, method, organization.id, '', { title: 'No' })).statusCode).toBe(401);
    }
    expect(await storedRows(organization.id)).toEqual(before);
  });

  it('of one organization are not found through another, even by its admin', async () => {
    const first = await t.factory.team();
    const second = await t.factory.team();
    const settings = (await call(first.admin, 'POST', first.organization.id, '', { title: 'Mine' })).json();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(second.admin, method, second.organization.id, `/${settings.id}`, {
        ...(method === 'PUT' ? { title: 'Taken' } : {}),
      });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await call(second.admin, 'GET', second.organization.id)).json()).toEqual({ items: [], count: 0 });
    expect((await storedRows(first.organization.id))[0]!.title).toBe('Mine');
  });

  it('honour token scopes: organization:read reads, organization:write is needed to change', async () => {
    const { admin, organization } = await t.factory.team();
    const settings = (await call(admin, 'POST', organization.id, '', { title: 'Scoped' })).json();
    const reader = await t.factory.token(admin.user.id, { scopes: ['organization:read'] });
    expect((await call(reader, 'GET', organization.id, `/${settings.id}`)).statusCode).toBe(200);
    expect((await call(reader, 'GET', organization.id)).statusCode).toBe(200);
    expect((await call(reader, 'POST', organization.id, '', { title: 'No' })).statusCode).toBe(403);
    expect((await call(reader, 'PUT', organization.id, `/${settings.id}`, { title: 'No' })).statusCode).toBe(403);
    expect((await call(reader, 'DELETE', organization.id, `/${settings.id}`)).statusCode).toBe(403);
    const other = await t.factory.token(admin.user.id, { scopes: ['space:read'] });
    expect((await call(other, 'GET', organization.id)).statusCode).toBe(403);
    expect((await storedRows(organization.id)).map((row) => row.title)).toEqual(['Scoped']);
  });

  it('are listed newest first in keyset pages, or oldest first with order=asc', async () => {
    const { admin, organization } = await t.factory.team();
    const made: Array<{ id: string; createdAt: string }> = [];
    for (let i = 0; i < 5; i++) {
      made.push((await call(admin, 'POST', organization.id, '', { title: `Settings ${i}` })).json());
    }
    // Oldest first; two made in one millisecond are ordered by id, as the keyset orders them.
    const ids = made
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1))
      .map((settings) => settings.id);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await call(admin, 'GET', organization.id, `?limit=2${page ? `&page=${page}` : ''}`);
      expect(res.statusCode).toBe(200);
      expectList(res.json());
      expect(res.json().count).toBe(5);
      seen.push(...res.json().items.map((item: { id: string }) => item.id));
      page = res.json().next?.page;
    } while (page);
    expect(seen).toEqual([...ids].reverse());
    const ascending = await call(admin, 'GET', organization.id, '?order=asc&limit=1000');
    expect(ascending.json().items.map((item: { id: string }) => item.id)).toEqual(ids);
    expect((await call(admin, 'GET', organization.id, '?limit=0')).json()).toEqual({ items: [], count: 5 });
    expect((await call(admin, 'GET', organization.id, '?page=tampered')).statusCode).toBe(400);
  });

  it('are managed through the official client', async () => {
    const { admin, organization } = await t.factory.team();
    const endpoint = await listen(t.app);
    const client = officialClient(endpoint, admin.token);
    // The client's types are the spec's Translation; the service answers Part B's settings.
    const created = await client.orgs.createTranslation(organization.id, { title: 'Client made' } as never);
    expect(created.status).toBe(201);
    expectSettings(created.data);
    const id = (created.data as unknown as { id: string }).id;
    const listed = await client.orgs.listTranslations(organization.id);
    expect((listed.data.items as unknown as Array<{ id: string }>).map((item) => item.id)).toEqual([id]);
    const replaced = await client.orgs.updateTranslation(organization.id, id, {
      title: 'Client renamed',
      languages: ['it'],
    } as never);
    expect(replaced.data).toMatchObject({ title: 'Client renamed', languages: ['it'] });
    expect((await client.orgs.getTranslation(organization.id, id)).data).toEqual(replaced.data);
    expect((await client.orgs.deleteTranslation(organization.id, id)).status).toBe(205);
    const missing = await client.orgs.getTranslation(organization.id, id).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect((missing as GitBookAPIError).code).toBe(404);
  });
});
