import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';

/** The migrations folder at the package root, from both src/ and dist/. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface MigrateOptions {
  databaseUrl: string;
  log?: (message: string) => void;
  /** How long to wait for another instance's migration run to finish. */
  lockTimeoutMs?: number;
}

const LOCKED = /Another migration is already running/;

/**
 * Applies every pending migration. Several instances may start at once:
 * node-pg-migrate lets one of them hold its advisory lock and refuses the
 * others, which then wait for it and find nothing left to do.
 */
export async function migrateToLatest({
  databaseUrl,
  log,
  lockTimeoutMs = 120_000,
}: MigrateOptions): Promise<string[]> {
  const deadline = Date.now() + lockTimeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const applied = await runner({
        databaseUrl,
        dir: MIGRATIONS_DIR,
        direction: 'up',
        migrationsTable: 'pgmigrations',
        checkOrder: true,
        log: log ?? (() => {}),
        verbose: false,
      });
      return applied.map((migration) => migration.name);
    } catch (error) {
      if (!LOCKED.test((error as Error).message) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100 * attempt, 2_000)));
    }
  }
}
