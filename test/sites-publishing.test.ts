import { beforeAll, describe, expect, it } from 'vitest';
import { Keyring } from '../src/core/keyring.js';
import { secretHash } from '../src/core/sealed.js';
import { activeShareLinkExists } from '../src/sites/publishing/share-link-queries.js';
import { openVisitorKey } from '../src/sites/secrets.js';
import { listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
/** What the test app opens sealed values with: the keyring of testConfig, and its service secret. */
const keys = {
  keyring: Keyring.fromConfig(testConfig('').encryption, testConfig('').secretKey!),
  serviceSecret: testConfig('').secretKey!,
};

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;

beforeAll(async () => {
  team = await t.factory.team(['read', 'edit', null]);
  admin = team.admin;
});

let endpoint: Promise<string> | undefined;
/** The app listens once for the official client's tests. */
const client = (account: Account) => {
  endpoint ??= listen(t.app);
  return endpoint.then((address) => officialClient(address, account.token));
};

const sitePath = (siteId: string, organizationId = team.organization.id) =>
  `/v1/orgs/${organizationId}/sites/${siteId}`;

const shareLinkRows = (siteId: string) =>
  t.db
    .selectFrom('site_share_links')
    .select(['id', 'name', 'active', 'key_hash', 'key_encrypted'])
    .where('site_id', '=', siteId)
    .orderBy('created_at')
    .execute();

async function createLink(siteId: string, name: string, account = admin) {
  return t.app.inject({
    method: 'POST',
    url: `${sitePath(siteId)}/share-links`,
    headers: account.headers,
    payload: { name },
  });
}

/** The key a share link's published address carries. */
const keyOf = (published: string) => new URL(published).searchParams.get('share')!;

describe('share links', () => {
  it('are created, listed, renamed, turned off and deleted by admins', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    const created = await createLink(siteId, 'Partners');
    expect(created.statusCode).toBe(201);
    expectSpecResponse('createSiteShareLink', 201, created.json());
    const link = created.json();
    expect(link).toEqual({
      object: 'share-link',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      createdAt: expect.any(String),
      name: 'Partners',
      active: true,
      urls: { published: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/s/${siteId}\\?share=[A-Za-z0-9]{24}$`)) },
    });
    expect(created.headers.location).toBe(`${PUBLIC_URL}${sitePath(siteId)}/share-links/${link.id}`);

    // The key is kept hashed and sealed, never as itself.
    const key = keyOf(link.urls.published);
    const [row] = await shareLinkRows(siteId);
    expect(row!.key_hash.equals(secretHash(key))).toBe(true);
    expect(row!.key_encrypted).not.toContain(key);
    expect(await activeShareLinkExists(t.db, team.organization.id, siteId, key)).toBe(true);
    expect(await activeShareLinkExists(t.db, team.organization.id, siteId, 'x'.repeat(24))).toBe(false);

    const listed = await t.app.inject({
      method: 'GET',
      url: `${sitePath(siteId)}/share-links`,
      headers: admin.headers,
    });
    expect(listed.statusCode).toBe(200);
    expectSpecResponse('listSiteShareLinks', 200, listed.json());
    expect(listed.json()).toEqual({ count: 1, items: [link] });

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `${sitePath(siteId)}/share-links/${link.id}`,
      headers: admin.headers,
      payload: { name: '' },
    });
    expect(renamed.statusCode).toBe(200);
    expectSpecResponse('updateSiteShareLinkById', 200, renamed.json());
    expect(renamed.json()).toEqual({ ...link, name: '' });

    const off = await t.app.inject({
      method: 'PATCH',
      url: `${sitePath(siteId)}/share-links/${link.id}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(off.json()).toEqual({ ...link, name: '', active: false });
    expect(await activeShareLinkExists(t.db, team.organization.id, siteId, key)).toBe(false);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${sitePath(siteId)}/share-links/${link.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    expect(await shareLinkRows(siteId)).toEqual([]);

    const again = await t.app.inject({
      method: 'DELETE',
      url: `${sitePath(siteId)}/share-links/${link.id}`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('are found by key only on their own site, and only while active', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    const { id: otherSiteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    const key = keyOf((await createLink(siteId, 'a')).json().urls.published);
    expect(await activeShareLinkExists(t.db, team.organization.id, siteId, key)).toBe(true);
    expect(await activeShareLinkExists(t.db, team.organization.id, otherSiteId, key)).toBe(false);
    const other = await t.factory.team();
    expect(await activeShareLinkExists(t.db, other.organization.id, siteId, key)).toBe(false);
  });

  it('can be made whatever the site’s visibility, and its address uses the basename', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'public' });
    await t.db.updateTable('sites').set({ basename: 'handbook' }).where('id', '=', siteId).execute();
    const created = await createLink(siteId, 'early');
    expect(created.statusCode).toBe(201);
    expect(created.json().urls.published).toMatch(new RegExp(`^${PUBLIC_URL}/s/handbook\\?share=`));
  });

  it('are listed newest first, a page at a time, and in either order', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    const names = ['one', 'two', 'three', 'four', 'five'];
    for (const name of names) expect((await createLink(siteId, name)).statusCode).toBe(201);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await t.app.inject({
        method: 'GET',
        url: `${sitePath(siteId)}/share-links?limit=2${page ? `&page=${page}` : ''}`,
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(200);
      expectSpecResponse('listSiteShareLinks', 200, res.json());
      expect(res.json().count).toBe(5);
      seen.push(...res.json().items.map((item: { name: string }) => item.name));
      page = res.json().next?.page;
    } while (page);
    expect(seen).toEqual([...names].reverse());

    const ascending = await t.app.inject({
      method: 'GET',
      url: `${sitePath(siteId)}/share-links?order=asc&limit=0`,
      headers: admin.headers,
    });
    expect(ascending.json()).toEqual({ count: 5, items: [] });
    const first = await t.app.inject({
      method: 'GET',
      url: `${sitePath(siteId)}/share-links?order=asc&limit=1`,
      headers: admin.headers,
    });
    expect(first.json().items[0].name).toBe('one');

    const foreign = await t.app.inject({
      method: 'GET',
      url: `${sitePath(siteId)}/share-links?order=desc&page=${first.json().next.page}`,
      headers: admin.headers,
    });
    expect(foreign.statusCode).toBe(400);
  });

  it('work through the official client', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    const api = await client(admin);
    const created = await api.orgs.createSiteShareLink(team.organization.id, siteId, { name: 'client' });
    expect(created.status).toBe(201);
    const updated = await api.orgs.updateSiteShareLinkById(team.organization.id, siteId, created.data.id, {
      active: false,
    });
    expect(updated.data.active).toBe(false);
    const listed = await api.orgs.listSiteShareLinks(team.organization.id, siteId);
    expect(listed.data.items).toEqual([updated.data]);
    const deleted = await api.orgs.deleteSiteShareLinkById(team.organization.id, siteId, created.data.id);
    expect(deleted.status).toBe(205);
    expect((await api.orgs.listSiteShareLinks(team.organization.id, siteId)).data.count).toBe(0);
  });

  it('refuses bad bodies with a 400 naming the field, storing nothing', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    const link = (await createLink(siteId, 'keep')).json();
    const before = await shareLinkRows(siteId);
    const base = `${sitePath(siteId)}/share-links`;
    const cases: Array<['POST' | 'PATCH', string, unknown, string]> = [
      ['POST', base, {}, 'body/name is required'],
      ['POST', base, { name: 'x'.repeat(51) }, 'body/name must NOT have more than 50 characters'],
      ['POST', base, { name: 3 }, 'body/name must be string'],
      ['POST', base, { name: 'a', active: false }, 'body/active is not an accepted field'],
      ['PATCH', `${base}/${link.id}`, {}, 'body must NOT have fewer than 1 properties'],
      ['PATCH', `${base}/${link.id}`, { name: 'x'.repeat(51) }, 'body/name'],
      ['PATCH', `${base}/${link.id}`, { active: 'no' }, 'body/active must be boolean'],
      ['PATCH', `${base}/${link.id}`, { key: 'mine' }, 'body/key is not an accepted field'],
    ];
    for (const [method, url, payload, message] of cases) {
      const res = await t.app.inject({ method, url, headers: admin.headers, payload: payload as object });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    const query = await t.app.inject({ method: 'GET', url: `${base}?limit=1001`, headers: admin.headers });
    expect(query.statusCode).toBe(400);
    expect(await shareLinkRows(siteId)).toEqual(before);
  });

  it('are for admins only, reads included: members get a 403, guests and non-members a 404', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    const link = (await createLink(siteId, 'keep')).json();
    const before = await shareLinkRows(siteId);
    const stranger = await t.factory.account();
    const base = `${sitePath(siteId)}/share-links`;
    const requests: Array<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }> = [
      { method: 'GET', url: base },
      { method: 'POST', url: base, payload: { name: 'mine' } },
      { method: 'PATCH', url: `${base}/${link.id}`, payload: { active: false } },
      { method: 'DELETE', url: `${base}/${link.id}` },
    ];
    const callers: Array<[Account, number]> = [
      [team.member('read'), 403],
      [team.member('edit'), 403],
      [team.member(null), 404],
      [stranger, 404],
    ];
    for (const request of requests) {
      for (const [account, status] of callers) {
        const res = await t.app.inject({ ...request, headers: account.headers });
        expect(res.statusCode, `${request.method} ${status}`).toBe(status);
      }
    }
    expect(await shareLinkRows(siteId)).toEqual(before);
  });

  it('is a 404 for an unknown link, or one of another site', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id);
    const { id: otherSiteId } = await insertSite(t.db, team.organization.id);
    const link = (await createLink(otherSiteId, 'elsewhere')).json();
    for (const shareLinkId of ['unknown', link.id]) {
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `${sitePath(siteId)}/share-links/${shareLinkId}`,
        headers: admin.headers,
        payload: { name: 'x' },
      });
      expect(patch.statusCode).toBe(404);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `${sitePath(siteId)}/share-links/${shareLinkId}`,
        headers: admin.headers,
      });
      expect(del.statusCode).toBe(404);
    }
    expect(await shareLinkRows(otherSiteId)).toHaveLength(1);
    const unknownSite = await createLink('unknown', 'x');
    expect(unknownSite.statusCode).toBe(404);
  });

  it('stop at 100 a site', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'share-link' });
    await t.db
      .insertInto('site_share_links')
      .values(
        Array.from({ length: 99 }, (_, i) => ({
          id: `bulk${String(i).padStart(16, '0')}`,
          organization_id: team.organization.id,
          site_id: siteId,
          name: `bulk ${i}`,
          key_hash: secretHash(`bulk-${siteId}-${i}`),
          key_encrypted: 'unused',
        })),
      )
      .execute();
    expect((await createLink(siteId, 'hundredth')).statusCode).toBe(201);
    const over = await createLink(siteId, 'one too many');
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toContain('at most 100 share links');
    expect(await shareLinkRows(siteId)).toHaveLength(100);
  });
});

