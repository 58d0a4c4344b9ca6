/**
 * `npm run bench`: seeds a throwaway database through the service built in
 * this process, then loads each read scenario with autocannon on the service
 * as a user runs it (`node dist/server.js`, NODE_ENV=production, a process of
 * its own: processes.ts) and on its floor (floor-server.ts, another process);
 * then times one-page change requests merged one after another (merge.ts) on
 * the in-process service, which fail the run when their median cycle misses its aim.
 *
 *   BENCH_DATABASE_URL   a server to create the throwaway database on (else TEST_DATABASE_URL, Docker or embedded)
 *   BENCH_DURATION       seconds measured per scenario, and of its floor, in turns of about 2 s (default 10)
 *   BENCH_CONNECTIONS    concurrent connections (default 16)
 *   BENCH_ONLY           only the scenarios whose name contains this (or one of `a|b|…`; `name$`: that name exactly), and the baseline
 *   BENCH_KEEP_DATABASE  `true` keeps the seeded database afterwards (its URL is logged), to look into a plan
 *   BENCH_PROCESSES      the service's PROCESSES (default 1, as the floor's one process)
 *
 * `npm run bench -- --soak` runs the soak instead (bench/soak.ts), and
 * `npm run bench -- --properties` the property-based tests of every route
 * (test/properties.test.ts) with PROPERTY_RUNS requests of each kind per
 * operation (default 200; the tests run 3).
 *
 * Progress goes to stderr; stdout carries only the table and the final
 * `BENCH_RESULT {json}` line.
 */
import type { FastifyInstance } from 'fastify';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildApp } from '../src/app.js';
import { testConfig } from '../test/support/app.js';
import { createBenchDatabase, type BenchDatabase } from './database.js';
import { measure, measureAgainstFloor, type LoadSettings } from './measure.js';
import { measureUnderAttack } from './attack.js';
import { IMPORT_BENCH_NAME, IMPORT_RUNS, IMPORT_SITE_PAGES, importTable, measureImport } from './import.js';
import { MERGE_CYCLE_AIM_MS, MERGE_CYCLES, measureMerges } from './merge.js';
import { measureReaderRender, READER_RENDER_CYCLES, readerRenderTable } from './reader-render.js';
import { GIT_REMOTE_BENCH_NAME, gitRemoteTable, measureGitRemote } from './git-remote.js';
import { GIT_SYNC_BENCH_NAME, gitSyncTable, measureGitSync } from './git-sync.js';
import { changeRequestDiffTable, DIFF_BENCH_NAME, measureChangeRequestDiff } from './change-request-diff.js';
import { EVENT_BENCH_NAME, eventDeliveryTable, measureEventDelivery } from './event-delivery.js';
import { measureSpecProcessing, SPEC_BENCH_NAME, specTable } from './specs.js';
import { startSpecWorker } from '../src/specs/worker.js';
import { report, type ScenarioResult } from './report.js';
import { BASELINE, SCENARIOS, type Scenario } from './scenarios.js';
import {
  BENCH_KEYS,
  SERVICE_PROCESSES,
  startFloorProcess,
  startServiceProcess,
  type RunningProcess,
} from './processes.js';
import { seed, type Seeded } from './seed.js';

const WARMUP_S = 2;
/** The service's default DATABASE_POOL_SIZE, which the floor's pool gets too. */
const DATABASE_POOL_SIZE = 10;

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

function positiveEnv(name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

let database: BenchDatabase | undefined;
let app: FastifyInstance | undefined;
let service: RunningProcess | undefined;
let floor: RunningProcess | undefined;
let cleaning: Promise<void> | undefined;
/** Set on SIGINT/SIGTERM: whatever fails after it failed because cleanup pulled the app and database away. */
let interrupted = false;

/** Closes the app, then drops the database; once, whichever of success, failure or a signal gets here first. */
function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    for (const child of [service, floor])
      await child?.stop().catch((error: unknown) => log(`stopping failed: ${String(error)}`));
    await app?.close().catch((error: unknown) => log(`closing the app failed: ${String(error)}`));
    if (database && process.env.BENCH_KEEP_DATABASE === 'true') {
      await database.keep();
      log(`kept ${database.url}; drop it yourself when done`);
    } else if (database) {
      await database.drop();
      log(`dropped ${database.name}`);
    }
  })());
}

