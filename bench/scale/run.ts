/**
 * `npm run bench:scale`: one organization at the size of issue 39 (1,000,000
 * pages in 1,000 spaces, one of 10,000 pages; 200,000 members), seeded into
 * a throwaway database (seed.ts), served by the service started as `npm
 * start` starts it, in a process of its own, and measured from outside with
 * autocannon against each figure's target; its memory is sampled throughout.
 *
 *   BENCH_DATABASE_URL   the server to create the throwaway database on (else as bench/database.ts finds one)
 *   SCALE_DATABASE_URL   an already seeded database (a kept one) to measure again, without seeding
 *   SCALE_KEEP_DATABASE  `true` keeps the seeded database afterwards (its URL is logged)
 *   SCALE_DURATION       seconds measured per read (default 15), after SCALE_WARMUP seconds (default 10)
 *   SCALE_CONNECTIONS    concurrent connections (default 8)
 *   SCALE_MERGES         change requests merged per space (default 15)
 *   SCALE_PAGES, SCALE_SPACES, SCALE_MEMBERS, SCALE_BIG_SPACE_PAGES   a smaller organization, for a trial
 *   SCALE_ONLY           only the reads whose name contains this
 *   SCALE_FROM_SOURCES   `true` runs the service with tsx from src/ rather than building dist/ (its loader adds to the RSS)
 *   SCALE_SERVICE_NODE_OPTIONS   Node.js options of the service (default `--max-old-space-size=336`, an instance given 512 MiB)
 *   SCALE_SERVICE_LOG    a file to keep the service's standard output in
 *   MALLOC_ARENA_MAX     passed on to the service (glibc's malloc arenas), where set
 *
 * Progress goes to stderr; stdout carries the table and a `SCALE_RESULT {json}` line.
 */
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/core/clock.js';
import { createDatabase, type Db } from '../../src/db/database.js';
import { createApiToken } from '../../src/users/api-token-queries.js';
import { testConfig } from '../../test/support/app.js';
import { createBenchDatabase, type BenchDatabase } from '../database.js';
import { measureMerges, type MergeMeasurement } from '../merge.js';
import { load, type LoadResult } from './load.js';
import { FIRST_NAMES, LAST_NAMES, MEMBER_SEARCH_COMMON, MEMBER_SEARCH_RARE, scaleSizes, SEARCH_TERM } from './plan.js';
import { seededCounts, seedScale } from './seed.js';
import { sampleMax, serviceNodeOptions, startService, type ServiceProcess } from './service.js';

const log = (message: string) => process.stderr.write(`[scale] ${message}\n`);

function env(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

const MIB = 1024 * 1024;
const TARGETS = {
  pageRead: 20,
  spaceSearch: 50,
  organizationSearch: 150,
  tree: 150,
  memberSearch: 50,
  merge: 200,
  rssMiB: 512,
};

interface Read {
  name: string;
  /** The p99 it should stay under, in ms; none for a figure shown for comparison only. */
  target: number | undefined;
  paths: string[];
  /** What the first answer must show, or a problem. */
  check: (body: unknown) => string | undefined;
  /** Sent in place of the load's usual headers. */
  headers?: Record<string, string>;
  /** A body of megabytes (see load). */
  largeBody?: boolean;
}

interface Ids {
  organizationId: string;
  authorization: string;
  bigSpaceId: string;
  spaceId: string;
}

let database: BenchDatabase | undefined;
let service: ServiceProcess | undefined;
let cleaning: Promise<void> | undefined;
/** Set once the seed is whole: a half-seeded database is dropped even when asked to keep it. */
let seeded = false;

function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    await service?.stop().catch((error: unknown) => log(`stopping the service failed: ${String(error)}`));
    if (database && seeded && process.env.SCALE_KEEP_DATABASE === 'true') {
      await database.keep();
      log(`kept ${database.url}; drop it yourself when done`);
    } else if (database) {
      await database.drop();
      log(`dropped ${database.name}`);
    }
  })());
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

const countPages = (pages: unknown): number =>
  Array.isArray(pages)
    ? pages.reduce<number>((sum, page: { pages?: unknown }) => sum + 1 + countPages(page.pages ?? []), 0)
    : 0;

