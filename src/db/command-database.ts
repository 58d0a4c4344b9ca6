import path from 'node:path';
import type { Config } from '../config.js';
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from './embedded.js';
import { migrateToLatest } from './migrate.js';

/**
 * Runs a command-line task against the service's database: DATABASE_URL when
 * set; else the embedded cluster a running server has open in DATA_DIR; else
 * that cluster started just for the task and stopped after it.
 */
export async function withCommandDatabase<T>(config: Config, task: (databaseUrl: string) => Promise<T>): Promise<T> {
  if (config.databaseUrl) return task(config.databaseUrl);
  const dir = path.join(config.dataDir, 'postgres');
  const running = await runningEmbeddedPostgresUrl(dir);
  if (running) return task(running);
  const cluster = await startEmbeddedPostgres({ dir, persistent: true });
  try {
    await migrateToLatest({ databaseUrl: cluster.url() });
    return await task(cluster.url());
  } finally {
    await cluster.stop();
  }
}
