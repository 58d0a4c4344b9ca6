import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { keptFingerprint, watchRowWrites } from './support/row-writes.js';

const t = useTestApp();

// The files that prove a refused request stored nothing trust an unchanged mark instead of hashing every table.
describe('the row-write mark of a test database', () => {
  let writes: Awaited<ReturnType<typeof watchRowWrites>>;
  let hashes = 0;
  let fingerprint: () => Promise<string>;
  beforeAll(async () => {
    writes = await watchRowWrites(t.db, ['organization_ticks']);
    fingerprint = keptFingerprint(writes, async () => {
      hashes++;
      const { rows } = await sql<{ titles: string | null }>`SELECT string_agg(title, '|' ORDER BY id) AS titles
        FROM organizations`.execute(t.db);
      return rows[0]!.titles ?? '';
    });
  });

  it('stays put through reads and moves with an insert, an update, a delete, and a write rolled back', async () => {
    const o = await t.factory.team();
    const start = await writes.mark();
    await t.db.selectFrom('organizations').selectAll().execute();
    expect(await writes.mark()).toBe(start);

    await t.db.updateTable('organizations').set({ title: 'Renamed' }).where('id', '=', o.organization.id).execute();
    const updated = await writes.mark();
    expect(updated).not.toBe(start);

    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('organizations').set({ title: 'Never' }).where('id', '=', o.organization.id).execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    // A rolled-back write moves it too: a moved mark says only that something may have changed.
    expect(await writes.mark()).not.toBe(updated);
  });

  it('leaves a skipped table uncounted', async () => {
    const o = await t.factory.team();
    const before = await writes.mark();
    await t.db.insertInto('organization_ticks').values({ organization_id: o.organization.id }).execute();
    expect(await writes.mark()).toBe(before);
  });

  it('hashes again only after a write, and then sees the write', async () => {
    const o = await t.factory.team();
    const first = await fingerprint();
    const counted = hashes;
    expect(await fingerprint()).toBe(first);
    expect(hashes).toBe(counted);

    await t.db.updateTable('organizations').set({ title: 'Seen' }).where('id', '=', o.organization.id).execute();
    const second = await fingerprint();
    expect(hashes).toBe(counted + 1);
    expect(second).not.toBe(first);
    expect(second).toContain('Seen');
  });
});