async function getJson(base: string, path: string, authorization: string): Promise<{ body: unknown; bytes: number }> {
  const response = await fetch(base + path, { headers: { authorization } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return { body: JSON.parse(text) as unknown, bytes: Buffer.byteLength(text) };
}

async function seedOrReuse(): Promise<{ url: string; ids: Ids; seed?: Awaited<ReturnType<typeof seedScale>> }> {
  const reuse = process.env.SCALE_DATABASE_URL;
  if (reuse) {
    const db = createDatabase({ url: reuse, poolSize: 2 });
    try {
      const organization = await db
        .selectFrom('organizations')
        .select('id')
        .where('title', '=', 'Scale organization')
        .executeTakeFirstOrThrow();
      const admin = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'scale-admin@scale.example')
        .executeTakeFirstOrThrow();
      const spaces = await db
        .selectFrom('spaces')
        .select(['id', 'title'])
        .where('organization_id', '=', organization.id)
        .orderBy('position')
        .execute();
      const { token } = await createApiToken(db, systemClock, { userId: admin.id, label: 'scale bench again' });
      const seeded = spaces.filter((space) => space.title !== 'Prototype pages');
      return {
        url: reuse,
        ids: {
          organizationId: organization.id,
          authorization: `Bearer ${token}`,
          bigSpaceId: seeded[0]!.id,
          spaceId: seeded[Math.floor(seeded.length / 2)]!.id,
        },
      };
    } finally {
      await db.destroy();
    }
  }
  database = await createBenchDatabase((handle) => (database = handle));
  log(`database ${database.name} (${database.source})`);
  const app = await buildApp(testConfig(database.url));
  await app.ready();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    const seed = await seedScale(app, pool, scaleSizes());
    log(`seeded: ${JSON.stringify(await seededCounts(app, seed.organizationId))}`);
    seeded = true;
    return { url: database.url, ids: seed, seed };
  } finally {
    await pool.end();
    await app.close();
  }
}

async function leafPages(db: Db, spaceId: string, count: number): Promise<string[]> {
  const { rows } = await sql<{ page_id: string }>`
    select pv.page_id from page_versions pv
    where pv.space_id = ${spaceId}
      and not exists (select 1 from page_versions c where c.space_id = pv.space_id and c.parent_page_id = pv.page_id)
    order by pv.position, pv.page_id limit ${count}`.execute(db);
  return rows.map((row) => row.page_id);
}

