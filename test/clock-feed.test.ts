import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListeningClockFeed } from '../src/db/clock-feed.js';
import { mayWrite, writeKind } from '../src/db/prepared-pool.js';
import { insightRow } from '../src/sites/insights/events.js';
import { insightEventsInsert } from '../src/sites/insights/queries.js';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';
import { eventually, useOutsideDb } from './support/outside.js';
import type { Account } from './support/factory.js';

const t = useTestApp();

/** Another process's writes, as far as the app can tell. */
const outside = useOutsideDb(() => t.database.url);

const stats = () => t.app.httpCache.stats();

async function newSpace(organizationId: string, admin: Account, title: string): Promise<{ id: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/spaces`,
    headers: admin.headers,
    payload: { title },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const read = (app: FastifyInstance, account: Account, url: string) =>
  app.inject({ method: 'GET', url, headers: account.headers });

describe('kept versions, served unread while their clocks stand', () => {
  it('serves a kept answer again without reading its version, and reads it once a clock of it moves', async () => {
    await eventually('the feed is heard', () => stats().clocksHeard === true);
    const o = await t.factory.team();
    const space = await newSpace(o.organization.id, o.admin, 'First');
    const url = `/v1/spaces/${space.id}`;

    expect((await read(t.app, o.admin, url)).json().title).toBe('First');
    await read(t.app, o.admin, url);
    const before = stats();
    const again = await read(t.app, o.admin, url);
    expect(again.json().title).toBe('First');
    expect(stats().unread).toBe(before.unread + 1);

    // Renamed by another process: the answer changes once the notification is heard, not before the rename.
    await outside.db.updateTable('spaces').set({ title: 'Second' }).where('id', '=', space.id).execute();
    await eventually('the rename shows', async () => (await read(t.app, o.admin, url)).json().title === 'Second');
    const kept = stats();
    expect((await read(t.app, o.admin, url)).json().title).toBe('Second');
    expect(stats().unread).toBe(kept.unread + 1);
  });

  it('shows what this process wrote at once, notification or not', async () => {
    await eventually('the feed is heard', () => stats().clocksHeard === true);
    const o = await t.factory.team();
    const space = await newSpace(o.organization.id, o.admin, 'Before');
    const url = `/v1/spaces/${space.id}`;
    await read(t.app, o.admin, url);
    await read(t.app, o.admin, url);

    // A write that matched no row (a worker's claim finding no job) moves nothing: the kept answer is served unread.
    const before = stats();
    await t.db.updateTable('spaces').set({ title: 'Nowhere' }).where('id', '=', 'no-such-space').execute();
    expect((await read(t.app, o.admin, url)).json().title).toBe('Before');
    expect(stats().unread).toBe(before.unread + 1);

    await t.db.updateTable('spaces').set({ title: 'After' }).where('id', '=', space.id).execute();
    expect((await read(t.app, o.admin, url)).json().title).toBe('After');
    const res = await t.app.inject({
      method: 'PATCH',
      url,
      headers: o.admin.headers,
      payload: { title: 'Through the API' },
    });
    expect(res.statusCode).toBe(200);
    expect((await read(t.app, o.admin, url)).json().title).toBe('Through the API');
  });

  it('moves only the organization whose clock moved', async () => {
    await eventually('the feed is heard', () => stats().clocksHeard === true);
    const a = await t.factory.team();
    const b = await t.factory.team();
    const urlA = `/v1/orgs/${a.organization.id}`;
    const urlB = `/v1/orgs/${b.organization.id}`;
    for (const [account, url] of [
      [a.admin, urlA],
      [b.admin, urlB],
    ] as const) {
      await read(t.app, account, url);
      await read(t.app, account, url);
    }

    // A's clock moves, and B's kept answer is served unread after it. On a loaded machine a write of this
    // process (an earlier file's app still at work) or a late ping moves every clock now and then; a few
    // tries tell that from A's move moving B's too, which would fail every one.
    const unreadAfterMove = async (title: string) => {
      await outside.db.updateTable('organizations').set({ title }).where('id', '=', a.organization.id).execute();
      await eventually('the title shows', async () => (await read(t.app, a.admin, urlA)).json().title === title);
      const before = stats();
      await read(t.app, b.admin, urlB);
      // A read of B's version that finds it unchanged keeps the answer again for the next try.
      return stats().unread === before.unread + 1;
    };
    const tries = [];
    for (const title of ['Moved', 'Moved again', 'Moved a third time']) {
      tries.push(await unreadAfterMove(title));
      if (tries.at(-1)) break;
    }
    expect(tries).toContain(true);
  });

  it('has a conditional write read the current version, whatever the feed holds', async () => {
    let held = false;
    // On a loaded machine the clocks may move for other reasons meanwhile (a ping unheard): then the kept
    // answer is read again, the premise of the check does not hold, and it is tried on a new space.
    for (let attempt = 1; attempt <= 3 && !held; attempt++) {
      await eventually('the feed is heard', () => stats().clocksHeard === true);
      const o = await t.factory.team();
      const space = await newSpace(o.organization.id, o.admin, 'Read');
      const url = `/v1/spaces/${space.id}`;
      await read(t.app, o.admin, url);
      const seen = await read(t.app, o.admin, url);

      // A rename no trigger tells of (as if its notification were lost), its clock ticked by hand.
      await outside.db.transaction().execute(async (tx) => {
        await sql`set local session_replication_role = replica`.execute(tx);
        await tx.updateTable('spaces').set({ title: 'Unheard' }).where('id', '=', space.id).execute();
        await tx.insertInto('organization_ticks').values({ organization_id: o.organization.id }).execute();
      });
      // The kept answer still holds for reads: the feed heard nothing.
      const unread = stats().unread;
      const kept = await read(t.app, o.admin, url);
      if (stats().unread === unread + 1) {
        expect(kept.json().title).toBe('Read');
        held = true;
      }

      const write = await t.app.inject({
        method: 'PATCH',
        url,
        headers: { ...o.admin.headers, 'if-match': String(seen.headers.etag) },
        payload: { title: 'Lost update' },
      });
      expect(write.statusCode).toBe(412);
      const stored = await outside.db
        .selectFrom('spaces')
        .select('title')
        .where('id', '=', space.id)
        .executeTakeFirstOrThrow();
      expect(stored.title).toBe('Unheard');
    }
    expect(held, 'the kept answer held in one of three attempts').toBe(true);
  });
});

describe('a feed that hears nothing', () => {
  let deaf: FastifyInstance;
  let elsewhere: string;
  beforeAll(async () => {
    // Notifications are per database: listening on another one hears none, as a LISTEN through a pooler in transaction mode.
    elsewhere = `${t.database.url.replace(/\/[^/]*$/, '/')}postgres`;
    deaf = await buildOwnApp(testConfig(t.database.url, { databaseListenUrl: elsewhere }));
    await deaf.ready();
  });
  afterAll(async () => {
    await deaf?.close();
  });

  it('is never trusted: every kept answer reads its version', async () => {
    const o = await t.factory.team();
    const url = `/v1/orgs/${o.organization.id}`;
    for (let i = 0; i < 5; i++) expect((await read(deaf, o.admin, url)).statusCode).toBe(200);
    const kept = deaf.httpCache.stats();
    expect(kept.clocksHeard).toBe(false);
    expect(kept.hits).toBeGreaterThanOrEqual(3);
    expect(kept.unread).toBe(0);

    await outside.db
      .updateTable('organizations')
      .set({ title: 'Unheard' })
      .where('id', '=', o.organization.id)
      .execute();
    expect((await read(deaf, o.admin, url)).json().title).toBe('Unheard');
  });
});

describe('the feed itself', () => {
  it('tells which marks an organization’s notification moves, and a lost connection moves them all', async () => {
    const feed = new ListeningClockFeed({ listenUrl: t.database.url, db: t.db, logger: t.app.log });
    try {
      feed.start();
      await eventually('the feed hears its ping', () => feed.heard());
      const mark = feed.mark()!;
      expect(feed.movedSince(mark, 'org-a')).toBe(false);
      expect(feed.movedSince(mark, undefined)).toBe(false);

      await sql`select pg_notify('quire_clocks', 'org-a')`.execute(outside.db);
      await eventually('org-a moves', () => feed.movedSince(mark, 'org-a'));
      expect(feed.movedSince(mark, 'org-b')).toBe(false);
      expect(feed.movedSince(mark, undefined)).toBe(true);

      const second = feed.mark()!;
      await sql`select pg_notify('quire_clocks', '*')`.execute(outside.db);
      await eventually('every organization moves', () => feed.movedSince(second, 'org-b'));

      // Its listening connection ended by the server: nothing holds until it hears its ping again.
      const third = feed.mark()!;
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = 'LISTEN quire_clocks' and pid <> pg_backend_pid()`.execute(
        outside.db,
      );
      await eventually('the feed is no longer heard', () => !feed.heard());
      expect(feed.mark()).toBeUndefined();
      expect(feed.movedSince(third, 'org-b')).toBe(true);
      await eventually('the feed is heard again', () => feed.heard());
      expect(feed.movedSince(third, 'org-b')).toBe(true);
    } finally {
      await feed.close();
    }
  });
});

