/**
 * `npm run bench -- --soak` (or `npx tsx bench/soak.ts`): seeds a modest
 * dataset in a throwaway database, serves it from this process and loads it
 * with a mix of reads and writes from a child process (soak-load.ts) for
 * SOAK_DURATION seconds. Every SOAK_INTERVAL seconds it records throughput,
 * latency and errors of the interval, and, after a forced full garbage
 * collection, this process's memory and the size of each of the service's
 * caches. It fails when the memory outside the caches grows after the
 * warm-up, when a request fails or when a cache exceeds its bound.
 *
 *   SOAK_DURATION      seconds of load (default 600)
 *   SOAK_INTERVAL      seconds between samples (default 30)
 *   SOAK_CONNECTIONS   requests in flight at all times (default 16)
 *   BENCH_DATABASE_URL as for the bench (else TEST_DATABASE_URL, Docker or embedded)
 *
 * Progress goes to stderr; stdout carries the tables, the verdict and the
 * final `SOAK_RESULT {json}` line.
 */
import { fork, type ChildProcess } from 'node:child_process';
import v8 from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { testConfig } from '../test/support/app.js';
import { createBenchDatabase, type BenchDatabase } from './database.js';
import {
  isEntryPoint,
  type FailedRequest,
  type FromLoad,
  type IntervalFigures,
  type OperationFigures,
  type ToLoad,
} from './soak-load.js';
import { seedSoak } from './soak-seed.js';

/** Memory outside the caches may grow by this much after the warm-up and still count as flat: see `flatBoundMb`. */
const FLAT_FLOOR_MB = 10;
const FLAT_SHARE = 0.05;
/** The last interval's throughput, as a share of the first measured one's, below which throughput is reported as dropping. */
const STABLE_THROUGHPUT_SHARE = 0.8;
const MB = 1024 * 1024;
const CLEANUP_TIMEOUT_MS = 15_000;

const log = (message: string) => process.stderr.write(`[soak] ${message}\n`);
const print = (text: string) => process.stdout.write(`${text}\n`);

export interface SoakSettings {
  durationS: number;
  intervalS: number;
  connections: number;
}

function positiveIntegerEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

function soakSettings(): SoakSettings {
  const settings = {
    durationS: positiveIntegerEnv('SOAK_DURATION', 600),
    intervalS: positiveIntegerEnv('SOAK_INTERVAL', 30),
    connections: positiveIntegerEnv('SOAK_CONNECTIONS', 16),
  };
  if (Math.floor(settings.durationS / settings.intervalS) < 3) {
    throw new Error('SOAK_DURATION must hold at least 3 SOAK_INTERVALs: one of warm-up, two to draw a line through');
  }
  return settings;
}

/**
 * Full garbage collections: what the heap holds after them is what is alive,
 * so samples compare. The memory of dead Buffers (`external`) is only given
 * back by a collection after the task that sweeps them has run, hence two,
 * a turn of the event loop apart. `--expose-gc` is turned on here when node
 * was not started with it (`npm run bench` does not pass it); the function
 * then exists in any new context.
 */
function forcedGc(): () => Promise<void> {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  const collect = gc;
  return async () => {
    collect();
    await sleep(0);
    collect();
  };
}

/** One cache's size at a sample, in the unit its bound is expressed in. */
export interface CacheReading {
  name: string;
  unit: string;
  entries: number;
  size: number;
  /** Null for what no configured number bounds. */
  bound: number | null;
}

/** What the content store's caches weigh their entries in (src/content/store.ts). */
const CONTENT_UNITS: Record<string, string> = {
  trees: 'pages+files',
  markdown: 'characters',
  pageFragments: 'characters',
  pageTreeBodies: 'bytes',
  documents: 'characters',
  facts: 'characters',
  revisions: 'revisions',
  reusableContentSets: 'contents',
  pageAnswers: 'characters',
};

