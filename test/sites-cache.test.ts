import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ScopedCache } from '../src/core/scoped-cache.js';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';

const t = useTestApp();

describe('ScopedCache', () => {
  it('serves an entry for its time to live, and not a millisecond longer', () => {
    let now = 5_000;
    const cache = new ScopedCache(1000, 1 << 20, () => now);
    cache.set('site', 'a', Buffer.from('one'), cache.generationOf('site'));
    expect(cache.get('site', 'a')?.toString()).toBe('one');
    now = 6_000;
    expect(cache.get('site', 'a')?.toString()).toBe('one');
    now = 6_001;
    expect(cache.get('site', 'a')).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
  });

  it('drops a scope’s entries on invalidate, and refuses a value computed before it', () => {
    const cache = new ScopedCache(1000, 1 << 20, () => 0);
    const before = cache.generationOf('site');
    cache.set('site', 'a', Buffer.from('old'), before);
    cache.set('other', 'a', Buffer.from('kept'), cache.generationOf('other'));
    cache.invalidate('site');
    expect(cache.get('site', 'a')).toBeUndefined();
    expect(cache.get('other', 'a')?.toString()).toBe('kept');
    // Read before the change, stored after it: not kept.
    cache.set('site', 'a', Buffer.from('stale'), before);
    expect(cache.get('site', 'a')).toBeUndefined();
  });

  it('holds at most its capacity, letting the oldest go first', () => {
    const cache = new ScopedCache(1000, 10, () => 0);
    cache.set('s', 'a', Buffer.alloc(4), 0);
    cache.set('s', 'b', Buffer.alloc(4), 0);
    cache.set('s', 'c', Buffer.alloc(4), 0);
    expect(cache.get('s', 'a')).toBeUndefined();
    expect(cache.get('s', 'b')).toBeDefined();
    expect(cache.get('s', 'c')).toBeDefined();
    cache.set('s', 'huge', Buffer.alloc(11), 0);
    expect(cache.get('s', 'huge')).toBeUndefined();
  });

  it('remembers a bounded number of scopes, and forgetting them keeps nothing stale', () => {
    const cache = new ScopedCache(1000, 1 << 20, () => 0, 3);
    for (const scope of ['a', 'b', 'c']) cache.invalidate(scope);
    cache.invalidate('a');
    const before = cache.generationOf('a');
    cache.set('a', 'k', Buffer.from('kept'), before);
    expect(cache.stats().scopes).toBe(3);
    // A fourth scope: every scope is forgotten, with every entry.
    cache.invalidate('d');
    expect(cache.stats().scopes).toBe(1);
    expect(cache.get('a', 'k')).toBeUndefined();
    // A value computed before the forgetting is not kept after it.
    cache.set('a', 'k', Buffer.from('stale'), before);
    expect(cache.get('a', 'k')).toBeUndefined();
    cache.set('a', 'k', Buffer.from('fresh'), cache.generationOf('a'));
    expect(cache.get('a', 'k')?.toString()).toBe('fresh');
  });

  it('keeps nothing with a time to live of 0', () => {
    const cache = new ScopedCache(0, 1 << 20, () => 0);
    cache.set('s', 'a', Buffer.from('x'), 0);
    expect(cache.get('s', 'a')).toBeUndefined();
  });
});

