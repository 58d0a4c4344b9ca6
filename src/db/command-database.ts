import path from 'node:path';
import type { Config } from '../config.js';
import { dataDirHolder, lockDataDir } from './data-dir-lock.js';
import { hasEmbeddedCluster, runningEmbeddedPostgresUrl, startEmbeddedPostgres } from './embedded.js';
import { migrateToLatest } from './migrate.js';

export class NoDatabaseError extends Error {}

/**
 * Runs a command-line task against the service's database: DATABASE_URL when
 * set; else the embedded cluster a running server has open in DATA_DIR; else
 * that cluster started just for the task, under the folder's lock, and
 * stopped after it. A DATA_DIR where no server ever ran is refused: a new
 * empty database there would only answer that nothing exists.
 */
export async function withCommandDatabase<T>(config: Config, task: (databaseUrl: string) => Promise<T>): Promise<T> {
  if (config.databaseUrl) return task(config.databaseUrl);
  const dataDir = path.resolve(config.dataDir);
  const dir = path.join(dataDir, 'postgres');
  if (!hasEmbeddedCluster(dir)) {
    throw new NoDatabaseError(
      `No database in DATA_DIR ${dataDir} (looked for ${path.join(dir, 'pgdata')}). ` +
        'Start the server once with this DATA_DIR (npm start), or set DATA_DIR or DATABASE_URL to the server’s.',
    );
  }
  const holder = await dataDirHolder(dataDir);
  if (holder) {
    const running = await runningEmbeddedPostgresUrl(dir);
    if (!running) {
      throw new Error(`The server using DATA_DIR ${dataDir} (pid ${holder.pid}) is still starting; try again shortly.`);
    }
    return task(running);
  }
  const lock = await lockDataDir(dataDir, 'command');
  try {
    const cluster = await startEmbeddedPostgres({ dir, persistent: true });
    try {
      await migrateToLatest({ databaseUrl: cluster.url() });
      return await task(cluster.url());
    } finally {
      await cluster.stop();
    }
  } finally {
    await lock.release();
  }
}