describe('publishing auth', () => {
  const authPath = (siteId: string) => `${sitePath(siteId)}/publishing/auth`;

  const authColumns = (siteId: string) =>
    t.db
      .selectFrom('sites')
      .select(['auth_backend', 'auth_fallback_url', 'auth_private_key_encrypted'])
      .where('id', '=', siteId)
      .executeTakeFirstOrThrow();

  it('gives admins the backend and the opened signing key, which is stored only sealed', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'visitor-auth' });
    const res = await t.app.inject({ method: 'GET', url: authPath(siteId), headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('getSitePublishingAuthById', 200, res.json());
    const stored = await authColumns(siteId);
    expect(res.json()).toEqual({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: openVisitorKey(keys, siteId, stored.auth_private_key_encrypted),
    });
    expect(res.json().privateKey).toMatch(/^[\w-]{43}$/);
    expect(stored.auth_private_key_encrypted).not.toContain(res.json().privateKey);
  });

  it('sets the backend and the fallback address; absent leaves it, null removes it', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'visitor-auth' });
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: authPath(siteId), headers: admin.headers, payload });

    const set = await patch({ backend: 'integration', fallbackURL: 'https://login.example.com/fallback' });
    expect(set.statusCode).toBe(200);
    expectSpecResponse('updateSitePublishingAuthById', 200, set.json());
    expect(set.json()).toMatchObject({ backend: 'integration', fallbackURL: 'https://login.example.com/fallback' });
    expect(await authColumns(siteId)).toMatchObject({
      auth_backend: 'integration',
      auth_fallback_url: 'https://login.example.com/fallback',
    });

    const kept = await patch({ backend: 'custom' });
    expect(kept.json()).toMatchObject({ backend: 'custom', fallbackURL: 'https://login.example.com/fallback' });

    const removed = await patch({ backend: 'custom', fallbackURL: null });
    expect(removed.statusCode).toBe(200);
    expectSpecResponse('updateSitePublishingAuthById', 200, removed.json());
    expect(removed.json()).not.toHaveProperty('fallbackURL');
    expect((await authColumns(siteId)).auth_fallback_url).toBeNull();
  });

  it('regenerates the key: the new one is answered and stored sealed, the old one is gone', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'visitor-auth' });
    const old = (await t.app.inject({ method: 'GET', url: authPath(siteId), headers: admin.headers })).json();
    const oldSealed = (await authColumns(siteId)).auth_private_key_encrypted;
    const res = await t.app.inject({ method: 'POST', url: `${authPath(siteId)}/regenerate`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('regenerateSitePublishingAuthById', 200, res.json());
    const fresh = res.json().privateKey as string;
    expect(fresh).not.toBe(old.privateKey);
    const stored = await authColumns(siteId);
    expect(stored.auth_private_key_encrypted).not.toBe(oldSealed);
    expect(stored.auth_private_key_encrypted).not.toContain(fresh);
    expect(openVisitorKey(keys, siteId, stored.auth_private_key_encrypted)).toBe(fresh);
    const read = await t.app.inject({ method: 'GET', url: authPath(siteId), headers: admin.headers });
    expect(read.json().privateKey).toBe(fresh);
    expect(read.body).not.toContain(old.privateKey);
  });

  it('works through the official client', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'visitor-auth' });
    const api = await client(admin);
    const read = await api.orgs.getSitePublishingAuthById(team.organization.id, siteId);
    expect(read.data.backend).toBe('custom');
    const updated = await api.orgs.updateSitePublishingAuthById(team.organization.id, siteId, {
      backend: 'custom',
      fallbackURL: 'https://fallback.example',
    });
    expect(updated.data).toMatchObject({ privateKey: read.data.privateKey, fallbackURL: 'https://fallback.example' });
    const regenerated = await api.orgs.regenerateSitePublishingAuthById(team.organization.id, siteId);
    expect(regenerated.data.privateKey).not.toBe(read.data.privateKey);
  });

  it('refuses bad bodies with a 400 naming the field, changing nothing', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'visitor-auth' });
    await t.app.inject({
      method: 'PATCH',
      url: authPath(siteId),
      headers: admin.headers,
      payload: { backend: 'custom', fallbackURL: 'https://keep.example' },
    });
    const before = await authColumns(siteId);
    const cases: Array<[object, string]> = [
      [{}, 'body/backend is required'],
      [{ fallbackURL: 'https://a.example' }, 'body/backend is required'],
      [{ backend: 'saml' }, 'body/backend must be one of'],
      [{ backend: 'custom', fallbackURL: 'not a url' }, 'body/fallbackURL'],
      [{ backend: 'custom', fallbackURL: 'javascript:alert(1)' }, 'body/fallbackURL'],
      [{ backend: 'custom', fallbackURL: `https://a.example/${'x'.repeat(2048)}` }, 'body/fallbackURL'],
      [{ backend: 'custom', privateKey: 'mine' }, 'body/privateKey is not an accepted field'],
    ];
    for (const [payload, message] of cases) {
      const res = await t.app.inject({ method: 'PATCH', url: authPath(siteId), headers: admin.headers, payload });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    expect(await authColumns(siteId)).toEqual(before);
  });

  it('is for admins only, reads included: members get a 403, guests and non-members a 404', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'visitor-auth' });
    const before = await authColumns(siteId);
    const stranger = await t.factory.account();
    const requests: Array<{ method: 'GET' | 'POST' | 'PATCH'; url: string; payload?: object }> = [
      { method: 'GET', url: authPath(siteId) },
      { method: 'PATCH', url: authPath(siteId), payload: { backend: 'integration' } },
      { method: 'POST', url: `${authPath(siteId)}/regenerate` },
    ];
    const callers: Array<[Account, number]> = [
      [team.member('read'), 403],
      [team.member('edit'), 403],
      [team.member(null), 404],
      [stranger, 404],
    ];
    for (const request of requests) {
      for (const [account, status] of callers) {
        const res = await t.app.inject({ ...request, headers: account.headers });
        expect(res.statusCode, `${request.method} ${status}`).toBe(status);
        expect(res.body).not.toContain(openVisitorKey(keys, siteId, before.auth_private_key_encrypted));
      }
    }
    expect(await authColumns(siteId)).toEqual(before);
    const unknown = await t.app.inject({ method: 'GET', url: authPath('unknown'), headers: admin.headers });
    expect(unknown.statusCode).toBe(404);
  });

  it('needs the site:auth scopes', async () => {
    const { id: siteId } = await insertSite(t.db, team.organization.id, { visibility: 'visitor-auth' });
    const siteReader = await t.factory.token(admin.user.id, { scopes: ['site:read', 'site:write'] });
    expect((await t.app.inject({ method: 'GET', url: authPath(siteId), headers: siteReader.headers })).statusCode).toBe(
      403,
    );
    const authReader = await t.factory.token(admin.user.id, { scopes: ['site:auth:read'] });
    expect((await t.app.inject({ method: 'GET', url: authPath(siteId), headers: authReader.headers })).statusCode).toBe(
      200,
    );
    const regenerate = await t.app.inject({
      method: 'POST',
      url: `${authPath(siteId)}/regenerate`,
      headers: authReader.headers,
    });
    expect(regenerate.statusCode).toBe(403);
  });
});
