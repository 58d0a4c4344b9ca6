import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/types.js';
import { useTestApp } from './support/app.js';

const t = useTestApp();

/** Another process's connection: its writes reach the app only through the database's notifications. */
let outside: Kysely<Database>;
beforeAll(() => {
  outside = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: t.database.url, max: 2 }) }),
  });
});
afterAll(async () => {
  await outside?.destroy();
});

/** A new space of a new organization, as the readers name it, with its first revision. */
async function newSpace() {
  const o = await t.factory.team();
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${o.organization.id}/spaces`,
    headers: o.admin.headers,
    payload: { title: 'Read' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return t.db
    .selectFrom('spaces')
    .select(['id', 'organization_id', 'revision_id'])
    .where('id', '=', res.json<{ id: string }>().id)
    .executeTakeFirstOrThrow();
}

async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Moves a space's revision as no trigger tells (a notification lost), so that only a read of the row shows it. */
async function moveUnheard(spaceId: string, revisionId: string): Promise<void> {
  await outside.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    await tx.updateTable('spaces').set({ revision_id: revisionId }).where('id', '=', spaceId).execute();
  });
}

describe('the current revisions the readers show', () => {
  it('are remembered while the organization’s clock stands, and read again once it moves', async () => {
    await eventually('the feed is heard', async () => t.app.httpCache.stats().clocksHeard === true);
    const space = await newSpace();
    const current = t.app.context.currentRevisions;
    const first = await current.of(space, t.db);
    expect(first).toBe(space.revision_id);

    await moveUnheard(space.id, 'unheard-revision-id0');
    // Nothing told of it: remembered, with no read.
    expect(await current.of(space, t.db)).toBe(first);
    // Any other database (a replica's) is read every time.
    expect(await current.of(space, outside)).toBe('unheard-revision-id0');

    // A write that ticks the organization's clock, by another process: read again once its notification comes.
    await outside.updateTable('spaces').set({ title: 'Merged' }).where('id', '=', space.id).execute();
    await eventually('the move shows', async () => (await current.of(space, t.db)) === 'unheard-revision-id0');
  });

  it('forget a space deleted or moved to another organization, as their organizations’ clocks move', async () => {
    await eventually('the feed is heard', async () => t.app.httpCache.stats().clocksHeard === true);
    const space = await newSpace();
    const current = t.app.context.currentRevisions;
    expect(await current.of(space, t.db)).toBe(space.revision_id);
    await outside.updateTable('spaces').set({ deleted_at: new Date() }).where('id', '=', space.id).execute();
    await eventually('the deletion shows', async () => (await current.of(space, t.db)) === undefined);
  });
});
