import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../src/core/clock.js';
import { loadConfig } from '../src/config.js';
import { purgeDeletedSpaces } from '../src/spaces/purge.js';
import { schedulePurge } from '../src/spaces/purge-schedule.js';
import { createSpace } from '../src/spaces/create.js';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';

const t = useTestApp();
const DAY = 86_400_000;
const RETENTION = 7 * DAY;
const NOW = Date.parse('2026-06-10T00:00:00.000Z');
const clock: Clock = { now: () => new Date(NOW) };

/** Spaces in a fresh organization, deleted the given number of ms before NOW (null: not deleted). */
async function spacesDeletedAgo(ages: Array<number | null>) {
  const owner = await t.factory.user();
  const organization = await t.factory.organization(owner.id);
  const ids: string[] = [];
  for (const age of ages) {
    const space = await createSpace(t.db, systemClock, {
      organizationId: organization.id,
      parentId: null,
      title: 'S',
      emoji: null,
      editMode: 'live',
      visibility: 'private',
    });
    if (age !== null)
      await t.db
        .updateTable('spaces')
        .set({ deleted_at: new Date(NOW - age) })
        .where('id', '=', space.id)
        .execute();
    ids.push(space.id);
  }
  return { organizationId: organization.id, ids };
}

const remaining = async (ids: string[]) =>
  (await t.db.selectFrom('spaces').select('id').where('id', 'in', ids).execute()).map((row) => row.id).sort();