describe('what moves the clocks of this process', () => {
  it('takes a statement as a write unless it only reads or bounds a transaction', () => {
    for (const text of [
      'select 1',
      '  SELECT * from spaces',
      'begin',
      'commit',
      'rollback',
      'start transaction isolation level serializable',
      'set local statement_timeout = 0',
      'with recursive chain (id) as (select id from spaces) select * from chain',
    ])
      expect(mayWrite(text), text).toBe(false);
    for (const text of [
      'insert into spaces values (1)',
      'update spaces set title = $1',
      'delete from spaces',
      'with gone as (delete from ticks returning *) insert into ticks select * from gone',
      'with x as (select 1) update "spaces" set title = $1',
      'call organization_ticks_watch($1)',
      'truncate spaces',
      '',
    ])
      expect(mayWrite(text), text).toBe(true);
  });

  it('takes a plain insert, update, delete or merge as a write only if its result counts a row', () => {
    expect(writeKind('update jobs set state = $1 where id = $2 returning id')).toBe('rows');
    expect(writeKind('INSERT INTO ticks DEFAULT VALUES')).toBe('rows');
    expect(writeKind('delete from spaces')).toBe('rows');
    expect(writeKind('merge into spaces using x on true when matched then do nothing')).toBe('rows');
    // A with's data-modifying part does not show in its main statement's count.
    expect(writeKind('with gone as (delete from ticks returning *) select count(*) from gone')).toBe('always');
    expect(writeKind('truncate spaces')).toBe('always');
    expect(writeKind('call organization_ticks_watch($1)')).toBe('always');
    expect(writeKind('select 1')).toBe('none');
  });

  it('takes the readers’ page views as no write: no clock follows their table', async () => {
    const row = insightRow(
      { organizationId: 'org', siteId: 'site' },
      'page_view',
      new Date(),
      {
        salt: { day: '2026-11-30', salt: Buffer.alloc(32) },
        visitorKey: 'visitor',
        sessionKey: undefined,
        userAgent: 'Mozilla/5.0',
        language: null,
        referrer: null,
        country: null,
        authenticated: false,
      },
      {
        url: 'https://docs.example.com/s/site/page',
        displayContext: 'site',
        siteSection: null,
        siteSpace: null,
        siteShareKey: null,
        space: null,
        revision: null,
        page: null,
      },
      {},
    );
    // The statement the recorder sends, a batch of views, moves nothing; their purge still counts.
    const batch = insightEventsInsert([row, { ...row, search_query: 'q' }]).compile(t.db).sql;
    expect(writeKind(batch)).toBe('none');
    expect(writeKind('delete from site_insight_events where id in (select id from x)')).toBe('rows');
    expect(writeKind('insert into "site_insight_events_rollup" values (1)')).toBe('rows');
    // What that rests on: no trigger of the table ticks a clock.
    const triggers = await sql<{ tgname: string }>`select tgname from pg_trigger
      where tgrelid = 'site_insight_events'::regclass and not tgisinternal`.execute(t.db);
    expect(triggers.rows).toEqual([]);
  });
});