/** Bounded caches the soak cannot read from outside, with their bounds, for the report. */
const UNREAD_CACHES = [
  'link reports (src/content/links/reports.ts): 500,000 link entries; no links route in the mix',
  'prepared statement names (src/db/prepared-pool.ts): 5,000 SQL texts, then cleared; pooled connections, which keep their statements, are renewed after 50,000 uses',
  'rate-limit counters (@fastify/rate-limit in-process store): LRU of 5,000 keys',
  'compiled list queries (comments, members, pagination): one per filter combination, a fixed set',
];

function readCaches(app: FastifyInstance): CacheReading[] {
  const readings: CacheReading[] = Object.entries(app.content.cacheSizes()).map(([name, size]) => ({
    name: `content.${name}`,
    unit: CONTENT_UNITS[name] ?? 'weight',
    entries: size.entries,
    size: size.weight,
    bound: size.capacity,
  }));
  const sites = app.context.siteStructures.stats();
  readings.push({
    name: 'siteStructures',
    unit: 'bytes',
    entries: sites.entries,
    size: sites.bytes,
    bound: sites.capacityBytes,
  });
  // One generation number per site changed since the process started, never dropped: it grows with the sites changed, not with requests.
  readings.push({
    name: 'siteStructures.scopes',
    unit: 'sites',
    entries: sites.scopes,
    size: sites.scopes,
    bound: null,
  });
  const answers = app.httpCache.stats();
  readings.push({
    name: 'httpCache',
    unit: 'bytes',
    entries: answers.entries,
    size: answers.bytes,
    bound: answers.maxBytes,
  });
  const auth = app.authCacheSizes();
  readings.push({
    name: 'auth.tokens',
    unit: 'tokens',
    entries: auth.tokens,
    size: auth.tokens,
    bound: auth.maxTokens,
  });
  readings.push({
    name: 'auth.failingAddresses',
    unit: 'addresses',
    entries: auth.failingAddresses,
    size: auth.failingAddresses,
    bound: auth.maxFailingAddresses,
  });
  return readings;
}

