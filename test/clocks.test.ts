import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Account } from './support/factory.js';
import { useTestApp } from './support/app.js';

const t = useTestApp();

/** The organization's clock as the lists read it, and how many rows it is summed from. */
async function clockOf(organizationId: string): Promise<{ clock: number; rows: number }> {
  const { rows } = await sql<{ clock: string; rows: string }>`
    select coalesce(sum(ticks), 0) as clock, count(*) as rows from organization_ticks
    where organization_id = ${organizationId}`.execute(t.db);
  return { clock: Number(rows[0]!.clock), rows: Number(rows[0]!.rows) };
}

const rename = (organizationId: string, title: string) =>
  t.db.updateTable('organizations').set({ title }).where('id', '=', organizationId).execute();

describe('an organization’s clock', () => {
  it('ticks with each change that commits, once per statement, and not for one that rolls back or changes nothing', async () => {
    const o = await t.factory.team();
    const org = o.organization.id;
    const start = (await clockOf(org)).clock;

    await rename(org, 'Once');
    expect((await clockOf(org)).clock).toBe(start + 1);

    await t.db
      .transaction()
      .execute(async (tx) => {
        await tx.updateTable('organizations').set({ title: 'Undone' }).where('id', '=', org).execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await clockOf(org)).clock).toBe(start + 1);

    // A statement that matches no row ticks nothing.
    await t.db.updateTable('spaces').set({ title: 'None' }).where('organization_id', '=', org).execute();
    expect((await clockOf(org)).clock).toBe(start + 1);
  });

  it('keeps its value when its ticks are folded into one row', async () => {
    const o = await t.factory.team();
    const org = o.organization.id;
    for (let n = 0; n < 40; n++) await rename(org, `Title ${n}`);
    const before = await clockOf(org);

    await sql`select organization_ticks_fold(array[${org}]::text[])`.execute(t.db);
    expect(await clockOf(org)).toEqual({ clock: before.clock, rows: 1 });

    // Folding now and then as it ticks keeps the rows to sum few.
    for (let n = 0; n < 1000; n++) await rename(org, `Again ${n}`);
    const after = await clockOf(org);
    expect(after.clock).toBe(before.clock + 1000);
    expect(after.rows).toBeLessThan(400);
  });

  it('never makes two writers in one organization wait on each other', async () => {
    const o = await t.factory.team();
    const org = o.organization.id;
    const other = await t.factory.team();
    const start = (await clockOf(org)).clock;

    await t.db.transaction().execute(async (first) => {
      await first.updateTable('organizations').set({ title: 'First' }).where('id', '=', org).execute();
      // A second transaction ticks the same organization while the first is open: with one
      // clock row per organization it would wait for the first to end, and time out.
      await t.db.transaction().execute(async (second) => {
        await sql`set local lock_timeout = '2s'`.execute(second);
        await second
          .updateTable('organization_members')
          .set({ last_seen_at: new Date() })
          .where('organization_id', '=', org)
          .execute();
        await second
          .updateTable('organizations')
          .set({ title: 'Other' })
          .where('id', '=', other.organization.id)
          .execute();
      });
      expect((await clockOf(org)).clock).toBe(start + 1);
    });
    expect((await clockOf(org)).clock).toBe(start + 2);
  });

  it('goes with its organization, and ticks no deleted one', async () => {
    const o = await t.factory.team();
    const org = o.organization.id;
    await rename(org, 'Going');
    // Deleting the organization deletes its members, which would tick it.
    await t.db.deleteFrom('organizations').where('id', '=', org).execute();
    expect(await clockOf(org)).toEqual({ clock: 0, rows: 0 });
  });
});

async function post(account: Account, url: string, payload: object): Promise<{ id: string }> {
  const res = await t.app.inject({ method: 'POST', url, headers: account.headers, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

describe('the clocks of comment threads and change requests', () => {
  // As rows updated in place, a clock stayed locked by its writer until it committed: the soak
  // found a comment posted and one deleted in the same thread deadlocked with a change request.
  it('never make two writers of one thread, or of one space’s change requests, wait on each other', async () => {
    const o = await t.factory.team();
    const space = (await post(o.admin, `/v1/orgs/${o.organization.id}/spaces`, { title: 'Busy' })).id;
    const comments: string[] = [];
    for (const markdown of ['One', 'Two']) {
      comments.push((await post(o.admin, `/v1/spaces/${space}/comments`, { body: { markdown } })).id);
    }
    const changes: string[] = [];
    for (const subject of ['One', 'Two']) {
      changes.push((await post(o.admin, `/v1/spaces/${space}/change-requests`, { subject })).id);
    }
    const clocks = async () => {
      const { rows } = await sql<{ thread: string; changes: string }>`select
        (select coalesce(sum(ticks), 0) from comment_thread_ticks where space_id = ${space} and thread_key = '') as thread,
        (select coalesce(sum(ticks), 0) from change_request_ticks where space_id = ${space}) as changes`.execute(t.db);
      return rows[0]!;
    };
    const before = await clocks();

    await t.db.transaction().execute(async (first) => {
      await first.deleteFrom('comments').where('id', '=', comments[0]!).execute();
      await first.updateTable('change_requests').set({ subject: 'First' }).where('id', '=', changes[0]!).execute();
      // Another transaction ticks both clocks while the first is open: it would wait for it, and time out.
      await t.db.transaction().execute(async (second) => {
        await sql`set local lock_timeout = '2s'`.execute(second);
        await second.deleteFrom('comments').where('id', '=', comments[1]!).execute();
        await second.updateTable('change_requests').set({ subject: 'Second' }).where('id', '=', changes[1]!).execute();
      });
    });
    const after = await clocks();
    expect(Number(after.thread)).toBe(Number(before.thread) + 2);
    expect(Number(after.changes)).toBe(Number(before.changes) + 2);
  });
});