describe('purging deleted spaces', () => {
  it('removes the spaces deleted at least the retention ago, and nothing else', async () => {
    const { organizationId, ids } = await spacesDeletedAgo([RETENTION, RETENTION + DAY, RETENTION - 60_000, DAY, null]);
    const [atRetention, older, almost, recent, live] = ids as [string, string, string, string, string];

    const result = await purgeDeletedSpaces(t.db, clock, { retentionMs: RETENTION, batchSize: 100 });

    expect(result.busy).toBe(false);
    expect(result.purged).toEqual(expect.arrayContaining([atRetention, older]));
    expect(await remaining(ids)).toEqual([almost, recent, live].sort());
    expect(await t.db.selectFrom('organizations').select('id').where('id', '=', organizationId).execute()).toHaveLength(
      1,
    );
    expect((await purgeDeletedSpaces(t.db, clock, { retentionMs: RETENTION, batchSize: 100 })).purged).toEqual([]);
  });

  it('works in bounded batches until none are left', async () => {
    const { ids } = await spacesDeletedAgo(Array.from({ length: 7 }, () => RETENTION + DAY));
    const result = await purgeDeletedSpaces(t.db, clock, { retentionMs: RETENTION, batchSize: 2 });
    expect(result.purged.sort()).toEqual([...ids].sort());
    expect(await remaining(ids)).toEqual([]);
  });

  it('leaves the work to another instance holding the lock', async () => {
    const { ids } = await spacesDeletedAgo([RETENTION + DAY]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(${0x70757267})`.execute(tx);
      locked();
      await released;
    });
    await isLocked;
    try {
      const result = await purgeDeletedSpaces(t.db, clock, { retentionMs: RETENTION, batchSize: 100 });
      expect(result).toEqual({ purged: [], busy: true });
      expect(await remaining(ids)).toEqual(ids);
    } finally {
      release();
      await holder;
    }
  });

  it('removes each space once when two instances purge at the same time, and neither fails', async () => {
    const { ids } = await spacesDeletedAgo(Array.from({ length: 40 }, () => RETENTION + DAY));
    const other = await buildOwnApp(testConfig(t.database.url));
    try {
      const runs = await Promise.all(
        [t.db, other.context.db, t.db, other.context.db].map(async (db) => {
          const purged: string[] = [];
          // An instance that finds the lock taken tries again on its next schedule; here, until nothing is left.
          for (let round = 0; round < 50; round++) {
            const result = await purgeDeletedSpaces(db, clock, { retentionMs: RETENTION, batchSize: 3 });
            purged.push(...result.purged);
            if (!result.busy) break;
          }
          return purged;
        }),
      );
      const all = runs.flat();
      // Each space removed by exactly one run (other tests' leftovers in this database may be purged too).
      expect(new Set(all).size).toBe(all.length);
      expect(all.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      expect(await remaining(ids)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('runs on its schedule and once at start, with the app’s clock and retention', async () => {
    const { ids } = await spacesDeletedAgo([RETENTION + DAY]);
    const app = await buildOwnApp(testConfig(t.database.url, { spaceRetentionMs: RETENTION }), { clock });
    await app.ready();
    const stop = schedulePurge(app.context, { pattern: '*/1 * * * * *', batchSize: 10 });
    try {
      // Purged at start or on the next second's run; the test's timeout stops a purge that never comes.
      while ((await remaining(ids)).length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      stop();
      await app.close();
    }
  });

  it('refuses a schedule that is not a cron pattern at start', () => {
    expect(() => loadConfig({ PURGE_SCHEDULE: 'hourly' })).toThrow(
      /PURGE_SCHEDULE is not a cron pattern \(got "hourly"\)/,
    );
    expect(loadConfig({ PURGE_SCHEDULE: '*/15 * * * *' }).purge).toEqual({ pattern: '*/15 * * * *', batchSize: 500 });
  });
});

describe('purging a space with content', () => {
  it('removes its change requests, revisions, pages, files and discussion, and the bytes nothing references any more', async () => {
    const team = await t.factory.team([]);
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${team.organization.id}/spaces`,
      headers: team.admin.headers,
      payload: {},
    });
    const spaceId = created.json().id as string;
    const cr = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/change-requests`,
      headers: team.admin.headers,
      payload: {},
    });
    const bytes = Buffer.from(`bytes of ${spaceId}`).toString('base64');
    const written = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/change-requests/${cr.json().id}/content`,
      headers: team.admin.headers,
      payload: {
        changes: [
          { operation: 'insert_page', title: 'Page', document: { markdown: 'Body\n' } },
          { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: bytes }] },
        ],
      },
    });
    expect(written.statusCode).toBe(200);
    // Discussion too: a comment with a reply and a reaction, and a requested reviewer.
    const comment = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/comments`,
      headers: team.admin.headers,
      payload: { body: { markdown: 'Hm' } },
    });
    const commentUrl = `/v1/spaces/${spaceId}/comments/${comment.json().id}`;
    await t.app.inject({
      method: 'POST',
      url: `${commentUrl}/replies`,
      headers: team.admin.headers,
      payload: { body: {} },
    });
    await t.app.inject({
      method: 'PUT',
      url: commentUrl,
      headers: team.admin.headers,
      payload: { addedReactions: ['👍'] },
    });
    const requested = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/change-requests/${cr.json().id}/requested-reviewers`,
      headers: team.admin.headers,
      payload: { users: [team.admin.user.id] },
    });
    expect(requested.statusCode).toBe(200);
    const { sha256 } = await t.db
      .selectFrom('file_versions')
      .select('sha256')
      .where('space_id', '=', spaceId)
      .executeTakeFirstOrThrow();
    // Past the retention, and the bytes past their grace.
    await t.db
      .updateTable('spaces')
      .set({ deleted_at: new Date(NOW - RETENTION - DAY) })
      .where('id', '=', spaceId)
      .execute();
    await t.db
      .updateTable('blobs')
      .set({ created_at: new Date(NOW - 2 * DAY) })
      .where('sha256', '=', sha256)
      .execute();

    const discussion = ['comments', 'comment_replies', 'comment_reactions', 'change_request_reviewers'] as const;
    for (const table of discussion)
      expect(
        await t.db.selectFrom(table).select('space_id').where('space_id', '=', spaceId).execute(),
        table,
      ).toHaveLength(1);
    await purgeDeletedSpaces(t.db, clock, { retentionMs: RETENTION, batchSize: 100 });

    const tables = [
      'change_requests',
      'revisions',
      'documents',
      'page_versions',
      'file_versions',
      'tree_entries',
    ] as const;
    for (const table of [...tables, ...discussion]) {
      const rows = await t.db.selectFrom(table).select('space_id').where('space_id', '=', spaceId).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await t.db.selectFrom('blobs').select('sha256').where('sha256', '=', sha256).execute()).toEqual([]);
  });
});
