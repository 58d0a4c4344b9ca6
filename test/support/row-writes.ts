import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

/**
 * Counts the rows written to a test database's tables: a row trigger on each
 * table (but those in `skip`) draws from one sequence, and `mark()` reads it.
 * A sequence moves at once for every session and stays moved when the writing
 * transaction rolls back, so an unchanged mark proves that nothing was
 * written, and a moved one only that something may have been.
 */
export async function watchRowWrites(db: Db, skip: readonly string[] = []): Promise<{ mark(): Promise<string> }> {
  await sql`CREATE SEQUENCE IF NOT EXISTS test_row_writes`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION test_count_row_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM nextval('test_row_writes'); RETURN NULL; END $$`.execute(db);
  // Partitions take their parent's trigger.
  const { rows } = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`.execute(db);
  for (const { name } of rows.filter((row) => !skip.includes(row.name))) {
    const table = sql.id('public', name);
    await sql`CREATE OR REPLACE TRIGGER test_count_row_writes AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION test_count_row_write()`.execute(db);
    await sql`CREATE OR REPLACE TRIGGER test_count_truncates AFTER TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION test_count_row_write()`.execute(db);
  }
  return {
    mark: async () => {
      const { rows } = await sql<{ mark: string }>`SELECT last_value || ':' || is_called AS mark
        FROM test_row_writes`.execute(db);
      return rows[0]!.mark;
    },
  };
}

/**
 * `hash` (a fingerprint of every row) hashed again only once a row was
 * written since the last time: the files that prove a refused request
 * stored nothing send mostly refused requests, and a hash of every table
 * took some 10 ms a request on a slow machine.
 */
export function keptFingerprint<T>(writes: { mark(): Promise<string> }, hash: () => Promise<T>): () => Promise<T> {
  let kept: { mark: string; value: T } | undefined;
  return async () => {
    // The mark is read first: a write during the hash then moves it, and the next call hashes again.
    const mark = await writes.mark();
    if (kept?.mark !== mark) kept = { mark, value: await hash() };
    return kept.value;
  };
}