async function main(): Promise<void> {
  const settings = {
    connections: env('SCALE_CONNECTIONS', 8),
    durationS: env('SCALE_DURATION', 15),
    // Long enough for a service just started to have read the hot spaces' trees and compiled its read path once:
    // on a machine a third as fast as another, 3 s covered less than half of the first read's pages.
    warmupS: env('SCALE_WARMUP', 10),
  };
  const merges = env('SCALE_MERGES', 15);
  const startedAt = new Date();
  const { url, ids, seed } = await seedOrReuse();
  const disk = execFileSync('df', ['-h', '/work']).toString().trim().split('\n').at(-1)!;
  log(`disk: ${disk}`);

  service = await startService(url, log, process.env.SCALE_FROM_SOURCES === 'true');
  const db = createDatabase({ url, poolSize: 2 });
  // What Node's fetch (the official client's transport) and browsers send: a client that takes gzip gets the
  // prepared gzip form of an answer that has one (a page tree), every other answer as it is.
  const headers = { authorization: ids.authorization, 'accept-encoding': 'gzip, deflate' };
  const { rows: sample } = await sql<{ space_id: string; page_id: string }>`
    select space_id, page_id from page_versions tablesample system (1) repeatable (39)
    where organization_id = ${ids.organizationId} limit 5000`.execute(db);
  const pagePaths = sample
    .sort((a, b) => (a.page_id < b.page_id ? -1 : 1))
    .map((row) => `/v1/spaces/${row.space_id}/content/page/${row.page_id}`);
  // Readers of an organization read some spaces far more than others: pages of 100 spaces, whose trees the
  // service keeps, beside pages of every space in turn, most of whose trees it must read again each time.
  const hotSpaces = new Set([...new Set(sample.map((row) => row.space_id))].slice(0, 100));
  const hotPaths = pagePaths.filter((path) => hotSpaces.has(path.split('/')[3]!));
  const search = (query: string) => `query=${encodeURIComponent(query)}`;
  // Each a search of its own, which no kept answer serves: "Nina Okafor", about fifteen members each.
  const namePaths = FIRST_NAMES.flatMap((first, i) =>
    LAST_NAMES.filter((_, j) => j % 7 === i % 7).map(
      (last) => `/v1/orgs/${ids.organizationId}/members?search=${encodeURIComponent(`${first} ${last}`)}`,
    ),
  );
  const reads = (
    [
      {
        name: `page read (${hotPaths.length} pages of ${hotSpaces.size} spaces, in turn)`,
        target: TARGETS.pageRead,
        paths: hotPaths,
        check: (body) => ((body as { id?: string }).id ? undefined : 'no page'),
      },
      {
        name: `page read (${pagePaths.length} pages of every space, in turn)`,
        target: TARGETS.pageRead,
        paths: pagePaths,
        check: (body) => ((body as { id?: string }).id ? undefined : 'no page'),
      },
      {
        name: 'page tree of the big space',
        target: TARGETS.tree,
        paths: [`/v1/spaces/${ids.bigSpaceId}/content/pages`],
        largeBody: true,
        check: (body) => {
          const n = countPages((body as { pages: unknown }).pages);
          return n === (seed ? scaleSizes().bigSpacePages : n) ? undefined : `${n} pages`;
        },
      },
      {
        name: 'page tree of the big space, to a client that takes no gzip',
        target: undefined,
        paths: [`/v1/spaces/${ids.bigSpaceId}/content/pages`],
        headers: { authorization: ids.authorization },
        largeBody: true,
        check: () => undefined,
      },
      {
        name: `space search "${SEARCH_TERM}" (big space)`,
        target: TARGETS.spaceSearch,
        paths: [`/v1/spaces/${ids.bigSpaceId}/search?${search(SEARCH_TERM)}`],
        check: (body) => ((body as { count: number }).count > 0 ? undefined : 'nothing found'),
      },
      {
        name: `space search "${SEARCH_TERM}" (a space of ~990 pages)`,
        target: TARGETS.spaceSearch,
        paths: [`/v1/spaces/${ids.spaceId}/search?${search(SEARCH_TERM)}`],
        check: (body) => ((body as { count: number }).count > 0 ? undefined : 'nothing found'),
      },
      {
        name: `organization search "${SEARCH_TERM}"`,
        target: TARGETS.organizationSearch,
        paths: [`/v1/orgs/${ids.organizationId}/search?${search(SEARCH_TERM)}`],
        check: (body) => ((body as { count: number }).count > 0 ? undefined : 'nothing found'),
      },
      {
        name: `member search "${MEMBER_SEARCH_COMMON}" (a last name)`,
        target: TARGETS.memberSearch,
        paths: [`/v1/orgs/${ids.organizationId}/members?search=${encodeURIComponent(MEMBER_SEARCH_COMMON)}`],
        check: (body) => ((body as { items: unknown[] }).items.length > 0 ? undefined : 'nobody found'),
      },
      {
        name: `member search by full name (${namePaths.length} names in turn)`,
        target: TARGETS.memberSearch,
        paths: namePaths,
        check: (body) => ((body as { items: unknown[] }).items.length > 0 ? undefined : 'nobody found'),
      },
      {
        name: `member search "${MEMBER_SEARCH_RARE}" (an e-mail's number)`,
        target: TARGETS.memberSearch,
        paths: [`/v1/orgs/${ids.organizationId}/members?search=${encodeURIComponent(MEMBER_SEARCH_RARE)}`],
        check: (body) => ((body as { items: unknown[] }).items.length > 0 ? undefined : 'nobody found'),
      },
    ] satisfies Read[]
  ).filter((read) => !process.env.SCALE_ONLY || read.name.includes(process.env.SCALE_ONLY));

  const memory = sampleMax(() => service!.rss());
  const results: Array<{
    name: string;
    target: number | undefined;
    result: LoadResult;
    rssMiB: number;
    counts?: string;
  }> = [];
  for (const read of reads) {
    const during = sampleMax(() => service!.rss());
    const { body: first, bytes } = await getJson(service.base, read.paths[0]!, ids.authorization);
    const problem = read.check(first);
    if (problem) throw new Error(`${read.name}: ${problem}`);
    log(`${read.name} (${bytes} bytes)…`);
    const result = await load(service.base, read.paths, read.headers ?? headers, settings, read.largeBody);
    const rssMiB = Math.round((await during.stop()).max / MIB);
    log(`${read.name}: p99 ${result.p99Ms} ms over ${result.requests} requests, RSS up to ${rssMiB} MiB`);
    const count = (first as { count?: number }).count;
    results.push({
      name: read.name,
      target: read.target,
      result,
      rssMiB,
      ...(count !== undefined ? { counts: `${count} found` } : {}),
    });
  }

  const merged: MergeMeasurement[] = [];
  if (!process.env.SCALE_ONLY || 'merge'.includes(process.env.SCALE_ONLY)) {
    for (const [label, spaceId] of [
      ['big space', ids.bigSpaceId],
      ['space of ~990 pages', ids.spaceId],
    ] as const) {
      log(`merges in the ${label}…`);
      const leafPageIds = await leafPages(db, spaceId, merges);
      merged.push(
        await measureMerges(
          db,
          service.base,
          ids.authorization,
          { spaceId, pages: 0, leafPageId: leafPageIds[0]!, leafPageIds, mergedChangeRequestId: '' },
          `merge (${label})`,
          merges,
        ),
      );
    }
  }
  const rss = await memory.stop();
  await db.destroy();

  const rows = [
    ...results.map(({ name, target, result, counts }) => ({
      name,
      figure: `p99 ${result.p99Ms} ms (p50 ${result.p50Ms}, max ${result.maxMs}; ${result.requests} requests, ${Math.round(result.requestsPerSecond)}/s${counts ? `; ${counts}` : ''})`,
      target: target === undefined ? '(compared)' : `p99 < ${target} ms`,
      meets: target === undefined ? undefined : result.p99Ms < target,
    })),
    ...merged.map((m) => ({
      name: m.label,
      figure: `median ${m.mergeMs.medianMs.toFixed(1)} ms, max ${m.mergeMs.maxMs.toFixed(1)} ms (${m.cycles} merges)`,
      target: `< ${TARGETS.merge} ms`,
      meets: m.mergeMs.medianMs < TARGETS.merge,
    })),
    {
      name: `memory of the instance (RSS, largest sample; node ${serviceNodeOptions() || 'without options'})`,
      figure: `${Math.round(rss.max / MIB)} MiB (${rss.samples} samples)`,
      target: `< ${TARGETS.rssMiB} MiB`,
      meets: rss.max / MIB < TARGETS.rssMiB,
    },
  ];
  const width = Math.max(...rows.map((row) => row.name.length));
  const figureWidth = Math.max(...rows.map((row) => row.figure.length));
  process.stdout.write(
    rows
      .map(
        (row) =>
          `${row.name.padEnd(width)}  ${row.figure.padEnd(figureWidth)}  ${row.target.padEnd(14)}  ${row.meets === undefined ? '' : row.meets ? 'meets' : 'MISSES'}\n`,
      )
      .join(''),
  );
  const result = {
    date: startedAt.toISOString(),
    machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100) },
    settings: { ...settings, merges, sizes: seed ? scaleSizes() : 'reused database' },
    seed: seed && { seconds: seed.timings, databaseBytes: seed.databaseBytes },
    disk,
    reads: results.map(({ name, target, result, rssMiB }) => ({ name, targetMs: target ?? null, ...result, rssMiB })),
    merges: merged.map((m) => ({ label: m.label, mergeMs: m.mergeMs, cycleMs: m.cycleMs })),
    rssMiB: Math.round(rss.max / MIB),
    meetsAll: rows.every((row) => row.meets !== false),
  };
  process.stdout.write(`SCALE_RESULT ${JSON.stringify(result)}\n`);
}

try {
  await main();
} catch (error: unknown) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
} finally {
  await cleanup();
}
