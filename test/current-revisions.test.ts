import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CurrentRevisions } from '../src/content/current-revisions.js';
import { ListeningClockFeed } from '../src/db/clock-feed.js';
import { useTestApp } from './support/app.js';
import { eventually, stillMoment, useOutsideDb } from './support/outside.js';

const t = useTestApp();

/** Another process's connection: its writes reach the app only through the database's notifications. */
const outside = useOutsideDb(() => t.database.url);

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

/** Moves a space's revision as no trigger tells (a notification lost), so that only a read of the row shows it. */
async function moveUnheard(spaceId: string, revisionId: string): Promise<void> {
  await outside.db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    await tx.updateTable('spaces').set({ revision_id: revisionId }).where('id', '=', spaceId).execute();
  });
}

describe('the current revisions the readers show', () => {
  it('are remembered while the organization’s clock stands, and read again once it moves', async () => {
    // A feed of the test's own, to tell whether the clocks stood while the test ran: on a loaded machine a ping
    // may go unheard, and the app of an earlier file in this worker may write, and either moves every clock.
    const feed = new ListeningClockFeed({ listenUrl: t.database.url, db: t.db, logger: t.app.log });
    feed.start();
    try {
      await eventually('the feed is heard', () => feed.heard());
      const current = new CurrentRevisions(t.db, feed);
      let checked = false;
      for (let attempt = 1; attempt <= 3 && !checked; attempt++) {
        const space = await newSpace();
        await stillMoment(feed, space.organization_id);
        const before = feed.mark();
        const first = await current.of(space, t.db);
        expect(first).toBe(space.revision_id);
        await moveUnheard(space.id, 'unheard-revision-id0');
        const remembered = await current.of(space, t.db);
        // Any other database (a replica's) is read every time.
        expect(await current.of(space, outside.db)).toBe('unheard-revision-id0');
        // Nothing told of the move: remembered, with no read, unless something else moved the clocks meanwhile.
        if (before === undefined || feed.movedSince(before, space.organization_id)) continue;
        expect(remembered).toBe(first);
        checked = true;

        // A write that ticks the organization's clock, by another process: read again once its notification comes.
        await outside.db.updateTable('spaces').set({ title: 'Merged' }).where('id', '=', space.id).execute();
        await eventually('the move shows', async () => (await current.of(space, t.db)) === 'unheard-revision-id0');
      }
      expect(checked, 'the clocks stood still in one of three attempts').toBe(true);
    } finally {
      await feed.close();
    }
  });

  it('forget a space deleted or moved to another organization, as their organizations’ clocks move', async () => {
    await eventually('the feed is heard', async () => t.app.httpCache.stats().clocksHeard === true);
    const space = await newSpace();
    const current = t.app.context.currentRevisions;
    expect(await current.of(space, t.db)).toBe(space.revision_id);
    await outside.db.updateTable('spaces').set({ deleted_at: new Date() }).where('id', '=', space.id).execute();
    await eventually('the deletion shows', async () => (await current.of(space, t.db)) === undefined);
  });
});
