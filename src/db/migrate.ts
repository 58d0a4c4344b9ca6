import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';

/** The migrations folder at the package root, from both src/ and dist/. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

export interface MigrateOptions {
  databaseUrl: string;
  log?: (message: string) => void;
}

/** Applies every pending migration. Safe to run from several instances at once: node-pg-migrate holds an advisory lock. */
export async function migrateToLatest({ databaseUrl, log }: MigrateOptions): Promise<string[]> {
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
}
