import { randomBytes } from 'node:crypto';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_DIR, migrateToLatest } from '../src/db/migrate.js';

async function withEmptyDatabase(task: (url: string) => Promise<void>): Promise<void> {
  const name = `${inject('databasePrefix')}_m${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  try {
    await task(url.toString());
  } finally {
    // Migration runners end their connections as they return, but the server
    // may still count them for a moment; forcing the drop then would kill a
    // connection whose client is closing, which surfaces as an uncaught error.
    for (let waited = 0; waited < 5_000; waited += 50) {
      const { rows } = await admin.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'pgmigrations' ORDER BY tablename",
  );
  await client.end();
  return rows.map((row) => row.tablename);
}

describe('migrations', () => {
  it('apply to an empty database, roll all the way back, and apply again', async () => {
    await withEmptyDatabase(async (url) => {
      const applied = await migrateToLatest({ databaseUrl: url });
      expect(applied.length).toBeGreaterThan(0);
      expect(await tables(url)).toEqual(
        expect.arrayContaining(['api_tokens', 'organization_members', 'organizations', 'users']),
      );
      expect(await migrateToLatest({ databaseUrl: url })).toEqual([]);

      await runner({
        databaseUrl: url,
        dir: MIGRATIONS_DIR,
        direction: 'down',
        count: Infinity,
        migrationsTable: 'pgmigrations',
        log: () => {},
      });
      expect(await tables(url)).toEqual([]);

      expect(await migrateToLatest({ databaseUrl: url })).toEqual(applied);
    });
  });

  it('are applied once when several instances start together', async () => {
    await withEmptyDatabase(async (url) => {
      const results = await Promise.all(Array.from({ length: 3 }, () => migrateToLatest({ databaseUrl: url })));
      expect(results.flat().sort()).toEqual(results.find((r) => r.length > 0)!.sort());
    });
  });
});