export interface SoakSample {
  /** Seconds since the load started. */
  atS: number;
  warmUp: boolean;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** After the forced collection. */
  heapUsedMb: number;
  heapTotalMb: number;
  rssMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  gcMs: number;
  caches: CacheReading[];
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

/**
 * The memory JavaScript holds after a full collection with the load paused:
 * the heap plus `external` (Buffers live outside the heap, and a cached page
 * tree is Buffers); all of it, and what is left once the caches are emptied.
 */
export interface Footprint {
  heapMb: number;
  externalMb: number;
  outsideCachesMb: number;
  /** What the caches held: the difference. */
  cachesMb: number;
}

/**
 * With the load paused (no request in flight), collects, reads the heap,
 * empties the content store, the site-structure cache and the kept answers (http-cache), collects again and
 * reads it again. The caches then refill, from nothing, as the load goes on.
 */
async function footprint(app: FastifyInstance, gc: () => Promise<void>): Promise<Footprint> {
  await gc();
  const { heapUsed, external } = process.memoryUsage();
  app.content.clear();
  app.context.siteStructures.clear();
  app.httpCache.clear();
  await gc();
  const after = process.memoryUsage();
  const outside = after.heapUsed + after.external;
  return {
    heapMb: heapUsed / MB,
    externalMb: external / MB,
    outsideCachesMb: outside / MB,
    cachesMb: (heapUsed + external - outside) / MB,
  };
}

/**
 * After a full collection the heap outside the caches still moves by a few MB
 * (code compiled for paths first taken late, inline caches, connections
 * renewed with their prepared statements), so growth under 10 MB is noise; on
 * a larger heap 5 % of it is. A leak of a few hundred bytes per request, at
 * the soak's rates, is far beyond either (the report says how many bytes per
 * request the bound allows).
 */
const flatBoundMb = (heapMb: number) => Math.max(FLAT_FLOOR_MB, FLAT_SHARE * heapMb);

export interface SoakVerdict {
  /** Heap and external memory outside the caches, from the end of the warm-up to the end: what must not grow. */
  outsideCachesGrowthMb: number;
  outsideCachesMbPerMinute: number;
  boundMb: number;
  /** The most a leak could add per measured request without exceeding the bound. */
  boundBytesPerRequest: number;
  memoryFlat: boolean;
  /** All of the heap after GC, least squares over the samples after the warm-up: the caches filling included. */
  heapSlopeMbPerMinute: number;
  heapGrowthMb: number;
  rssSlopeMbPerMinute: number;
  externalSlopeMbPerMinute: number;
  firstMeasuredRequestsPerSecond: number;
  lastRequestsPerSecond: number;
  throughputRatio: number;
  throughputStable: boolean;
  errors: number;
  requests: number;
  cachesWithinBounds: boolean;
  ok: boolean;
}

function judge(samples: SoakSample[], warmUpSamples: number, start: Footprint, end: Footprint): SoakVerdict {
  // After the warm-up, whose end emptied the caches: the line follows them refilling.
  const measured = samples.slice(warmUpSamples);
  const line = (pick: (sample: SoakSample) => number) =>
    slope(measured.map((sample) => [sample.atS / 60, pick(sample)] as [number, number]));
  const heapSlope = line((sample) => sample.heapUsedMb);
  const minutes = (samples.at(-1)!.atS - samples[warmUpSamples - 1]!.atS) / 60;
  const boundMb = flatBoundMb(start.outsideCachesMb);
  const outsideCachesGrowthMb = end.outsideCachesMb - start.outsideCachesMb;
  const measuredRequests = measured.reduce((sum, sample) => sum + sample.requests, 0);
  const first = measured[0]!.requestsPerSecond;
  const last = measured.at(-1)!.requestsPerSecond;
  const errors = samples.reduce((sum, sample) => sum + sample.errors, 0);
  const cachesWithinBounds = samples.every((sample) =>
    sample.caches.every((cache) => cache.bound === null || cache.size <= cache.bound),
  );
  const memoryFlat = outsideCachesGrowthMb <= boundMb;
  return {
    outsideCachesGrowthMb,
    outsideCachesMbPerMinute: outsideCachesGrowthMb / minutes,
    boundMb,
    boundBytesPerRequest: measuredRequests === 0 ? 0 : (boundMb * MB) / measuredRequests,
    memoryFlat,
    heapSlopeMbPerMinute: heapSlope,
    heapGrowthMb: heapSlope * ((measured.at(-1)!.atS - measured[0]!.atS) / 60),
    rssSlopeMbPerMinute: line((sample) => sample.rssMb),
    externalSlopeMbPerMinute: line((sample) => sample.externalMb),
    firstMeasuredRequestsPerSecond: first,
    lastRequestsPerSecond: last,
    throughputRatio: first === 0 ? 0 : last / first,
    throughputStable: first > 0 && last / first >= STABLE_THROUGHPUT_SHARE,
    errors,
    requests: samples.reduce((sum, sample) => sum + sample.requests, 0),
    cachesWithinBounds,
    ok: memoryFlat && errors === 0 && cachesWithinBounds,
  };
}

function table(header: string[], rows: string[][], alignLeft = 1): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < alignLeft ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const count = (value: number) => Math.round(value).toLocaleString('en-US');

function samplesTable(samples: SoakSample[]): string {
  return table(
    [
      't (s)',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'heap MB',
      'heap total MB',
      'rss MB',
      'external MB',
      'arrayBuffers MB',
      'gc ms',
    ],
    samples.map((sample) => [
      `${sample.atS}${sample.warmUp ? ' (warm-up)' : ''}`,
      fixed(sample.requestsPerSecond, 0),
      fixed(sample.p50Ms),
      fixed(sample.p99Ms),
      count(sample.errors),
      fixed(sample.heapUsedMb),
      fixed(sample.heapTotalMb),
      fixed(sample.rssMb),
      fixed(sample.externalMb),
      fixed(sample.arrayBuffersMb),
      fixed(sample.gcMs, 0),
    ]),
  );
}

function cachesTable(samples: SoakSample[], warmUpSamples: number): string {
  const atWarmUp = samples[warmUpSamples - 1]!.caches;
  const atEnd = samples.at(-1)!.caches;
  return table(
    ['cache', 'unit', 'bound', 'at warm-up end', 'at end', 'peak', 'peak / bound', 'entries at end'],
    atEnd.map((cache, i) => {
      const peak = Math.max(...samples.map((sample) => sample.caches[i]!.size));
      return [
        cache.name,
        cache.unit,
        cache.bound === null ? 'none' : count(cache.bound),
        count(atWarmUp[i]!.size),
        count(cache.size),
        count(peak),
        cache.bound === null ? '-' : `${fixed((100 * peak) / cache.bound)} %`,
        count(cache.entries),
      ];
    }),
    2,
  );
}

function operationsTable(operations: OperationFigures[]): string {
  return table(
    ['operation', 'kind', 'requests', 'errors', 'p50 ms', 'p99 ms'],
    operations.map((operation) => [
      operation.operation,
      operation.kind,
      count(operation.requests),
      count(operation.errors),
      fixed(operation.p50Ms),
      fixed(operation.p99Ms),
    ]),
    2,
  );
}

function verdictLines(verdict: SoakVerdict, start: Footprint, end: Footprint, warmUpS: number, endS: number): string[] {
  const mark = (ok: boolean) => (ok ? 'ok  ' : 'FAIL');
  const signed = (value: number, digits: number) => `${value >= 0 ? '+' : ''}${fixed(value, digits)}`;
  return [
    `${mark(verdict.memoryFlat)} memory: heap and external outside the caches went from ${fixed(start.outsideCachesMb)} MB at ${warmUpS} s ` +
      `to ${fixed(end.outsideCachesMb)} MB at ${endS} s, ${signed(verdict.outsideCachesGrowthMb, 1)} MB ` +
      `(${signed(verdict.outsideCachesMbPerMinute, 2)} MB/min); flat up to ${fixed(verdict.boundMb)} MB ` +
      `(the larger of ${FLAT_FLOOR_MB} MB and ${FLAT_SHARE * 100} % of it: a leak of ${count(verdict.boundBytesPerRequest)} bytes per measured request)`,
    `     whole heap after GC: ${signed(verdict.heapSlopeMbPerMinute, 2)} MB/min after the warm-up (${signed(verdict.heapGrowthMb, 1)} MB), ` +
      `the caches refilling from empty; they held ${fixed(start.cachesMb)} MB at ${warmUpS} s and ${fixed(end.cachesMb)} MB at ${endS} s`,
    `     rss ${signed(verdict.rssSlopeMbPerMinute, 2)} MB/min, external ${signed(verdict.externalSlopeMbPerMinute, 2)} MB/min ` +
      '(reported, not judged: rss holds the conversion threads and what the allocator keeps)',
    `${verdict.throughputStable ? 'ok  ' : 'warn'} throughput: ${fixed(verdict.firstMeasuredRequestsPerSecond, 0)} req/s in the first interval ` +
      `after the warm-up, ${fixed(verdict.lastRequestsPerSecond, 0)} in the last (${fixed(100 * verdict.throughputRatio, 0)} %; ` +
      `stable at ${STABLE_THROUGHPUT_SHARE * 100} % or more; reported, not judged: the machine may be shared)`,
    `${mark(verdict.errors === 0)} errors: ${count(verdict.errors)} of ${count(verdict.requests)} requests`,
    `${mark(verdict.cachesWithinBounds)} caches: ${verdict.cachesWithinBounds ? 'every one within its bound' : 'one over its bound'} at every sample`,
  ];
}

/** Sends `message` to the load; a load gone (interrupted, crashed) fails the step instead of crashing this process. */
function tell(child: ChildProcess, message: ToLoad, onError: (error: Error) => void = () => {}): void {
  child.send(message, (error) => {
    if (error) onError(error);
  });
}

/** Sends `message` and waits for the load's next message of `type`; rejects if the load exits first. */
function ask<T extends FromLoad['type']>(
  child: ChildProcess,
  message: ToLoad,
  type: T,
): Promise<Extract<FromLoad, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: FromLoad) => {
      if (reply.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(reply as Extract<FromLoad, { type: T }>);
    };
    const onExit = (code: number | null, signal: string | null) => {
      child.off('message', onMessage);
      reject(new Error(`The load process exited (${signal ?? `code ${code}`}) before answering ${message.type}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    tell(child, message, reject);
  });
}

const sleepUntil = (at: number) => sleep(Math.max(0, at - performance.now()));

let database: BenchDatabase | undefined;
let app: FastifyInstance | undefined;
let load: ChildProcess | undefined;
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    if (load && load.exitCode === null && load.signalCode === null) load.kill();
    await app?.close().catch((error: unknown) => log(`closing the app failed: ${String(error)}`));
    if (database) {
      await database.drop();
      log(`dropped ${database.name}`);
    }
  })());
}

/** Set by SIGINT/SIGTERM: what fails after it failed because cleanup pulled the app and database away. */
let interrupted = false;

/** Once: the signal comes from the terminal and again relayed by tsx. */
function onSignal(signal: NodeJS.Signals): void {
  if (interrupted) return;
  interrupted = true;
  log(`${signal}: cleaning up`);
  setTimeout(() => {
    log(
      `cleanup still running after ${CLEANUP_TIMEOUT_MS / 1000} s; exiting, ${database?.name ?? 'no database'} may remain`,
    );
    process.exit(1);
  }, CLEANUP_TIMEOUT_MS).unref();
  cleanup()
    .catch((error: unknown) => log(`cleanup failed: ${String(error)}`))
    .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}

async function soak(settings: SoakSettings): Promise<void> {
  const gc = forcedGc();
  database = await createBenchDatabase((created) => (database = created));
  log(`database ${database.name} (${database.source}), migrated`);
  app = await buildApp(
    testConfig(database.url, {
      logLevel: 'silent',
      // The limit must never be what is measured.
      rateLimit: { max: 10_000_000, windowMs: 60_000 },
      // The defaults of a running service, which the tests turn off.
      authCacheTtlMs: 5000,
      siteCacheTtlMs: 2000,
      databasePoolSize: 10,
    }),
  );
  await app.ready();
  const seedStarted = Date.now();
  const seeded = await seedSoak(app);
  log(`seeded ${seeded.tenants.length} organizations in ${Date.now() - seedStarted} ms`);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });

  const intervals = Math.floor(settings.durationS / settings.intervalS);
  const warmUpSamples = Math.ceil(intervals / 3);
  const warmUpS = warmUpSamples * settings.intervalS;
  log(
    `${settings.connections} connections for ${intervals * settings.intervalS} s, a sample every ${settings.intervalS} s, ` +
      `the first ${warmUpS} s as warm-up`,
  );

  const child = fork(new URL('./soak-load.ts', import.meta.url).pathname, [], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  load = child;
  tell(child, {
    type: 'start',
    base,
    authorization: seeded.authorization,
    tenants: seeded.tenants,
    connections: settings.connections,
  });
  const started = performance.now();
  const samples: SoakSample[] = [];
  const failures: FailedRequest[] = [];
  let start: Footprint | undefined;
  for (let i = 1; i <= intervals; i++) {
    await sleepUntil(started + i * settings.intervalS * 1000);
    // Paused while sampled: nothing in flight is counted as held, and the collection is no request's latency.
    await ask(child, { type: 'pause' }, 'paused');
    const figures: IntervalFigures = await ask(child, { type: 'sample', measured: i > warmUpSamples }, 'interval');
    const collecting = performance.now();
    await gc();
    const gcMs = performance.now() - collecting;
    const memory = process.memoryUsage();
    const sample: SoakSample = {
      atS: i * settings.intervalS,
      warmUp: i <= warmUpSamples,
      requests: figures.requests,
      requestsPerSecond: figures.requests / figures.elapsedS,
      p50Ms: figures.p50Ms,
      p99Ms: figures.p99Ms,
      errors: figures.errors,
      heapUsedMb: memory.heapUsed / MB,
      heapTotalMb: memory.heapTotal / MB,
      rssMb: memory.rss / MB,
      externalMb: memory.external / MB,
      arrayBuffersMb: memory.arrayBuffers / MB,
      gcMs,
      caches: readCaches(app),
    };
    samples.push(sample);
    if (failures.length < 10) failures.push(...figures.failures.slice(0, 10 - failures.length));
    log(
      `${sample.atS} s: ${fixed(sample.requestsPerSecond, 0)} req/s, p99 ${fixed(sample.p99Ms)} ms, ${sample.errors} errors, ` +
        `heap ${fixed(sample.heapUsedMb)} MB, rss ${fixed(sample.rssMb)} MB`,
    );
    if (i === warmUpSamples) {
      start = await footprint(app, gc);
      log(
        `end of the warm-up: heap ${fixed(start.heapMb)} MB, external ${fixed(start.externalMb)} MB; ` +
          `${fixed(start.outsideCachesMb)} MB outside the caches`,
      );
    }
    if (i < intervals) tell(child, { type: 'resume' });
  }
  const { operations } = await ask(child, { type: 'stop' }, 'summary');
  const end = await footprint(app, gc);
  log(
    `end: heap ${fixed(end.heapMb)} MB, external ${fixed(end.externalMb)} MB; ${fixed(end.outsideCachesMb)} MB outside the caches`,
  );

  const verdict = judge(samples, warmUpSamples, start!, end);
  const heap = v8.getHeapStatistics();
  print('');
  print(
    `Soak: ${intervals * settings.intervalS} s, ${settings.connections} connections, ${seeded.tenants.length} organizations ` +
      `(${database.source}); memory of the service's process after a forced full GC at each sample; heap limit ${fixed(heap.heap_size_limit / MB, 0)} MB`,
  );
  print('');
  print(samplesTable(samples));
  print('');
  print(`Requests after the warm-up (${warmUpS} s), by operation:`);
  print(operationsTable(operations));
  print('');
  print('Caches (size in their unit, at the samples):');
  print(cachesTable(samples, warmUpSamples));
  print('Bounded too, not read by the soak:');
  for (const line of UNREAD_CACHES) print(`  ${line}`);
  if (failures.length > 0) {
    print('');
    print('First failed requests:');
    for (const failure of failures) {
      print(`  ${failure.operation}: ${failure.method} ${failure.path} answered ${failure.status}: ${failure.body}`);
    }
  }
  print('');
  for (const line of verdictLines(verdict, start!, end, warmUpS, intervals * settings.intervalS)) print(line);
  print(
    `SOAK_RESULT ${JSON.stringify({
      settings,
      warmUpS,
      gc: 'two full collections a turn of the event loop apart, the load paused, before each sample (--expose-gc, turned on at run time when absent)',
      database: database.source,
      verdict,
      footprints: { warmUpEnd: start, end },
      samples,
      operations,
      failures,
    })}`,
  );
  if (!verdict.ok) process.exitCode = 1;
}

/** The soak from start to end: its own database and app, dropped whatever happens, Ctrl-C included. */
export async function runSoak(settings: SoakSettings = soakSettings()): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
  try {
    await soak(settings);
  } finally {
    await cleanup();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, onSignal);
  }
}

if (isEntryPoint(import.meta.url)) {
  await runSoak().catch((error: unknown) => {
    process.exitCode = 1;
    if (!interrupted) log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  });
}
