import cluster from 'node:cluster';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import pg from 'pg';
import type { buildApp } from './app.js';
import { ConfigError, isProduction, loadConfig, missingKeysProblem, type Config } from './config.js';
import { DataDirInUseError, lockDataDir, type DataDirLock } from './db/data-dir-lock.js';
import { startEmbeddedPostgres, type EmbeddedCluster } from './db/embedded.js';
import { migrateToLatest } from './db/migrate.js';
import { loggerOptions } from './core/logging.js';
import type { SpecWorker } from './specs/worker.js';
import type { GitSyncWorker } from './git-sync/processor.js';
import type { PollLoop } from './core/poll-loop.js';
import type { ImportRunWorker } from './imports/processor.js';
import type { GitSyncPolling } from './git-sync/installations/polling.js';
import { startWorkers, StartFailed, type RunningWorkers } from './core/processes/primary.js';
import { WorkerChannel } from './core/processes/worker-channel.js';
import type * as ServiceModules from './service-modules.js';

/** Waits for the database at start, so the service and its database can be started together. */
async function waitForDatabase(url: string, log: Logger, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      log.warn({ attempt, reason: (error as Error).message }, 'database not reachable yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * attempt, 5_000)));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** What a start has brought up so far; a stop takes down what is there, in reverse. */
interface Running {
  lock?: DataDirLock;
  embedded?: EmbeddedCluster;
  /** A primary's workers (PROCESSES > 1), stopped before the embedded PostgreSQL they use. */
  workers?: { running: RunningWorkers; timeoutMs: number };
  app?: Awaited<ReturnType<typeof buildApp>>;
  stopPurge?: () => void;
  stopAuditPurge?: () => void;
  stopInsightsPurge?: () => void;
  stopHostnameChecks?: () => void;
  specWorker?: SpecWorker;
  gitSyncWorker?: GitSyncWorker;
  eventDeliveryWorker?: PollLoop;
  importRunWorker?: ImportRunWorker;
  gitSyncPolling?: GitSyncPolling;
  /** The search index's backfill, stopped before the database closes. */
  backfill?: { abort: AbortController; done: Promise<unknown> };
}

async function stopRunning(running: Running): Promise<void> {
  running.stopPurge?.();
  running.stopAuditPurge?.();
  running.stopInsightsPurge?.();
  running.stopHostnameChecks?.();
  // A spec job under way is put back for another instance before the database closes.
  await running.specWorker?.stop();
  // A Git Sync operation under way ends first: its claim would otherwise wait out its lease.
  await running.gitSyncWorker?.stop();
  // A delivery under way is recorded before the database closes; one cut off is sent again after its lease.
  await running.eventDeliveryWorker?.stop();
  // So does an import run: it goes on after its last recorded write wherever it is taken again.
  await running.importRunWorker?.stop();
  await running.gitSyncPolling?.stop();
  running.backfill?.abort.abort();
  await running.backfill?.done;
  await running.app?.close();
  const workersStopped = (await running.workers?.running.stop(running.workers.timeoutMs)) ?? true;
  await running.embedded?.stop();
  await running.lock?.release();
  if (!workersStopped) throw new Error('a worker did not stop cleanly');
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const keysProblem = missingKeysProblem(config);
  if (keysProblem && isProduction()) {
    process.stderr.write(`Refusing to start in production (NODE_ENV=production): ${keysProblem}\n`);
    process.exit(1);
  }
  const log = pino(loggerOptions(config.logLevel));
  // Said once, by the process the operator started: a primary's workers read the same settings.
  if (keysProblem && !cluster.isWorker) {
    log.warn(
      `NOT FOR PRODUCTION: ${keysProblem} This start goes on because NODE_ENV is not production; a production start refuses.`,
    );
  }
  const running: Running = {};

  // Set before anything starts: a signal during the start still stops what has started.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      await stopRunning(running);
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void shutdown(signal));

  const siblings = WorkerChannel.ofThisProcess();
  // A worker whose primary is gone stops: nothing would restart it, or stop the database under it.
  if (siblings) process.once('disconnect', () => void shutdown('disconnect'));

  try {
    if (config.processes > 1 && cluster.isPrimary) await startPrimary(config, log, running);
    else await start(config, log, running, siblings);
  } catch (error) {
    if (stopping) return;
    stopping = true;
    const known = error instanceof StartError || error instanceof DataDirInUseError || error instanceof StartFailed;
    const message = known ? error.message : undefined;
    if (message) log.error(message);
    else log.error({ err: error }, 'failed to start');
    await stopRunning(running).catch((stopError: unknown) => log.error({ err: stopError }, 'error while stopping'));
    process.exit(1);
  }
}

/**
 * The service itself (src/service-modules.ts), most of a server's 2,500
 * modules and 2 s of a slow core: loaded only by a process that serves, once
 * its settings are found good, and while its database is made ready. A
 * refused start (a bad setting, keys missing in production) says so in half
 * a second instead of 2.5, and a primary of several processes never loads it.
 */
function loadService(): Promise<typeof ServiceModules> {
  return import('./service-modules.js');
}

/** A start refused for a reason the operator can act on: logged as a sentence, without a stack. */
class StartError extends Error {}

/** The database to serve: DATABASE_URL, else the embedded PostgreSQL started here; migrated. */
async function prepareDatabase(config: Config, log: Logger, running: Running): Promise<string> {
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    // One server per data folder: a second one would start a second PostgreSQL on the same files.
    running.lock = await lockDataDir(config.dataDir, 'server');
    const dir = path.join(config.dataDir, 'postgres');
    log.info({ dir }, 'DATABASE_URL is not set: starting the embedded PostgreSQL');
    running.embedded = await startEmbeddedPostgres({
      dir,
      persistent: true,
      ownSignals: true,
      onLog: (message) => log.debug({ postgres: message.trim() }),
      onWarning: (message) => log.warn(message),
    });
    databaseUrl = running.embedded.url();
  }

  await waitForDatabase(databaseUrl, log);
  const applied = await migrateToLatest({ databaseUrl });
  if (applied.length > 0) log.info({ migrations: applied }, 'applied database migrations');
  return databaseUrl;
}

