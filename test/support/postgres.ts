import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';

/** A PostgreSQL server the test run may create and drop databases on. */
export interface ThrowawayPostgres {
  /** Where it came from, for the log line. */
  source: 'TEST_DATABASE_URL' | 'testcontainers' | 'embedded';
  /** A connection URL to `database` on that server. */
  url(database: string): string;
  stop(): Promise<void>;
}

/** Settings that trade durability for speed; the data is thrown away anyway. */
const FAST_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

function withDatabase(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

async function tryTestcontainers(): Promise<ThrowawayPostgres | undefined> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
  } catch {
    return undefined; // No reachable Docker engine.
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:16-alpine')
    .withCommand(['postgres', ...Object.entries(FAST_SETTINGS).flatMap(([k, v]) => ['-c', `${k}=${v}`])])
    .start();
  const base = container.getConnectionUri();
  return {
    source: 'testcontainers',
    url: (database) => withDatabase(base, database),
    stop: async () => void (await container.stop()),
  };
}

/**
 * The server named by TEST_DATABASE_URL if set; else a container when Docker
 * is reachable; else an embedded PostgreSQL in a temporary folder.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const configured = process.env.TEST_DATABASE_URL;
  if (configured)
    return { source: 'TEST_DATABASE_URL', url: (database) => withDatabase(configured, database), stop: async () => {} };

  const container = await tryTestcontainers();
  if (container) return container;

  const dir = await mkdtemp(path.join(tmpdir(), 'quire-test-pg-'));
  const cluster = await startEmbeddedPostgres({ dir, persistent: false, settings: FAST_SETTINGS });
  return { source: 'embedded', url: (database) => cluster.url(database), stop: () => cluster.stop() };
}
