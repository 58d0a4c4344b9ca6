import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { ClockFeed } from '../../src/db/clock-feed.js';
import type { Database } from '../../src/db/types.js';

/**
 * Another process's connection to the test file's database: its writes move
 * none of the app's clocks itself, so that only the database's notifications
 * can (src/db/clock-feed.ts). Read its `db` inside tests.
 */
export function useOutsideDb(databaseUrl: () => string): { db: Kysely<Database> } {
  const outside = {} as { db: Kysely<Database> };
  beforeAll(() => {
    outside.db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl(), max: 2 }) }),
    });
  });
  afterAll(async () => {
    await outside.db?.destroy();
  });
  return outside;
}

/** Polls `check` until it holds, failing after 10 s: a notification takes milliseconds. */
export async function eventually(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits for a moment of `ms` in which `feed` saw no clock of `organizationId`
 * move: on a loaded machine the app of an earlier file in this worker may
 * still be writing, and a write of this process moves every clock.
 */
export async function stillMoment(feed: ClockFeed, organizationId: string, ms = 200): Promise<void> {
  await eventually('a moment in which no clock moved', async () => {
    const mark = feed.mark();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return mark !== undefined && !feed.movedSince(mark, organizationId);
  });
}