/**
 * The primary of PROCESSES workers: it prepares the database once, then
 * starts the workers, which serve on the one port.
 */
async function startPrimary(config: Config, log: Logger, running: Running): Promise<void> {
  const databaseUrl = await prepareDatabase(config, log, running);
  const workers = await startWorkers({ count: config.processes, env: { DATABASE_URL: databaseUrl }, log });
  running.workers = { running: workers, timeoutMs: config.shutdownTimeoutMs };
  logReady(config, workers.address, log, { processes: config.processes });
}

function logReady(config: Config, address: string, log: Logger, more: Record<string, unknown> = {}): void {
  const base = config.publicUrl === `http://localhost:${config.port}` ? address : config.publicUrl;
  log.info(
    { url: base, docs: `${base}/docs`, openapi: `${base}/openapi.json`, ...more },
    `ready: the API reference is at ${base}/docs`,
  );
}

/**
 * Serves the API: alone, or as a worker of a primary (`siblings`), which has
 * prepared the database. Alone, or as the first worker, it also runs the
 * first start's setup and the background work.
 */
async function start(config: Config, log: Logger, running: Running, siblings?: WorkerChannel): Promise<void> {
  // Loaded while the database is made ready; awaited below, and a failure meanwhile must not go unhandled.
  const loading = loadService();
  loading.catch(() => undefined);
  const databaseUrl = siblings ? config.databaseUrl! : await prepareDatabase(config, log, running);
  const service = await loading;
  const app = await service.buildApp({ ...config, databaseUrl }, { logger: log, siblings });
  running.app = app;
  await app.ready();

  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new StartError(
        `Port ${config.port} on ${config.host} is already in use: stop what listens there, or set PORT.`,
      );
    }
    throw error;
  }

  if (!siblings || siblings.index === 0) await startBackground(service, config, log, running, app);
  // Validators and serialisers compile on first use; the rest now, between requests, unless set not to.
  if (config.precompileSchemas) {
    const compiling = app.deferredCompilations.size;
    const compiledFrom = performance.now();
    app.deferredCompilations.compileAll().then(
      // Info: until then requests share the thread with the compilation, which a load test should wait out.
      () => log.info({ schemas: compiling, ms: Math.round(performance.now() - compiledFrom) }, 'compiled every schema'),
      (error: unknown) => log.error({ err: error }, 'a route schema does not compile'),
    );
  }
  if (siblings) siblings.listening(address);
  else logReady(config, address, log);
}

/** The first start's setup, once the port is ours, and the background work, which runs in one process of a machine's. */
async function startBackground(
  service: typeof ServiceModules,
  config: Config,
  log: Logger,
  running: Running,
  app: NonNullable<Running['app']>,
): Promise<void> {
  // Only once the port is ours: a start that cannot listen must not spend the one showing of the first token.
  const first = await service.bootstrapFirstStart(app.context.db, app.clock, config.bootstrap);
  if (first) {
    log.info(
      {
        organizationId: first.organizationId,
        email: first.email,
        ...(config.bootstrap.adminToken ? {} : { token: first.token }),
      },
      config.bootstrap.adminToken
        ? 'first start: created an organization and its admin, whose token is BOOTSTRAP_ADMIN_TOKEN'
        : 'first start: created an organization and its admin; this token is shown only once, keep it. ' +
            'Make more with: npm run cli -- tokens create --email <email>',
    );
  }

  running.stopPurge = service.schedulePurge(app.context, config.purge, app.log);
  running.stopAuditPurge = service.scheduleAuditPurge(app.context, config.purge.pattern, app.log);
  running.stopInsightsPurge = service.scheduleInsightsPurge(app.context, config.purge.pattern, app.log);
  running.stopHostnameChecks = service.scheduleHostnameChecks(app.context, config.hostnameCheck, app.log);
  running.specWorker = service.startSpecWorker(app.context, { log: app.log });
  running.gitSyncWorker = service.startGitSyncWorker(app.context, app.log, config.gitSync.pollIntervalMs);
  running.eventDeliveryWorker = service.startEventDeliveryWorker(app.context, app.log, config.gitSync.pollIntervalMs);
  running.importRunWorker = service.startImportRunWorker(app.context, app.log, config.gitSync.pollIntervalMs);
  running.gitSyncPolling = service.startGitSyncPolling(app.context, app.log, config.gitSync.pollIntervalMs);
  const abort = new AbortController();
  running.backfill = {
    abort,
    done: service.backfillSearchIndex(app.context, app.log, abort.signal).catch((error: unknown) => {
      app.log.error({ err: error }, 'filling the search index failed; the next start will try again');
    }),
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