/** One GET as it comes over the wire: fetch would decode a compressed body, which the floor must send as it was. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * One request before the load: a scenario that fails or returns the wrong
 * thing would be measured as if it worked. Its bytes become its floor.
 */
async function preflight(
  scenario: Scenario,
  url: string,
  headers: Record<string, string>,
  seeded: Seeded,
): Promise<{ body: Buffer; headers: Record<string, string>; etag?: string }> {
  const response = await rawGet(url, headers);
  const encoding = response.headers['content-encoding'];
  const decoded =
    encoding === 'gzip'
      ? gunzipSync(response.body)
      : encoding === 'br'
        ? brotliDecompressSync(response.body)
        : response.body;
  const text = decoded.toString('utf8');
  if (response.status !== 200)
    throw new Error(`${scenario.name}: GET ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  const json = (response.headers['content-type'] ?? '').startsWith('application/json');
  const problem = scenario.check?.(json ? (JSON.parse(text) as unknown) : text, seeded);
  if (problem) throw new Error(`${scenario.name}: ${problem}`);
  return {
    body: response.body,
    headers: {
      'content-type': response.headers['content-type'] ?? 'application/json; charset=utf-8',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    },
    ...(typeof response.headers.etag === 'string' ? { etag: response.headers.etag } : {}),
  };
}

/** The comments of a space in a new organization of its own, where the attacker posts. */
async function attackerCommentsPath(base: string, authorization: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const organization = await post('/v1/orgs', { title: 'Attacker' });
  const space = await post(`/v1/orgs/${organization.id}/spaces`, { title: 'Bombs' });
  return `/v1/spaces/${space.id}/comments`;
}

async function measureImportOnce(base: string, seeded: Seeded) {
  log(`${IMPORT_BENCH_NAME}: ${IMPORT_RUNS} imports, each into a new space`);
  // The last member organization: one no other scenario reads.
  return measureImport(base, seeded.authorization, seeded.memberOrganizationIds.at(-1)!);
}

async function main(): Promise<void> {
  const settings: LoadSettings = {
    durationS: positiveEnv('BENCH_DURATION', 10, false),
    connections: positiveEnv('BENCH_CONNECTIONS', 16, true),
    warmupS: WARMUP_S,
  };

  database = await createBenchDatabase((created) => (database = created));
  log(`database ${database.name} (${database.source}), migrated`);

  app = await buildApp(
    testConfig(database.url, {
      logLevel: 'silent',
      // The limit must never be what is measured.
      rateLimit: { max: 10_000_000, windowMs: 60_000 },
      // The service process's keys: cursors signed here are read there.
      secretKey: BENCH_KEYS.secretKey,
      encryption: { key: BENCH_KEYS.encryptionKey },
      authCacheTtlMs: 5000,
      // The defaults of a running service, which the tests turn off.
      siteCacheTtlMs: 2000,
      databasePoolSize: DATABASE_POOL_SIZE,
      // The whole bench site in one import, however long the seeded database makes the write.
      importLimits: { maxPages: IMPORT_SITE_PAGES, maxBytes: 200 * 1024 * 1024, timeoutMs: 600_000 },
    }),
  );
  await app.ready();

  const started = Date.now();
  const seeded = await seed(app);
  log(`seeded in ${Date.now() - started} ms`);
  log(`search index: ${seeded.search.bytesPerPage} bytes per merged page`);

  // The in-process service serves the writes below (merges, imports, Git); the reads are measured on the service process.
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  service = await startServiceProcess(database.url, log);
  const only = process.env.BENCH_ONLY;
  const scenarios = only
    ? SCENARIOS.filter(
        (scenario) =>
          scenario === BASELINE ||
          // `name$` names one scenario whole, where its name is the start of others' (`GET /v1/orgs/{id}$`).
          only
            .split('|')
            .some((part) => (part.endsWith('$') ? scenario.name === part.slice(0, -1) : scenario.name.includes(part))),
      )
    : SCENARIOS;
  const targets = scenarios.map((scenario) => ({
    scenario,
    path: scenario.path(seeded),
    headers: scenario.headers(seeded),
  }));
  // Every scenario is checked before any is loaded, so a broken one fails in a second, not after minutes of load.
  // Each one's bytes are its floor's; the baseline is the floor process's own route.
  const bodies = [];
  for (const target of targets) {
    const { scenario, path, headers } = target;
    const answer =
      scenario === BASELINE
        ? { body: Buffer.alloc(0), headers: {} }
        : await preflight(scenario, service.base + path, headers, seeded);
    if (scenario.revalidate) {
      if (!answer.etag) throw new Error(`${scenario.name}: the answer carries no ETag to revalidate`);
      target.headers = { ...headers, 'if-none-match': answer.etag };
      const again = await rawGet(service.base + path, target.headers);
      if (again.status !== 304) throw new Error(`${scenario.name}: If-None-Match answered ${again.status}, not 304`);
    }
    bodies.push(answer);
  }
  floor = await startFloorProcess(database.url, DATABASE_POOL_SIZE, {
    organizationId: seeded.memberOrganizationIds[0]!,
    bodies,
  });
  bodies[targets.findIndex((target) => target.scenario === BASELINE)] = await preflight(
    BASELINE,
    floor.base + BASELINE.path(seeded),
    {},
    seeded,
  );
  const baseOf = (scenario: Scenario) => (scenario === BASELINE ? floor!.base : service!.base);

  const results: ScenarioResult[] = [];
  for (const [n, { scenario, path, headers }] of targets.entries()) {
    const bytes = bodies[n]!.body.length;
    if (scenario === BASELINE) {
      log(`${scenario.name}: ${settings.warmupS} s warm-up, ${settings.durationS} s measured`);
      const measured = await measure(baseOf(scenario) + path, headers, settings);
      results.push({ scenario, path, bytes, ...measured, floor: measured, roundRatios: [1] });
      continue;
    }
    log(
      `${scenario.name}: ${settings.warmupS} s warm-up of it and its floor, then ${settings.durationS} s of each ` +
        `in turns, ${settings.connections} connections`,
    );
    const {
      endpoint,
      floor: floorMeasured,
      roundRatios,
    } = await measureAgainstFloor(
      {
        url: baseOf(scenario) + path,
        headers,
        largeBody: scenario.largeBody,
        expectedStatus: scenario.revalidate ? 304 : undefined,
      },
      { url: `${floor.base}/floor/${n}`, headers: {}, largeBody: scenario.largeBody },
      settings,
    );
    results.push({ scenario, path, bytes, ...endpoint, floor: floorMeasured, roundRatios });
  }
  // What follows runs on the in-process service, without these processes' background work beside it.
  await service.stop();
  await floor.stop();

  // Another organization's page read, alone and while one posts the markdown that once froze the service.
  log(`under attack: a page read of one organization while another posts slow markdown, ${settings.durationS} s each`);
  const attack = await measureUnderAttack(
    {
      url: `${base}/v1/spaces/${seeded.content.big.spaceId}/content/page/${seeded.content.big.leafPageId}?format=document`,
      headers: { authorization: seeded.authorization },
    },
    { url: `${base}${await attackerCommentsPath(base, seeded.authorization)}`, authorization: seeded.authorization },
    settings,
  );

  // After the load: the merges change the space the scenarios read.
  const { big, small } = seeded.content;
  const merges = [];
  for (const [space, label] of [
    [big, '5,000-page space'],
    [small, '50-page space'],
  ] as const) {
    log(`${label}: ${MERGE_CYCLES} one-page change requests, created, written and merged one after another`);
    merges.push(await measureMerges(app.context.db, base, seeded.authorization, space, label));
  }

  // What a merge costs the first reader of the page it changed.
  if (!only || 'reader'.includes(only)) {
    log(`reader: ${READER_RENDER_CYCLES} merges, each followed by two reads of the page it changed`);
    const rendered = await measureReaderRender(base, seeded.authorization, small, seeded.reader);
    process.stdout.write(`\n${readerRenderTable(rendered)}\n`);
  }

  // A website the bench serves itself, imported into new spaces: pages per second.
  const imported = only && !IMPORT_BENCH_NAME.includes(only) ? undefined : await measureImportOnce(base, seeded);
  if (imported) process.stdout.write(`\n${importTable(imported)}\n`);

  // A 5 MB OpenAPI spec the bench serves itself, processed by this instance's spec worker: time and memory.
  if (!only || SPEC_BENCH_NAME.includes(only)) {
    const specWorker = startSpecWorker(app.context, { log: app.log });
    try {
      for (const shape of ['shallow', 'linked'] as const) {
        log(`${SPEC_BENCH_NAME}: ${shape} $refs`);
        const measured = await measureSpecProcessing(
          base,
          seeded.authorization,
          seeded.memberOrganizationIds.at(-2)!,
          shape,
        );
        process.stdout.write(`\n${specTable(measured)}\n`);
      }
    } finally {
      await specWorker.stop();
    }
  }

  // A 1,000-page space cloned, pulled and pushed with the real git client.
  if (!only || GIT_REMOTE_BENCH_NAME.includes(only)) {
    const organizationId = seeded.memberOrganizationIds.at(-2)!;
    const measured = await measureGitRemote(app, base, seeded.authorization, organizationId, log);
    process.stdout.write(`\n${gitRemoteTable(measured)}\n`);
  }

  // A 1,000-page GitBook repository synced with a space: its first import, then one page changed on each side.
  if (!only || GIT_SYNC_BENCH_NAME.includes(only)) {
    const organizationId = seeded.memberOrganizationIds.at(-3)!;
    const measured = await measureGitSync(app, base, seeded.authorization, organizationId, log);
    process.stdout.write(`\n${gitSyncTable(measured)}\n`);
  }

  // What a change request touching 500 pages changes: its first read computes the diff, later ones read it back.
  if (!only || DIFF_BENCH_NAME.includes(only)) {
    const organizationId = seeded.memberOrganizationIds.at(-4)!;
    const measured = await measureChangeRequestDiff(app, base, seeded.authorization, organizationId, log);
    process.stdout.write(`\n${changeRequestDiffTable(measured)}\n`);
  }

  // Events to a signing-checking webhook: their lag under a write load, then a backlog's throughput.
  if (!only || EVENT_BENCH_NAME.includes(only)) {
    const organizationId = seeded.memberOrganizationIds.at(-5)!;
    const measured = await measureEventDelivery(app, base, seeded.authorization, organizationId, log);
    process.stdout.write(`\n${eventDeliveryTable(measured)}\n`);
  }

  report(results, merges, attack, {
    database: database.source,
    durationS: settings.durationS,
    connections: settings.connections,
    processes: SERVICE_PROCESSES,
    ...(imported ? { import: imported } : {}),
  });

  // The scenarios' aims are reported, not enforced; a slow merge cycle fails the run.
  const slow = merges.filter((merge) => !merge.meetsAim);
  if (slow.length > 0) {
    process.exitCode = 1;
    for (const merge of slow)
      log(
        `MISSED: ${merge.label}: median merge cycle ${merge.cycleMs.medianMs.toFixed(1)} ms, aim ${MERGE_CYCLE_AIM_MS} ms`,
      );
  }
}

/** The property-based tests with a long budget, on the bench's server: a run of minutes, not the tests' seconds. */
async function runProperties(): Promise<void> {
  const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const vitest = new URL('../node_modules/vitest/vitest.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [vitest, 'run', 'test/properties.test.ts'], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? '200',
      ...(server ? { TEST_DATABASE_URL: server } : {}),
    },
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`The property-based tests failed (exit ${code})`);
}

// Ctrl-C must not leave a quire_bench_* database behind (watchdog.ts covers
// the cases where this handler never runs). `on`, not `once`: the signal comes
// from the terminal and again relayed by the tsx parent, and tsx's hook in this
// process exits at once on a signal that no other listener handles.
const CLEANUP_TIMEOUT_MS = 15_000;
// The soak cleans up after itself on a signal.
const signals = process.argv.includes('--soak') ? [] : (['SIGINT', 'SIGTERM'] as const);
for (const signal of signals) {
  process.on(signal, () => {
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
  });
}

try {
  if (process.argv.includes('--soak')) await (await import('./soak.js')).runSoak();
  else if (process.argv.includes('--properties')) await runProperties();
  else await main();
} catch (error) {
  process.exitCode = 1;
  if (!interrupted) log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cleanup().catch((error: unknown) => {
    process.exitCode = 1;
    log(`could not drop ${database?.name ?? 'the database'}: ${String(error)}`);
  });
}
