import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';

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
  if (!(await anyPending(databaseUrl))) return [];
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

/**
 * Whether a migration is left to apply, read without node-pg-migrate's lock:
 * that lock is a session's, which a pooler in transaction mode (PgBouncer)
 * cannot keep, so instances behind one find nothing to do without taking it
 * (the migrations themselves run on the database directly, as docs/cluster.md says).
 */
async function anyPending(databaseUrl: string): Promise<boolean> {
  const files = (await readdir(MIGRATIONS_DIR)).map((file) => path.parse(file).name);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = await client.query<{ name: string | null }>(
      "select to_regclass('public.pgmigrations')::text as name",
    );
    if (!table.rows[0]?.name) return true;
    const { rows } = await client.query<{ name: string }>('select name from pgmigrations');
    const applied = new Set(rows.map((row) => row.name));
    return files.some((name) => !applied.has(name));
  } finally {
    await client.end();
  }
}
