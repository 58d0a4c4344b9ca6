import path from 'node:path';
import { pino, type Logger } from 'pino';
import pg from 'pg';
import { buildApp } from './app.js';
import { bootstrapFirstStart } from './bootstrap.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startEmbeddedPostgres, type EmbeddedCluster } from './db/embedded.js';
import { migrateToLatest } from './db/migrate.js';
import { loggerOptions } from './core/logging.js';
import { schedulePurge } from './spaces/purge-schedule.js';
import { startSpecWorker, type SpecWorker } from './specs/worker.js';
import { backfillSearchIndex } from './search/backfill.js';

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
  const log = pino(loggerOptions(config.logLevel));

  let embedded: EmbeddedCluster | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dir = path.join(config.dataDir, 'postgres');
    log.info({ dir }, 'DATABASE_URL is not set: starting the embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({
      dir,
      persistent: true,
      ownSignals: true,
      onLog: (message) => log.debug({ postgres: message.trim() }),
    });
    databaseUrl = embedded.url();
  }

  await waitForDatabase(databaseUrl, log);
  const applied = await migrateToLatest({ databaseUrl });
  if (applied.length > 0) log.info({ migrations: applied }, 'applied database migrations');

  const app = await buildApp({ ...config, databaseUrl }, { logger: log });
  await app.ready();

  const first = await bootstrapFirstStart(app.db, app.clock, config.bootstrap);
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

  // Assigned once the server listens; a signal before that finds it undefined.
  // eslint-disable-next-line prefer-const
  let stopPurge: (() => void) | undefined;
  // eslint-disable-next-line prefer-const
  let specWorker: SpecWorker | undefined;
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
      stopPurge?.();
      // A spec job under way is put back for another instance before the database closes.
      await specWorker?.stop();
      await app.close();
      await embedded?.stop();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  stopPurge = schedulePurge(app.context, config.purge, app.log);
  specWorker = startSpecWorker(app.context, { log: app.log });
  backfillSearchIndex(app.context, app.log).catch((error: unknown) => {
    app.log.error({ err: error }, 'filling the search index failed; the next start will try again');
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