describe('a site’s published structure, kept a moment', () => {
  let now = Date.parse('2026-06-01T00:00:00.000Z');
  const clock = { now: () => new Date(now) };
  let cached: FastifyInstance;
  /** With no answer store (ANSWER_STORE_BYTES=0): only the short-lived cache keeps the site. */
  let unkept: FastifyInstance;
  let other: FastifyInstance;

  beforeAll(async () => {
    cached = await buildOwnApp(testConfig(t.database.url, { siteCacheTtlMs: 2_000 }), { clock });
    unkept = await buildOwnApp(testConfig(t.database.url, { siteCacheTtlMs: 2_000, answerStoreBytes: 0 }), { clock });
    other = await buildOwnApp(testConfig(t.database.url));
    await Promise.all([cached.ready(), unkept.ready(), other.ready()]);
  });
  afterAll(async () => {
    await Promise.all([cached?.close(), unkept?.close(), other?.close()]);
  });

  async function publishedSite(admin: Account) {
    const organization = await t.factory.organization(admin.user.id);
    const call = (app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
      app.inject({ method, url: `/v1${url}`, headers: admin.headers, ...(payload ? { payload } : {}) });
    const space = (await call(cached, 'POST', `/orgs/${organization.id}/spaces`, { title: 'Guide' })).json<{
      id: string;
    }>().id;
    const site = (
      await call(cached, 'POST', `/orgs/${organization.id}/sites`, { title: 'Docs', spaces: [space] })
    ).json<{ id: string }>().id;
    await call(cached, 'POST', `/orgs/${organization.id}/sites/${site}/publish`);
    const base = `/orgs/${organization.id}/sites/${site}`;
    const title = async (app: FastifyInstance) =>
      (await call(app, 'GET', `${base}/published`)).json<{ site: { title: string } }>().site.title;
    return { call, base, space, title };
  }

  it('shows a change made on this instance at once', async () => {
    const admin = await t.factory.account();
    const { call, base, title } = await publishedSite(admin);
    expect(await title(cached)).toBe('Docs');
    await call(cached, 'PATCH', base, { title: 'Handbook' });
    expect(await title(cached)).toBe('Handbook');
  });

  it('shows a caller with a token a change made on another instance at once: the answer is kept under the organization’s version', async () => {
    const admin = await t.factory.account();
    const { call, base, space, title } = await publishedSite(admin);
    // The published site holds its structure under `structure`; the structure route answers it alone.
    const firstSpace = async (path: 'published' | 'structure') => {
      const body = (await call(cached, 'GET', `${base}/${path}`)).json<{ structure: unknown }>();
      const structure = path === 'published' ? (body.structure as { structure: unknown }).structure : body.structure;
      return (structure as Array<{ space: { title: string } }>)[0]!.space.title;
    };
    expect(await title(cached)).toBe('Docs');
    expect(await firstSpace('structure')).toBe('Guide');
    const before = cached.httpCache.stats();
    expect(await title(cached)).toBe('Docs');
    expect(cached.httpCache.stats().hits).toBe(before.hits + 1);
    await call(other, 'PATCH', base, { title: 'Handbook' });
    await call(other, 'PATCH', `/spaces/${space}`, { title: 'Renamed' });
    // Read again from the database, not from the short-lived cache, which still holds the site as it was.
    expect(await title(cached)).toBe('Handbook');
    expect(await firstSpace('published')).toBe('Renamed');
    expect(await firstSpace('structure')).toBe('Renamed');
  });

  it('shows a change made on another instance once the time to live is up, where no answer is kept', async () => {
    const admin = await t.factory.account();
    const { call, base, space } = await publishedSite(admin);
    const read = async () =>
      (await call(unkept, 'GET', `${base}/published`)).json<{
        site: { title: string };
        structure: { structure: Array<{ space: { title: string } }> };
      }>();
    expect((await read()).site.title).toBe('Docs');
    await call(other, 'PATCH', base, { title: 'Handbook' });
    await call(other, 'PATCH', `/spaces/${space}`, { title: 'Renamed' });
    expect((await read()).site.title).toBe('Docs');
    now += 2_000;
    expect((await read()).site.title).toBe('Docs');
    now += 1;
    const after = await read();
    expect(after.site.title).toBe('Handbook');
    expect(after.structure.structure[0]!.space.title).toBe('Renamed');
  });

  it('checks who may see it on every request, cached or not', async () => {
    const admin = await t.factory.account();
    const stranger = await t.factory.account();
    const { call, base } = await publishedSite(admin);
    const asStranger = () => cached.inject({ method: 'GET', url: `/v1${base}/published`, headers: stranger.headers });
    expect((await asStranger()).statusCode).toBe(200);
    await call(other, 'POST', `${base}/unpublish`);
    expect((await asStranger()).statusCode).toBe(404);
  });
});
