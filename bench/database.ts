import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest } from '../src/db/migrate.js';
import { startThrowawayPostgres } from '../test/support/postgres.js';
import { watchDatabase } from './watchdog.js';

/** A migrated database made for this run alone. */
export interface BenchDatabase {
  /** Which server it lives on, for the report. */
  source: string;
  name: string;
  url: string;
  /** Leaves the database in place (a server the run started still stops): the watchdog lets it be. */
  keep(): Promise<void>;
  /** Drops the database and stops the server if the run started one. Safe to call more than once. */
  drop(): Promise<void>;
}

interface Server {
  source: string;
  /** The maintenance database to run CREATE/DROP DATABASE from. */
  adminUrl: string;
  url(database: string): string;
  stop(): Promise<void>;
}

function withDatabase(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** BENCH_DATABASE_URL wins; otherwise the same server the tests use (TEST_DATABASE_URL, Docker, or embedded). */
async function startServer(): Promise<Server> {
  const configured = process.env.BENCH_DATABASE_URL;
  if (configured) {
    // The server is someone else's: never stop it, only use the database the URL names to create ours.
    return {
      source: 'BENCH_DATABASE_URL',
      adminUrl: configured,
      url: (db) => withDatabase(configured, db),
      stop: async () => {},
    };
  }
  const server = await startThrowawayPostgres();
  return {
    source: server.source,
    adminUrl: server.url('postgres'),
    url: (db) => server.url(db),
    stop: () => server.stop(),
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates and migrates `quire_bench_<hex>`. Always a fresh database, even on a
 * shared server, so a run never sees (or harms) anyone else's rows.
 * `onCreating` receives the handle before CREATE DATABASE is sent, so a signal
 * during the migration can still drop it.
 */
export async function createBenchDatabase(
  onCreating: (database: BenchDatabase) => void = () => {},
): Promise<BenchDatabase> {
  const server = await startServer();
  // Hex digits only, so the name is safe to put in the statement.
  const name = `quire_bench_${randomBytes(6).toString('hex')}`;
  // Drops the database should this process be killed before it can.
  const watchdog = watchDatabase(server.adminUrl, name);
  let creating: Promise<void> = Promise.resolve();
  let dropping: Promise<void> | undefined;
  const drop = async () => {
    // A DROP sent while CREATE runs would find nothing, and one sent during the
    // migration would kill its connection and, with it, this process: wait for both.
    await creating.catch(() => {});
    await admin(server.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  const database: BenchDatabase = {
    source: server.source,
    name,
    url: server.url(name),
    keep: async () => {
      watchdog.release();
      await server.stop();
    },
    drop: () =>
      (dropping ??= (async () => {
        try {
          await drop();
          watchdog.release();
        } finally {
          await server.stop();
        }
      })()),
  };
  onCreating(database);
  try {
    await (creating = (async () => {
      await admin(server.adminUrl, `CREATE DATABASE "${name}"`);
      await migrateToLatest({ databaseUrl: database.url });
    })());
  } catch (error) {
    await database.drop().catch(() => {});
    throw error;
  }
  return database;
}
