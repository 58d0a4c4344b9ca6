import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let outsider: Team;

beforeAll(async () => {
  team = await t.factory.team(['read', 'edit', null]);
  outsider = await t.factory.team();
});

let endpoint: Promise<string> | undefined;
const client = async (account: Account) => newestOfficialClient(await (endpoint ??= listen(t.app)), account.token);

type Method = 'GET' | 'POST' | 'PUT';
const call = (account: Account, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });

const glossaryUrl = (organizationId: string) => `/v1/orgs/${organizationId}/translations-glossary`;

const storedEntries = (organizationId: string) =>
  t.db
    .selectFrom('translation_glossary_entries')
    .select(['id', 'translations'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();

async function freshTeam() {
  return t.factory.team(['read', null]);
}

async function insert(owner: Team, translations: Array<Record<string, string>>) {
  const res = await call(owner.admin, 'PUT', glossaryUrl(owner.organization.id), {
    operations: translations.map((entry) => ({ type: 'insert', translations: entry })),
  });
  expect(res.statusCode, res.body).toBe(204);
}

describe('the translation glossary', () => {
  it('is written in batches by admins and read by members through the newest client, as the spec answers', async () => {
    const owner = await freshTeam();
    const organizationId = owner.organization.id;
    const admin = await client(owner.admin);
    const written = await admin.orgs.updateGlossaryEntries(organizationId, {
      operations: [
        { type: 'insert', translations: { en: 'workspace', fr: 'espace de travail' } },
        { type: 'insert', translations: { en: 'site', de: 'Website' } },
      ],
    });
    expect(written.status).toBe(204);

    const reader = await client(owner.member('read'));
    const listed = await reader.orgs.listGlossaryEntries(organizationId);
    expectNewestSpecResponse('listGlossaryEntries', 200, listed.data);
    expect(listed.data.count).toBe(2);
    // Newest first; the two share their creation time, and then the id decides.
    expect(listed.data.items.map((entry) => entry.translations).sort((a, b) => a.en!.localeCompare(b.en!))).toEqual([
      { en: 'site', de: 'Website' },
      { en: 'workspace', fr: 'espace de travail' },
    ]);
    const [first] = listed.data.items;
    const one = await reader.orgs.getGlossaryEntry(organizationId, first!.id);
    expectNewestSpecResponse('getGlossaryEntry', 200, one.data);
    expect(one.data).toEqual(first);
    expect(one.data.urls.location).toBe(
      `http://docs.test/v1/orgs/${organizationId}/translations-glossary/${first!.id}`,
    );
  });

  it('updates replace an entry’s translations and deletes remove it, all in one batch', async () => {
    const owner = await freshTeam();
    const organizationId = owner.organization.id;
    await insert(owner, [{ en: 'page' }, { en: 'space' }]);
    const [page, space] = (await storedEntries(organizationId)).sort((a, b) =>
      JSON.stringify(a.translations).localeCompare(JSON.stringify(b.translations)),
    );
    const res = await call(owner.admin, 'PUT', glossaryUrl(organizationId), {
      operations: [
        { type: 'update', id: page!.id, translations: { en: 'page', es: 'página' } },
        { type: 'delete', id: space!.id },
        { type: 'insert', translations: { ja: 'サイト' } },
      ],
    });
    expect(res.statusCode, res.body).toBe(204);
    const stored = await storedEntries(organizationId);
    expect(stored.map((row) => row.translations)).toEqual(
      expect.arrayContaining([{ en: 'page', es: 'página' }, { ja: 'サイト' }]),
    );
    expect(stored).toHaveLength(2);
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['action', 'payload'])
      .where('organization_id', '=', organizationId)
      .where('action', '=', 'translation.glossary_updated')
      .execute();
    expect(audit.map((row) => row.payload)).toContainEqual({ inserted: 1, updated: 1, deleted: 1 });
  });

  it('orders by the term in a language, any case, entries without it last, page by page', async () => {
    const owner = await freshTeam();
    const organizationId = owner.organization.id;
    await insert(owner, [{ en: 'beta' }, { en: 'Alpha' }, { fr: 'sans anglais' }, { en: 'gamma' }, { en: 'alpha' }]);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await call(
        owner.admin,
        'GET',
        `${glossaryUrl(organizationId)}?orderBy=en&limit=2${page ? `&page=${page}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as {
        count: number;
        items: Array<{ translations: Record<string, string> }>;
        next?: { page: string };
      };
      expect(body.count).toBe(5);
      seen.push(...body.items.map((entry) => entry.translations.en ?? `(${entry.translations.fr})`));
      page = body.next?.page;
    } while (page);
    expect(seen.slice(0, 2).sort()).toEqual(['Alpha', 'alpha']);
    expect(seen.slice(2)).toEqual(['beta', 'gamma', '(sans anglais)']);

    // A cursor of one order is refused by another.
    const first = await call(owner.admin, 'GET', `${glossaryUrl(organizationId)}?orderBy=en&limit=1`);
    const cursor = (first.json() as { next: { page: string } }).next.page;
    const other = await call(owner.admin, 'GET', `${glossaryUrl(organizationId)}?orderBy=fr&page=${cursor}`);
    expect(other.statusCode).toBe(400);
  });

  it('refuses a batch with an unknown or repeated id, or a bad term, and changes nothing', async () => {
    const owner = await freshTeam();
    const organizationId = owner.organization.id;
    await insert(owner, [{ en: 'kept' }]);
    const [kept] = await storedEntries(organizationId);
    const before = await storedEntries(organizationId);
    const refusals: Array<[object, string]> = [
      [
        {
          operations: [
            { type: 'insert', translations: { en: 'new' } },
            { type: 'delete', id: 'missing0000000000000' },
          ],
        },
        'body/operations/1/id: the glossary has no entry "missing0000000000000"',
      ],
      [
        {
          operations: [
            { type: 'update', id: kept!.id, translations: { en: 'x' } },
            { type: 'delete', id: kept!.id },
          ],
        },
        `body/operations/1/id: the batch already names entry "${kept!.id}"`,
      ],
      [{ operations: [{ type: 'insert', translations: { klingon: 'x' } }] }, ''],
      [{ operations: [{ type: 'insert', translations: {} }] }, ''],
      [{ operations: [{ type: 'insert', translations: { en: 'two\nlines' } }] }, ''],
      [{ operations: [{ type: 'insert', translations: { en: 'x'.repeat(256) } }] }, ''],
      [{ operations: [{ type: 'rename', id: kept!.id }] }, ''],
      [{ operations: Array.from({ length: 101 }, () => ({ type: 'insert', translations: { en: 'x' } })) }, ''],
      [{}, ''],
    ];
    for (const [body, message] of refusals) {
      const res = await call(owner.admin, 'PUT', glossaryUrl(organizationId), body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      if (message) expect((res.json() as { error: { message: string } }).error.message).toBe(message);
    }
    expect(await storedEntries(organizationId)).toEqual(before);
  });

  it('holds at most 2000 entries (409), counting what the batch deletes', async () => {
    const owner = await freshTeam();
    const organizationId = owner.organization.id;
    await t.db
      .insertInto('translation_glossary_entries')
      .values(
        Array.from({ length: 2000 }, (_, index) => ({
          id: `bulk${String(index).padStart(16, '0')}`,
          organization_id: organizationId,
          translations: JSON.stringify({ en: `term ${index}` }),
        })),
      )
      .execute();
    const over = await call(owner.admin, 'PUT', glossaryUrl(organizationId), {
      operations: [{ type: 'insert', translations: { en: 'one more' } }],
    });
    expect(over.statusCode).toBe(409);
    const swapped = await call(owner.admin, 'PUT', glossaryUrl(organizationId), {
      operations: [
        { type: 'delete', id: 'bulk0000000000000000' },
        { type: 'insert', translations: { en: 'one more' } },
      ],
    });
    expect(swapped.statusCode, swapped.body).toBe(204);
    expect(await storedEntries(organizationId)).toHaveLength(2000);
  });

  it('is written by admins only, read by members with a role, and hidden from guests and other organizations', async () => {
    const organizationId = team.organization.id;
    await insert(team, [{ en: 'private term' }]);
    const [entry] = await storedEntries(organizationId);
    const before = await storedEntries(organizationId);
    const write = { operations: [{ type: 'delete', id: entry!.id }] };

    expect((await call(team.member('edit'), 'PUT', glossaryUrl(organizationId), write)).statusCode).toBe(403);
    expect((await call(team.member(null), 'PUT', glossaryUrl(organizationId), write)).statusCode).toBe(403);
    expect((await call(outsider.admin, 'PUT', glossaryUrl(organizationId), write)).statusCode).toBe(404);
    expect(await storedEntries(organizationId)).toEqual(before);

    expect((await call(team.member('read'), 'GET', glossaryUrl(organizationId))).statusCode).toBe(200);
    expect((await call(team.member(null), 'GET', glossaryUrl(organizationId))).statusCode).toBe(403);
    expect((await call(outsider.admin, 'GET', glossaryUrl(organizationId))).statusCode).toBe(404);
    const entryUrl = `${glossaryUrl(organizationId)}/${entry!.id}`;
    expect((await call(team.member(null), 'GET', entryUrl)).statusCode).toBe(404);
    expect((await call(outsider.admin, 'GET', entryUrl)).statusCode).toBe(404);
    // Another organization's admin cannot reach the entry through their own organization either.
    expect(
      (await call(outsider.admin, 'GET', `${glossaryUrl(outsider.organization.id)}/${entry!.id}`)).statusCode,
    ).toBe(404);
    const foreignWrite = await call(outsider.admin, 'PUT', glossaryUrl(outsider.organization.id), write);
    expect(foreignWrite.statusCode).toBe(400);
    expect(await storedEntries(organizationId)).toEqual(before);
  });
});

describe('runTranslation', () => {
  async function settings(owner: Team) {
    const res = await call(owner.admin, 'POST', `/v1/orgs/${owner.organization.id}/translations`, {
      title: 'Europe',
      languages: ['fr', 'de'],
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  }

  const runs = (organizationId: string) =>
    t.db
      .selectFrom('audit_events')
      .select(['target_id', 'payload'])
      .where('organization_id', '=', organizationId)
      .where('action', '=', 'translation.run_requested')
      .execute();

  it('records the request of an admin through the newest client, and answers 204', async () => {
    const owner = await freshTeam();
    const id = await settings(owner);
    const admin = await client(owner.admin);
    const res = await admin.orgs.runTranslation(owner.organization.id, id);
    expect(res.status).toBe(204);
    expect(await runs(owner.organization.id)).toEqual([{ target_id: id, payload: { languages: ['fr', 'de'] } }]);
  });

  it('is refused to members without admin (403), and unknown to guests, outsiders and for unknown ids (404)', async () => {
    const id = await settings(team);
    const url = (organizationId: string, settingsId = id) =>
      `/v1/orgs/${organizationId}/translations/${settingsId}/run`;
    expect((await call(team.member('edit'), 'POST', url(team.organization.id))).statusCode).toBe(403);
    expect((await call(team.member(null), 'POST', url(team.organization.id))).statusCode).toBe(404);
    expect((await call(outsider.admin, 'POST', url(team.organization.id))).statusCode).toBe(404);
    expect((await call(outsider.admin, 'POST', url(outsider.organization.id))).statusCode).toBe(404);
    expect((await call(team.admin, 'POST', url(team.organization.id, 'unknown0000000000000'))).statusCode).toBe(404);
    expect(await runs(team.organization.id)).toEqual([]);
    expect(await runs(outsider.organization.id)).toEqual([]);
  });
});
