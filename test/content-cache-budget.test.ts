import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentCacheBounds } from '../src/content/store.js';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import { countStatements } from './support/statements.js';

const MIB = 1024 * 1024;
/** What contentCacheBounds counts a kept tree's page or file as. */
const TREE_ITEM_BYTES = 400;

describe('contentCacheBounds', () => {
  it('shares the budget among the caches without going past it', () => {
    for (const budget of [1 * MIB, 128 * MIB, 256 * MIB, 4096 * MIB]) {
      const bounds = contentCacheBounds(budget);
      const characters =
        bounds.markdownCharacters +
        bounds.fragmentCharacters +
        bounds.documentCharacters +
        bounds.factCharacters +
        bounds.answerCharacters;
      expect(bounds.treeItems * TREE_ITEM_BYTES + characters + bounds.bodyBytes).toBeLessThanOrEqual(budget);
      expect(bounds.treeItems * TREE_ITEM_BYTES + characters + bounds.bodyBytes).toBeGreaterThan(budget * 0.99);
    }
  });

  it('keeps the 10,000-page tree of the scale bench (15 MB, weighed 1.25 times) within the default budget', () => {
    expect(contentCacheBounds(256 * MIB).bodyBytes).toBeGreaterThan(15 * MIB * 1.25);
    // About 235,000 pages and files of kept trees: the scale bench's 100 most read spaces hold 100,000.
    expect(contentCacheBounds(256 * MIB).treeItems).toBeGreaterThan(150_000);
  });
});

describe('CONTENT_CACHE_BYTES', () => {
  const t = useTestApp();
  const api = contentApi(() => t.app);
  let small: FastifyInstance;

  beforeAll(async () => {
    // Far below the setting's own minimum: every cache holds one entry or none, so each read loads again.
    small = await buildOwnApp(testConfig(t.database.url, { contentCacheBytes: 4096 }));
    await small.ready();
  });
  afterAll(async () => {
    await small?.close();
  });

  /** A new team's space of `count` pages titled `Page <n>`, each with `markdownOf(n)`. */
  async function spaceOfPages(title: string, count: number, markdownOf: (index: number) => string) {
    const team = await t.factory.team();
    const space = await api.createSpace(team.admin, team.organization.id, { title });
    await api.change(
      team.admin,
      space.id,
      Array.from({ length: count }, (_, index) => ({
        operation: 'insert_page',
        title: `Page ${index}`,
        document: { markdown: markdownOf(index) },
      })),
    );
    return { team, space };
  }

  it('changes what an instance keeps, never what it answers', async () => {
    const { team, space } = await spaceOfPages(
      'Kept or not',
      12,
      (index) => `# Page ${index}\n\n${'Some words to keep. '.repeat(200)}\n`,
    );
    const read = (app: FastifyInstance, url: string) =>
      app.inject({ method: 'GET', url, headers: team.admin.headers }).then((response) => {
        expect(response.statusCode).toBe(200);
        return response.body;
      });
    const tree = await read(t.app, `/v1/spaces/${space.id}/content/pages`);
    const pageIds = (JSON.parse(tree) as { pages: Array<{ id: string }> }).pages.map((page) => page.id);
    expect(pageIds).toHaveLength(12);

    for (const round of [1, 2]) {
      expect(await read(small, `/v1/spaces/${space.id}/content/pages`), `round ${round}`).toBe(tree);
      for (const pageId of pageIds) {
        for (const query of ['', '?format=markdown']) {
          const url = `/v1/spaces/${space.id}/content/page/${pageId}${query}`;
          expect(await read(small, url), `${url}, round ${round}`).toBe(await read(t.app, url));
        }
      }
    }

    const keptBy = (app: FastifyInstance) => app.context.content.cacheSizes();
    const smallSizes = keptBy(small);
    const defaultSizes = keptBy(t.app);
    // The default instance kept all twelve pages' markdown; the small one, within its bound, at most one.
    expect(defaultSizes.markdown!.entries).toBeGreaterThanOrEqual(12);
    expect(smallSizes.markdown!.entries).toBeLessThanOrEqual(1);
    for (const [name, size] of Object.entries(smallSizes)) {
      expect(size.weight, name).toBeLessThanOrEqual(size.capacity);
    }
  });

  it('serves a kept page answer without reading its tree again, when the tree is too large to keep', async () => {
    // Trees of at most 35 pages and files are kept, 3,200 characters of page answers: a 40-page space's tree
    // never is, as in an organization whose readers spread over more spaces than the cache holds trees of.
    expect(contentCacheBounds(40_000)).toMatchObject({ treeItems: 35, answerCharacters: 3_200 });
    const instance = await buildOwnApp(testConfig(t.database.url, { contentCacheBytes: 40_000, answerStoreBytes: 0 }));
    try {
      const { team, space } = await spaceOfPages('Spread out', 40, (index) => `Page ${index}.`);
      const pages = await instance.inject({
        method: 'GET',
        url: `/v1/spaces/${space.id}/content/pages`,
        headers: team.admin.headers,
      });
      const pageId = (pages.json() as { pages: Array<{ id: string }> }).pages[7]!.id;
      const read = () =>
        instance.inject({
          method: 'GET',
          url: `/v1/spaces/${space.id}/content/page/${pageId}`,
          headers: team.admin.headers,
        });
      const treeReads = (statements: string[]) => statements.filter((text) => text.includes('tree_entries')).length;

      const first = await countStatements(read);
      expect(first.result.statusCode).toBe(200);
      expect(first.result.json()).toMatchObject({ id: pageId, title: 'Page 7' });
      expect(treeReads(first.statements)).toBeGreaterThan(0);
      const again = await countStatements(read);
      expect(again.result.body).toBe(first.result.body);
      expect(treeReads(again.statements)).toBe(0);
      // The tree itself is still not kept: the page list reads it again.
      const list = await countStatements(() =>
        instance.inject({ method: 'GET', url: `/v1/spaces/${space.id}/content/pages`, headers: team.admin.headers }),
      );
      expect(treeReads(list.statements)).toBeGreaterThan(0);
    } finally {
      await instance.close();
    }
  });
});

describe('the memory settings’ defaults', () => {
  it('follow the heap limit an instance is given: content 40 % of it, answers 10 %', async () => {
    // In a process of its own: the defaults are read from its heap limit when the config module loads.
    const script = `
      import { getHeapStatistics } from 'node:v8';
      import { loadConfig } from './src/config.js';
      const { contentCacheBytes, answerStoreBytes } = loadConfig({ DATABASE_URL: 'postgres://unused' });
      console.log(JSON.stringify({ limit: getHeapStatistics().heap_size_limit, contentCacheBytes, answerStoreBytes }));`;
    const read = async (options: string[]) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [...options, '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: new URL('..', import.meta.url).pathname },
      );
      return JSON.parse(stdout) as { limit: number; contentCacheBytes: number; answerStoreBytes: number };
    };
    const limited = await read(['--max-old-space-size=200']);
    const floorMib = (share: number) => Math.floor((limited.limit * share) / MIB) * MIB;
    expect(limited.contentCacheBytes).toBe(floorMib(0.4));
    expect(limited.answerStoreBytes).toBe(floorMib(0.1));
    expect(limited.answerStoreBytes).toBeLessThan(32 * MIB);
    // A large heap: both at their most.
    const large = await read(['--max-old-space-size=4096']);
    expect(large.contentCacheBytes).toBe(256 * MIB);
    expect(large.answerStoreBytes).toBe(64 * MIB);
  });
});
