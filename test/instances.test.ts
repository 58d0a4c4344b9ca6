import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { createSpace } from '../src/spaces/create.js';
import { schedulePurge } from '../src/spaces/purge-schedule.js';
import { startSpecWorker } from '../src/specs/worker.js';
import { revokeApiToken } from '../src/users/api-token-queries.js';
import { buildOwnApp, listen, testConfig, useTestApp } from './support/app.js';
import { startServerProcess, type RunningServer } from './support/server-process.js';
import type { Account } from './support/factory.js';
import { fixture } from './fixtures/specs/serve.js';

/** The caches' time to live on both instances: short, so that waiting it out is cheap. */
const TTL_MS = 300;
const DAY = 86_400_000;
const RETENTION = 7 * DAY;
const SPECS = { ...testConfig('').specs, pollIntervalMs: 20 };
const overrides = { authCacheTtlMs: TTL_MS, siteCacheTtlMs: TTL_MS, spaceRetentionMs: RETENTION, specs: SPECS };

// Two instances on one database, each with its own pool, caches and workers, each listening on its own port.
const t = useTestApp({ config: overrides });
let other: FastifyInstance;
let bases: string[] = [];
const instances = () => [t.app, other];

beforeAll(async () => {
  other = await buildOwnApp(testConfig(t.database.url, overrides));
  await other.ready();
  bases = [await listen(t.app), await listen(other)];
  // Each instance starts its conversion threads now, not under the first test's load: on a busy machine a
  // thread may take longer to start than a request waits for one (a 503 then, which the tests refuse).
  const { admin, organization } = await t.factory.team();
  const space = ok(await send(0, admin, 'POST', `/orgs/${organization.id}/spaces`, { title: 'Warm-up' }), 201);
  const warm = async (on: number) => {
    const deadline = Date.now() + 100_000;
    for (;;) {
      const answer = await send(on, admin, 'POST', `/spaces/${space.id}/comments`, { body: { markdown: '*Warm*' } });
      if (answer.status !== 503 || Date.now() > deadline) return ok(answer);
    }
  };
  await Promise.all([0, 1, 0, 1].map(warm));
  serverErrors.splice(0);
}, 120_000);

afterAll(async () => {
  await other?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Answer {
  status: number;
  body: ReturnType<typeof JSON.parse>;
  /** The request and its answer, for failure messages. */
  what: string;
}

/** Every 5xx any request of a test got: there must be none. */
const serverErrors: string[] = [];
afterEach(() => {
  expect(serverErrors.splice(0)).toEqual([]);
});

/** A request over HTTP to instance `on % 2`. */
async function send(on: number, account: Account | null, method: Method, path: string, payload?: unknown) {
  const headers: Record<string, string> = { ...account?.headers };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${bases[on % 2]}/v1${path}`, {
    method,
    headers,
    ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
  });
  const text = await response.text();
  const what = `${method} ${path} on instance ${on % 2}: ${response.status} ${text.slice(0, 300)}`;
  if (response.status >= 500) serverErrors.push(what);
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, body: json && text ? JSON.parse(text) : undefined, what } as Answer;
}

/** The body of an answer that must have this status. */
function ok(answer: Answer, status = 200) {
  expect(answer.status, answer.what).toBe(status);
  return answer.body;
}

/** An answer to a request that raced another one for the same thing: either outcome, never a 5xx. */
function settled(answer: Answer, statuses: number[]) {
  expect(statuses, answer.what).toContain(answer.status);
  return answer;
}

/** Runs the tasks `width` at a time. */
async function inParallel<T>(tasks: Array<() => Promise<T>>, width = 8): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
  return results;
}

/** Both requests at the same moment, one on each instance. */
const race = (first: () => Promise<Answer>, second: () => Promise<Answer>) => Promise.all([first(), second()]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * A wait past the time to live of whatever an instance cached before it: a timer may fire a
 * millisecond before the clock the caches read says it is due.
 */
const pastTtl = () => sleep(TTL_MS + 50);

/** Waits until `check` holds; the deadline is generous, for a machine whose cores other work shares. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * Mixed reads and writes on a space and its organization, spread over both
 * instances, for as long as `work` runs. Their 5xx, if any, fail the test.
 */
async function underLoad<T>(account: Account, space: { id: string; organization: string }, work: () => Promise<T>) {
  let running = true;
  let sent = 0;
  const lane = async () => {
    while (running) {
      const n = sent++;
      if (n % 4 === 0) await send(n, account, 'GET', `/spaces/${space.id}`);
      else if (n % 4 === 1) await send(n, account, 'GET', `/orgs/${space.organization}/spaces?limit=20`);
      else if (n % 4 === 2)
        await send(n, account, 'POST', `/spaces/${space.id}/comments`, { body: { markdown: 'Load' } });
      else await send(n, account, 'GET', `/spaces/${space.id}/comments?limit=10`);
    }
  };
  const lanes = [lane(), lane(), lane()];
  try {
    return await work();
  } finally {
    running = false;
    await Promise.all(lanes);
    expect(sent).toBeGreaterThan(0);
  }
}

type LogEntry = Record<string, unknown> & { level: number; msg: string };

/** A logger that keeps its entries, for a worker of one instance. */
function keptLogger() {
  const entries: LogEntry[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void entries.push(JSON.parse(line) as LogEntry) });
  return { entries, logger };
}

const rowsLeft = async (table: 'spaces' | 'comments', column: 'id' | 'space_id', ids: string[]) =>
  ids.length === 0 ? 0 : (await t.db.selectFrom(table).select(column).where(column, 'in', ids).execute()).length;

describe('jobs that run once however many instances run them', () => {
  it('purges each expired space once and stores each spec version once, with both instances’ purge and spec worker running under load', async () => {
    const { admin, organization } = await t.factory.team();
    const org = organization.id;
    const live = ok(await send(0, admin, 'POST', `/orgs/${org}/spaces`, { title: 'Live' }), 201);
    const made = await inParallel(
      Array.from({ length: 16 }, (_, i) => () => send(i, admin, 'POST', `/orgs/${org}/spaces`, { title: `Old ${i}` })),
    );
    const expired = made.map((answer) => ok(answer, 201).id as string);
    const recent = ok(await send(1, admin, 'POST', `/orgs/${org}/spaces`, { title: 'Recent' }), 201).id as string;
    await inParallel(
      expired.slice(0, 8).map((id, i) => async () => {
        ok(await send(i, admin, 'POST', `/spaces/${id}/comments`, { body: { markdown: 'Goes with its space' } }));
      }),
    );
    await inParallel(
      [...expired, recent].map((id, i) => async () => ok(await send(i, admin, 'DELETE', `/spaces/${id}`), 205)),
    );
    // Deleted past the retention, as if eight days had gone by since.
    await t.db
      .updateTable('spaces')
      .set({ deleted_at: new Date(Date.now() - RETENTION - DAY) })
      .where('id', 'in', expired)
      .execute();

    const logs = instances().map(() => keptLogger());
    const slugs = Array.from({ length: 6 }, (_, i) => `shared-${i}`);
    const specText = (version: string) => fixture('petstore.json').replace('1.0.0', version);
    const publish = (on: number, slug: string, version: string) =>
      send(on, admin, 'PUT', `/orgs/${org}/openapi/${slug}`, { source: { text: specText(version) } });
    const versionsOf = async (on: number, slug: string) =>
      ok(await send(on, admin, 'GET', `/orgs/${org}/openapi/${slug}/versions`)).count as number;
    const settledSpecs = async (versions: number) => {
      const jobs = await t.db.selectFrom('openapi_spec_jobs').select('id').execute();
      if (jobs.length > 0) return false;
      const counts = await Promise.all(slugs.map((slug, i) => versionsOf(i, slug)));
      return counts.every((count) => count === versions);
    };

    const stops = instances().map((app, i) =>
      schedulePurge(app.context, { pattern: '*/1 * * * * *', batchSize: 3 }, logs[i]!.logger),
    );
    const workers = instances().map((app, i) =>
      startSpecWorker(app.context, { log: logs[i]!.logger, retryBaseMs: 20 }),
    );
    try {
      await underLoad(admin, live, async () => {
        await inParallel(slugs.map((slug, i) => async () => ok(await publish(i, slug, '1.0.0'))));
        await until('the purge', async () => (await rowsLeft('spaces', 'id', expired)) === 0);
        await until('the first versions', () => settledSpecs(1));
        // A change published twice at once, once on each instance: one new version each.
        await inParallel(slugs.flatMap((slug) => [0, 1].map((on) => async () => ok(await publish(on, slug, '2.0.0')))));
        await until('the second versions', () => settledSpecs(2));
      });
    } finally {
      for (const stop of stops) stop();
      await Promise.all(workers.map((worker) => worker.stop()));
    }

    const entries = logs.flatMap((log) => log.entries);
    expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
    const purged = entries
      .filter((entry) => entry.msg === 'purged deleted spaces')
      .flatMap((entry) => (entry.spaces as Array<{ id: string }>).map((space) => space.id));
    expect(new Set(purged).size, 'a space purged twice').toBe(purged.length);
    expect(purged.filter((id) => expired.includes(id)).sort()).toEqual([...expired].sort());
    expect(purged).not.toContain(recent);
    expect(await rowsLeft('spaces', 'id', [recent, live.id])).toBe(2);
    expect(await rowsLeft('comments', 'space_id', expired)).toBe(0);

    // Each job ran on one instance only, and each change made one version.
    const jobRuns = entries.filter((entry) => entry.msg === 'processed an OpenAPI spec').map((entry) => entry.job);
    expect(new Set(jobRuns).size, 'a spec job ran twice').toBe(jobRuns.length);
    const stored = await t.db
      .selectFrom('openapi_spec_versions as v')
      .innerJoin('openapi_specs as s', 's.id', 'v.spec_id')
      .select(['s.slug', sql<number>`count(*)::int`.as('n')])
      .where('s.organization_id', '=', org)
      .groupBy('s.slug')
      .execute();
    expect(Object.fromEntries(stored.map((row) => [row.slug, row.n]))).toEqual(
      Object.fromEntries(slugs.map((slug) => [slug, 2])),
    );
  }, 120_000);
});

describe('kept counters under concurrent writes through both instances', () => {
  /** Every counter the API shows for the organization's things, beside a fresh count of the rows. */
  async function expectCountersExact(admin: Account, org: string, step: string) {
    const spaces = await t.db
      .selectFrom('spaces')
      .select(['id', 'parent_id', 'deleted_at'])
      .where('organization_id', '=', org)
      .execute();
    const live = spaces.filter((space) => space.deleted_at === null);
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(t.db)).rows[0]!.n;
    let on = 0;
    const read = async (path: string) => ok(await send(on++, admin, 'GET', path));

    // Each check reads through both instances, several at a time.
    const checks: Array<() => Promise<void>> = [];
    const check = (task: () => Promise<void>) => void checks.push(task);
    for (const space of live) {
      const own = sql<{ n: number }>`select count(*)::int as n from comments
        where space_id = ${space.id} and change_request_id is null`;
      const crs = (status: string) => sql<{ n: number }>`select count(*)::int as n from change_requests
        where space_id = ${space.id} and status = ${status}`;
      check(async () => {
        const shown = await read(`/spaces/${space.id}`);
        expect(
          {
            comments: shown.comments,
            changeRequests: shown.changeRequests,
            changeRequestsOpen: shown.changeRequestsOpen,
            changeRequestsDraft: shown.changeRequestsDraft,
          },
          `${step}: space ${space.id}`,
        ).toEqual({
          comments: await count(sql`${own} and status = 'open'`),
          changeRequests: await count(sql`select count(*)::int as n from change_requests where space_id = ${space.id}`),
          changeRequestsOpen: await count(crs('open')),
          changeRequestsDraft: await count(crs('draft')),
        });
      });
      for (const status of ['all', 'open', 'resolved'] as const) {
        check(async () => {
          const listed = await read(`/spaces/${space.id}/comments?limit=0&status=${status}`);
          const filter = status === 'all' ? sql`` : sql` and status = ${status}`;
          expect(listed.count, `${step}: ${status} comments of ${space.id}`).toBe(await count(sql`${own}${filter}`));
        });
      }
      for (const status of ['draft', 'open', 'archived', 'merged']) {
        check(async () => {
          const listed = await read(`/spaces/${space.id}/change-requests?limit=0&status=${status}`);
          expect(listed.count, `${step}: ${status} change requests of ${space.id}`).toBe(await count(crs(status)));
        });
      }
      // Numbers follow each other in a space, with neither gap nor repeat.
      const numbers = await t.db
        .selectFrom('change_requests')
        .select(['id', 'number'])
        .where('space_id', '=', space.id)
        .orderBy('number')
        .execute();
      expect(numbers.map((row) => row.number)).toEqual(numbers.map((_, i) => i + 1));
      for (const { id } of numbers) {
        const onCr = sql<{ n: number }>`select count(*)::int as n from comments where change_request_id = ${id}`;
        check(async () => {
          const cr = await read(`/spaces/${space.id}/change-requests/${id}`);
          expect(cr.comments, `${step}: comments of change request ${id}`).toBe(
            await count(sql`${onCr} and status = 'open'`),
          );
          const listed = await read(`/spaces/${space.id}/change-requests/${id}/comments?limit=0`);
          expect(listed.count, `${step}: comment list of change request ${id}`).toBe(await count(onCr));
        });
      }
      const comments = await t.db
        .selectFrom('comments')
        .select(['id', 'change_request_id'])
        .where('space_id', '=', space.id)
        .execute();
      for (const comment of comments) {
        const thread = comment.change_request_id
          ? `/spaces/${space.id}/change-requests/${comment.change_request_id}`
          : `/spaces/${space.id}`;
        check(async () => {
          const replies = await count(
            sql`select count(*)::int as n from comment_replies where comment_id = ${comment.id}`,
          );
          const shown = await read(`${thread}/comments/${comment.id}`);
          expect(shown.replies, `${step}: replies of ${comment.id}`).toBe(replies);
          expect((await read(`${thread}/comments/${comment.id}/replies?limit=0`)).count).toBe(replies);
        });
      }
    }

    check(async () => {
      const listed = await read(`/orgs/${org}/spaces?limit=0`);
      expect(listed.count, `${step}: spaces of the organization`).toBe(live.length);
    });
    const collections = await t.db.selectFrom('collections').select('id').where('organization_id', '=', org).execute();
    for (const { id } of collections) {
      check(async () => {
        expect((await read(`/collections/${id}/spaces?limit=0`)).count, `${step}: spaces of collection ${id}`).toBe(
          live.filter((space) => space.parent_id === id).length,
        );
      });
    }

    const members = await t.db
      .selectFrom('organization_members')
      .select(['user_id', 'role'])
      .where('organization_id', '=', org)
      .execute();
    check(async () => {
      const listed = await read(`/orgs/${org}/members?limit=1000`);
      expect(listed.count, `${step}: members`).toBe(members.length);
      for (const member of listed.items as Array<{ user: { id: string }; spaces: number; teams: number }>) {
        const teams = await count(sql`select count(*)::int as n from team_members
          where organization_id = ${org} and user_id = ${member.user.id}`);
        expect(member.teams, `${step}: teams of member ${member.user.id}`).toBe(teams);
        if (members.find((row) => row.user_id === member.user.id)?.role)
          expect(member.spaces, `${step}: spaces of member ${member.user.id}`).toBe(live.length);
      }
    });
    const teams = await t.db.selectFrom('teams').select('id').where('organization_id', '=', org).execute();
    for (const { id } of teams) {
      check(async () => {
        const team = await read(`/orgs/${org}/teams/${id}`);
        expect(team.members, `${step}: members of team ${id}`).toBe(
          await count(sql`select count(*)::int as n from team_members where team_id = ${id}`),
        );
      });
    }
    const sites = await t.db.selectFrom('sites').select('id').where('organization_id', '=', org).execute();
    for (const { id } of sites) {
      check(async () => {
        const site = await read(`/orgs/${org}/sites/${id}`);
        expect(site.siteSpaces, `${step}: site spaces of site ${id}`).toBe(
          await count(sql`select count(*)::int as n from site_spaces ss join spaces s on s.id = ss.space_id
            where ss.site_id = ${id} and s.deleted_at is null`),
        );
      });
    }
    await inParallel(checks, 6);

    // And straight in the database, for what no response shows (deleted spaces' counters).
    const { rows: drifted } = await sql<{ what: string }>`
      select 'space ' || s.id as what from spaces s where s.organization_id = ${org} and (
        s.comments_open_count <> (select count(*) from comments c where c.space_id = s.id and c.change_request_id is null and c.status = 'open')
        or s.comments_total_count <> (select count(*) from comments c where c.space_id = s.id and c.change_request_id is null)
        or s.change_requests_count <> (select count(*) from change_requests r where r.space_id = s.id)
        or s.change_requests_open_count <> (select count(*) from change_requests r where r.space_id = s.id and r.status = 'open')
        or s.change_requests_draft_count <> (select count(*) from change_requests r where r.space_id = s.id and r.status = 'draft'))
      union all
      select 'change request ' || r.id from change_requests r where r.organization_id = ${org} and (
        r.comments_count <> (select count(*) from comments c where c.change_request_id = r.id and c.status = 'open')
        or r.comments_total_count <> (select count(*) from comments c where c.change_request_id = r.id))
      union all
      select 'comment ' || c.id from comments c where c.organization_id = ${org}
        and c.replies_count <> (select count(*) from comment_replies p where p.comment_id = c.id)
      union all
      select 'organization ' || o.id from organizations o where o.id = ${org}
        and (o.live_spaces_count <> (select count(*) from spaces s where s.organization_id = o.id and s.deleted_at is null)
          or o.members_count <> (select count(*) from organization_members m where m.organization_id = o.id))
      union all
      select 'collection ' || k.id from collections k where k.organization_id = ${org}
        and k.live_spaces_count <> (select count(*) from spaces s where s.parent_id = k.id and s.deleted_at is null)
      union all
      select 'site ' || x.id from sites x where x.organization_id = ${org}
        and x.site_spaces_count <> (select count(*) from site_spaces ss join spaces s on s.id = ss.space_id
          where ss.site_id = x.id and s.deleted_at is null)`.execute(t.db);
    expect(
      drifted.map((row) => row.what),
      step,
    ).toEqual([]);
  }

  it('stay equal to the rows they count through a mixed load of racing writes', async () => {
    const team = await t.factory.team(['edit', 'comment']);
    const { admin, organization } = team;
    const org = organization.id;
    const commenter = team.member('comment');
    const editor = team.member('edit');
    const writers = [admin, commenter];
    const box = ok(await send(0, admin, 'POST', `/orgs/${org}/collections`, { title: 'Box' }), 201).id as string;
    const newSpace = async (on: number, title: string, parent?: string) =>
      ok(await send(on, admin, 'POST', `/orgs/${org}/spaces`, { title, ...(parent ? { parent } : {}) }), 201)
        .id as string;
    const [main, second] = await Promise.all([newSpace(0, 'Main'), newSpace(1, 'Second'), newSpace(0, 'Boxed', box)]);
    // Spaces that a site already publishes, and spaces it does not yet, to race their deletion against the site.
    const published = await Promise.all(
      [0, 1, 2, 3].map((i) => newSpace(i, `Published ${i}`, i % 2 ? box : undefined)),
    );
    const unpublished = await Promise.all(
      [0, 1, 2, 3].map((i) => newSpace(i, `Unpublished ${i}`, i % 2 ? box : undefined)),
    );
    const site = ok(
      await send(1, admin, 'POST', `/orgs/${org}/sites`, { title: 'Docs', spaces: [main, ...published] }),
      201,
    ).id as string;
    const siteSpaces = ok(await send(0, admin, 'GET', `/orgs/${org}/sites/${site}/site-spaces?limit=100`))
      .items as Array<{
      id: string;
      space: { id: string };
    }>;
    const invite = ok(await send(1, admin, 'POST', `/orgs/${org}/link-invites`, { role: 'read' }), 201).id as string;
    const writersTeam = ok(
      await send(0, admin, 'PUT', `/orgs/${org}/teams`, { title: 'Writers', members: [editor.user.id] }),
      201,
    ).id as string;
    const joiners = await Promise.all(Array.from({ length: 6 }, () => t.factory.account()));
    const crOnMain = ok(await send(1, editor, 'POST', `/spaces/${main}/change-requests`, { subject: 'First' }), 201)
      .id as string;
    const threads = [`/spaces/${main}`, `/spaces/${main}/change-requests/${crOnMain}`, `/spaces/${second}`];

    // Creations, spread over both instances.
    const posted = await inParallel([
      ...Array.from({ length: 18 }, (_, i) => async () => {
        const thread = threads[i % 3]!;
        const body = ok(await send(i, writers[i % 2]!, 'POST', `${thread}/comments`, { body: { markdown: `C${i}` } }));
        return { kind: 'comment', thread, id: body.id as string };
      }),
      ...Array.from({ length: 8 }, (_, i) => async () => {
        const spaceId = i % 2 ? second : main;
        const body = ok(
          await send(i + 1, editor, 'POST', `/spaces/${spaceId}/change-requests`, { subject: `CR ${i}` }),
          201,
        );
        return { kind: 'change-request', thread: `/spaces/${spaceId}`, id: body.id as string };
      }),
      ...Array.from({ length: 6 }, (_, i) => async () => {
        return { kind: 'space', thread: '', id: await newSpace(i, `Made ${i}`, i % 2 ? box : undefined) };
      }),
      ...joiners.map((joiner, i) => async () => {
        ok(await send(i, joiner, 'POST', `/orgs/${org}/invites/${invite}`));
        return { kind: 'member', thread: '', id: joiner.user.id };
      }),
    ]);
    const of = (kind: string) => posted.filter((item) => item.kind === kind);
    const comments = of('comment');
    const changeRequests = of('change-request');
    const madeSpaces = of('space').map((item) => item.id);
    await expectCountersExact(admin, org, 'after the creations');

    // Writes that race each other, one on each instance, on the same rows.
    const commentAt = (item: { thread: string; id: string }) => `${item.thread}/comments/${item.id}`;
    const races: Array<() => Promise<unknown>> = [
      // Replies on both instances.
      ...comments.flatMap((comment, i) =>
        [0, 1].map((on) => async () => {
          ok(await send(i + on, writers[on]!, 'POST', `${commentAt(comment)}/replies`, { body: { markdown: 'Re' } }));
        }),
      ),
      // The same comment resolved on both instances at once; another resolved on one, reopened on the other.
      ...comments.slice(0, 4).map((comment) => async () => {
        for (const answer of await race(
          () => send(0, admin, 'PUT', commentAt(comment), { resolved: true }),
          () => send(1, admin, 'PUT', commentAt(comment), { resolved: true }),
        ))
          ok(answer);
      }),
      ...comments.slice(4, 7).map((comment) => async () => {
        for (const answer of await race(
          () => send(0, admin, 'PUT', commentAt(comment), { resolved: true }),
          () => send(1, admin, 'PUT', commentAt(comment), { resolved: false }),
        ))
          ok(answer);
      }),
      // Deleted on both instances at once; deleted on one while replied to on the other.
      ...comments.slice(7, 10).map((comment) => async () => {
        const answers = await race(
          () => send(0, admin, 'DELETE', commentAt(comment)),
          () => send(1, admin, 'DELETE', commentAt(comment)),
        );
        expect(answers.map((answer) => answer.status).sort()).toContain(205);
        for (const answer of answers) settled(answer, [205, 404]);
      }),
      ...comments.slice(10, 13).map((comment) => async () => {
        const [deleted, replied] = await race(
          () => send(0, admin, 'DELETE', commentAt(comment)),
          () => send(1, commenter, 'POST', `${commentAt(comment)}/replies`, { body: { markdown: 'Too late?' } }),
        );
        settled(deleted!, [205]);
        settled(replied!, [200, 404]);
      }),
      // A change request opened on both instances; merged on both; archived on one while merged on the other.
      ...changeRequests.slice(0, 2).map((cr) => async () => {
        for (const answer of await race(
          () => send(0, editor, 'PATCH', `${cr.thread}/change-requests/${cr.id}`, { status: 'open' }),
          () => send(1, editor, 'PATCH', `${cr.thread}/change-requests/${cr.id}`, { status: 'open' }),
        ))
          settled(answer, [200, 409]);
      }),
      ...changeRequests.slice(2, 4).map((cr) => async () => {
        const answers = await race(
          () => send(0, editor, 'POST', `${cr.thread}/change-requests/${cr.id}/merge`),
          () => send(1, editor, 'POST', `${cr.thread}/change-requests/${cr.id}/merge`),
        );
        for (const answer of answers) settled(answer, [200, 409]);
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      }),
      ...changeRequests.slice(4, 6).map((cr) => async () => {
        for (const answer of await race(
          () => send(0, editor, 'PATCH', `${cr.thread}/change-requests/${cr.id}`, { status: 'archived' }),
          () => send(1, editor, 'POST', `${cr.thread}/change-requests/${cr.id}/merge`),
        ))
          settled(answer, [200, 409]);
      }),
      // Spaces deleted on both instances at once.
      ...madeSpaces.map((id) => async () => {
        for (const answer of await race(
          () => send(0, admin, 'DELETE', `/spaces/${id}`),
          () => send(1, admin, 'DELETE', `/spaces/${id}`),
        ))
          settled(answer, [205, 404]);
      }),
      // A published space deleted on one instance while its site space is removed on the other, and an
      // unpublished one deleted while it is added to the site.
      ...published.map((id) => async () => {
        const siteSpace = siteSpaces.find((item) => item.space.id === id)!;
        for (const answer of await race(
          () => send(0, admin, 'DELETE', `/orgs/${org}/sites/${site}/site-spaces/${siteSpace.id}`),
          () => send(1, admin, 'DELETE', `/spaces/${id}`),
        ))
          // A site space whose space is deleted is out of the site's structure until the space is restored.
          settled(answer, [205, 404, 409]);
      }),
      ...unpublished.map((id) => async () => {
        for (const answer of await race(
          () => send(0, admin, 'POST', `/orgs/${org}/sites/${site}/site-spaces`, { spaceId: id }),
          () => send(1, admin, 'DELETE', `/spaces/${id}`),
        ))
          settled(answer, [201, 205, 400, 409]);
      }),
      // Members leaving on one instance while teams change on the other.
      ...joiners.slice(0, 3).map((joiner) => async () => {
        for (const answer of await race(
          () => send(0, admin, 'DELETE', `/orgs/${org}/members/${joiner.user.id}`),
          () => send(1, admin, 'PUT', `/orgs/${org}/teams/${writersTeam}/members/${joiner.user.id}`),
        ))
          settled(answer, [204, 400, 404]);
      }),
      ...joiners.slice(3).map((joiner) => async () => {
        for (const answer of await race(
          () => send(0, admin, 'PUT', `/orgs/${org}/teams/${writersTeam}/members/${joiner.user.id}`),
          () => send(1, admin, 'PUT', `/orgs/${org}/teams/${writersTeam}/members/${joiner.user.id}`),
        ))
          settled(answer, [204]);
      }),
    ];
    await inParallel(races, 8);
    await expectCountersExact(admin, org, 'after the races');

    // Spaces restored on one instance while the other comments and opens change requests.
    const restored = madeSpaces.slice(0, 3);
    await inParallel(
      restored.flatMap((id, i) => [
        async () => ok(await send(i, admin, 'POST', `/spaces/${id}/restore`)),
        async () => ok(await send(i + 1, admin, 'POST', `/spaces/${main}/comments`, { body: { markdown: 'More' } })),
        async () => ok(await send(i + 1, editor, 'POST', `/spaces/${second}/change-requests`, {}), 201),
      ]),
    );
    await expectCountersExact(admin, org, 'after the restores');
  }, 120_000);

  it('count a site’s spaces exactly when a space is deleted on one instance while another adds it to the site', async () => {
    const { admin, organization } = await t.factory.team();
    const org = organization.id;
    const spaceId = ok(await send(0, admin, 'POST', `/orgs/${org}/spaces`, { title: 'Raced' }), 201).id as string;
    const publishing = ok(
      await send(0, admin, 'POST', `/orgs/${org}/sites`, { title: 'Has it', spaces: [spaceId] }),
      201,
    ).id as string;
    const target = ok(await send(1, admin, 'POST', `/orgs/${org}/sites`, { title: 'Gets it' }), 201).id as string;

    // Hold the site that already publishes the space, so that the deletion stops inside its transaction,
    // after it has counted the space's site spaces, until it is let go.
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM sites WHERE id = $1 FOR UPDATE', [publishing]);
      const deleting = send(1, admin, 'DELETE', `/spaces/${spaceId}`);
      const waiting = async () =>
        (
          await holder.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0]!.n;
      await until('the deletion to wait', async () => (await waiting()) >= 1, 15_000);
      const adding = send(0, admin, 'POST', `/orgs/${org}/sites/${target}/site-spaces`, { spaceId });
      // The addition waits for the deletion under way, and then finds the space in the trash.
      await until('the addition to wait', async () => (await waiting()) >= 2, 15_000);
      await holder.query('COMMIT');
      ok(await deleting, 205);
      expect(ok(await adding, 400).error.message).toBe(`body/spaceId/0: no space "${spaceId}" in this organization`);
    } finally {
      await holder.end();
    }
    await expectCountersExact(admin, org, 'after the race');
    expect(ok(await send(1, admin, 'GET', `/orgs/${org}/sites/${target}`)).siteSpaces).toBe(0);
  });
});

describe('paging across instances', () => {
  it('a cursor made by one instance is taken by the other, and no item shows twice or goes missing while both insert', async () => {
    const { admin, organization } = await t.factory.team();
    const org = organization.id;
    // Made straight in the database, fifteen to a millisecond: pages end inside ties, broken by id.
    const existing: string[] = [];
    const start = Date.now() - 60_000;
    for (let i = 0; i < 45; i++) {
      const clock = { now: () => new Date(start + Math.floor(i / 15)) };
      const space = await createSpace(t.db, clock, {
        organizationId: org,
        parentId: null,
        title: `Existing ${i}`,
        emoji: null,
        editMode: 'live',
        visibility: 'private',
      });
      existing.push(space.id);
    }
    const host = existing[0]!;
    const existingComments = await inParallel(
      Array.from({ length: 24 }, (_, i) => async () => {
        const posted = ok(await send(i, admin, 'POST', `/spaces/${host}/comments`, { body: { markdown: `Old ${i}` } }));
        return posted.id as string;
      }),
    );

    let inserting = true;
    let inserted = 0;
    const inserter = (async () => {
      for (let i = 0; inserting; i++) {
        const [space, comment] = await Promise.all([
          send(i, admin, 'POST', `/orgs/${org}/spaces`, { title: `New ${i}` }),
          send(i + 1, admin, 'POST', `/spaces/${host}/comments`, { body: { markdown: `New ${i}` } }),
        ]);
        ok(space, 201);
        ok(comment);
        inserted += 2;
      }
    })();

    /** Every page of a list, each asked of the instance that did not make its cursor. */
    async function pageThrough(path: string, limit: number, order: 'asc' | 'desc') {
      const ids: string[] = [];
      const cursors: string[] = [];
      let cursor: string | undefined;
      for (let n = order === 'asc' ? 1 : 0; ; n++) {
        const query = `limit=${limit}&order=${order}${cursor ? `&page=${cursor}` : ''}`;
        const page = ok(await send(n, admin, 'GET', `${path}?${query}`));
        ids.push(...(page.items as Array<{ id: string }>).map((item) => item.id));
        cursor = page.next?.page as string | undefined;
        // Oldest first, the list grows as it is read: it ends once the reader catches up with the writer.
        if (!cursor || ids.length > 300) return { ids, cursors };
        cursors.push(cursor);
      }
    }
    let lists: Array<{ ids: string[]; cursors: string[] }>;
    try {
      lists = await Promise.all([
        pageThrough(`/orgs/${org}/spaces`, 4, 'desc'),
        pageThrough(`/spaces/${host}/comments`, 3, 'desc'),
        // 24 comments were there before, 4 to a page: at least five cursors however fast the reader is.
        pageThrough(`/spaces/${host}/comments`, 4, 'asc'),
      ]);
    } finally {
      inserting = false;
      await inserter;
    }
    expect(inserted).toBeGreaterThan(0);

    const [spaces, newestComments, oldestComments] = lists;
    const sortedIds = async (table: 'spaces' | 'comments', ids: string[], order: 'asc' | 'desc') => {
      const column = table === 'spaces' ? 'created_at' : 'posted_at';
      const rows = await t.db
        .selectFrom(table)
        .select('id')
        .where('id', 'in', ids)
        .orderBy(column, order)
        .orderBy('id', order)
        .execute();
      return rows.map((row) => row.id);
    };
    for (const [list, table, before, order] of [
      [spaces!, 'spaces', existing, 'desc'],
      [newestComments!, 'comments', existingComments, 'desc'],
      [oldestComments!, 'comments', existingComments, 'asc'],
    ] as const) {
      expect(list.cursors.length).toBeGreaterThan(4);
      expect(new Set(list.ids).size, `an item of ${table} listed twice`).toBe(list.ids.length);
      expect(list.ids, `an item of ${table} that was there before is missing`).toEqual(expect.arrayContaining(before));
      expect(list.ids, `${table} out of order`).toEqual(await sortedIds(table, list.ids, order));
    }
    // Newest first, nothing made once paging was under way shows: all but the first page are the older items.
    expect(spaces!.ids.slice(4).every((id) => existing.includes(id))).toBe(true);

    // A cursor is good on every instance with the same SECRET_KEY, and only there.
    const cursor = spaces!.cursors[0]!;
    for (const on of [0, 1]) ok(await send(on, admin, 'GET', `/orgs/${org}/spaces?limit=4&page=${cursor}`));
    for (const on of [0, 1]) ok(await send(on, admin, 'GET', `/spaces/${host}/comments?limit=4&page=${cursor}`), 400);
    const foreign = await buildOwnApp(
      testConfig(t.database.url, { secretKey: 'another-secret-key-another-secret-key-0' }),
    );
    try {
      const res = await foreign.inject({
        method: 'GET',
        url: `/v1/orgs/${org}/spaces?limit=4&page=${cursor}`,
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(400);
    } finally {
      await foreign.close();
    }
  }, 120_000);
});

// What an instance cached is read again once its time to live has passed since it was cached, which is
// before the change: a wait of that long, then one look, shows it, however late the look comes.
describe('what each instance keeps in memory', () => {
  it('a revoked token stops working on every instance within AUTH_CACHE_TTL_MS', async () => {
    const { admin, organization } = await t.factory.team();
    const space = ok(await send(0, admin, 'POST', `/orgs/${organization.id}/spaces`, { title: 'Load' }), 201);
    const caller = await t.factory.account();
    await t.factory.member(organization.id, caller.user.id, 'read');
    await underLoad(admin, space, async () => {
      // Instance 1 has the token in its cache; instance 0 has never seen it.
      ok(await send(1, caller, 'GET', `/orgs/${organization.id}`));
      // Revoked as `tokens revoke` does: there is no API route for it.
      expect(await revokeApiToken(t.app.context.db, systemClock, caller.tokenId)).toBe(caller.tokenId);
      ok(await send(0, caller, 'GET', `/orgs/${organization.id}`), 401);
      // Instance 1's cached lookup is past its time to live, and it stays refused on instance 0.
      await pastTtl();
      for (const on of [1, 0]) {
        ok(await send(on, caller, 'GET', `/orgs/${organization.id}`), 401);
        ok(await send(on, caller, 'GET', '/user'), 401);
      }
    });
  });

  it('a member removed, or given a weaker role, on one instance is refused at once on the other', async () => {
    const team = await t.factory.team(['edit', 'admin']);
    const { admin, organization } = team;
    const org = organization.id;
    const removed = team.member('edit');
    const demoted = team.member('admin');
    const space = ok(await send(0, admin, 'POST', `/orgs/${org}/spaces`, { title: 'Private' }), 201);
    await underLoad(admin, space, async () => {
      for (const account of [removed, demoted]) {
        ok(await send(1, account, 'GET', `/orgs/${org}`));
        ok(await send(1, account, 'GET', `/spaces/${space.id}`));
      }
      ok(await send(0, admin, 'DELETE', `/orgs/${org}/members/${removed.user.id}`), 204);
      ok(await send(0, admin, 'PATCH', `/orgs/${org}/members/${demoted.user.id}`, { role: 'read' }));
      for (const on of [1, 0]) {
        ok(await send(on, removed, 'GET', `/orgs/${org}`), 404);
        ok(await send(on, removed, 'GET', `/spaces/${space.id}`), 404);
        ok(await send(on, demoted, 'PATCH', `/spaces/${space.id}`, { title: 'Not mine to change' }), 403);
        ok(await send(on, demoted, 'DELETE', `/spaces/${space.id}`), 403);
        // Their token itself is still good: only what the membership gave is gone.
        ok(await send(on, removed, 'GET', '/user'));
      }
    });
  });

  it('a site changed on one instance shows on the other within SITE_CACHE_TTL_MS, and at once on the one that changed it', async () => {
    const { admin, organization } = await t.factory.team();
    const org = organization.id;
    const space = ok(await send(0, admin, 'POST', `/orgs/${org}/spaces`, { title: 'Guide' }), 201);
    const site = ok(await send(0, admin, 'POST', `/orgs/${org}/sites`, { title: 'Docs', spaces: [space.id] }), 201);
    ok(await send(0, admin, 'POST', `/orgs/${org}/sites/${site.id}/publish`));
    const published = `/orgs/${org}/sites/${site.id}/published`;
    const shown = async (on: number) => {
      const body = ok(await send(on, admin, 'GET', published));
      return { site: body.site.title as string, space: body.structure.structure[0].space.title as string };
    };
    await underLoad(admin, space, async () => {
      expect(await shown(1)).toEqual({ site: 'Docs', space: 'Guide' });
      ok(await send(0, admin, 'PATCH', `/orgs/${org}/sites/${site.id}`, { title: 'Handbook' }));
      ok(await send(0, admin, 'PATCH', `/spaces/${space.id}`, { title: 'Manual' }));
      expect(await shown(0)).toEqual({ site: 'Handbook', space: 'Manual' });
      await pastTtl();
      expect(await shown(1)).toEqual({ site: 'Handbook', space: 'Manual' });
    });
  });
});

/** Server processes still running, stopped after the file even if a test fails half-way. */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts `src/server.ts` as its own process, killed after the tests if still running. */
async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServerProcess(env);
  children.add(server.child);
  server.child.once('exit', () => children.delete(server.child));
  return server;
}

/** A database with nothing in it, not even the migrations, dropped with the run's others if not before. */
async function emptyDatabase() {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `${inject('databasePrefix')}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // The name is made here from hex digits only.
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

describe('two service processes on one new database', () => {
  it('migrate and bootstrap once, agree on the cursor secret, and purge and process specs once', async () => {
    const database = await emptyDatabase();
    const servers: RunningServer[] = [];
    const client = new pg.Client({ connectionString: database.url });
    try {
      // Started together, without SECRET_KEY: the secret both sign cursors with is the one kept in the database.
      const env = {
        DATABASE_URL: database.url,
        PURGE_SCHEDULE: '*/1 * * * * *',
        SPEC_POLL_INTERVAL_MS: '20',
        AUTH_CACHE_TTL_MS: String(TTL_MS),
      };
      servers.push(...(await Promise.all([startServer(env), startServer(env)])));
      const tokens = servers.flatMap((server) => server.logs.filter((entry) => typeof entry.token === 'string'));
      expect(tokens).toHaveLength(1);
      const organizationId = String(tokens[0]!.organizationId);
      const headers = { authorization: `Bearer ${String(tokens[0]!.token)}`, 'content-type': 'application/json' };
      const call = async (on: number, method: Method, path: string, payload?: unknown) => {
        const response = await fetch(`${servers[on % 2]!.baseUrl}/v1${path}`, {
          method,
          headers: payload === undefined ? { authorization: headers.authorization } : headers,
          ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
        });
        const text = await response.text();
        return {
          status: response.status,
          body: text ? JSON.parse(text) : undefined,
          what: `${method} ${path}: ${text}`,
        };
      };

      const made = await Promise.all(
        Array.from({ length: 6 }, (_, i) => call(i, 'POST', `/orgs/${organizationId}/spaces`, { title: `S${i}` })),
      );
      const ids = made.map((answer) => ok(answer, 201).id as string);
      const [kept, ...doomed] = ids;
      for (const [i, id] of doomed.entries()) ok(await call(i, 'DELETE', `/spaces/${id}`), 205);
      await client.connect();
      await client.query(`UPDATE spaces SET deleted_at = now() - interval '8 days' WHERE id = ANY($1)`, [doomed]);
      const slugs = ['one', 'two', 'three', 'four'];
      for (const [i, slug] of slugs.entries()) {
        const text = fixture('petstore.json');
        ok(await call(i, 'PUT', `/orgs/${organizationId}/openapi/${slug}`, { source: { text } }));
      }
      const left = async () =>
        (
          await client.query<{ spaces: number; jobs: number; versions: number }>(
            `SELECT (SELECT count(*)::int FROM spaces WHERE id = ANY($1)) AS spaces,
               (SELECT count(*)::int FROM openapi_spec_jobs) AS jobs,
               (SELECT count(*)::int FROM openapi_spec_versions) AS versions`,
            [doomed],
          )
        ).rows[0]!;
      await until('the purge', async () => (await left()).spaces === 0);
      await until('the specs', async () => {
        const { jobs, versions } = await left();
        return jobs === 0 && versions === slugs.length;
      });

      // One list, paged on both processes.
      ok(await call(0, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Another' }), 201);
      const first = ok(await call(0, 'GET', `/orgs/${organizationId}/spaces?limit=1`));
      const second = ok(await call(1, 'GET', `/orgs/${organizationId}/spaces?limit=1&page=${first.next.page}`));
      expect(second.items.map((space: { id: string }) => space.id)).toEqual([kept]);

      const entries = servers.flatMap((server) => server.logs);
      expect(entries.filter((entry) => Number(entry.level) >= 50)).toEqual([]);
      const purged = entries
        .filter((entry) => entry.msg === 'purged deleted spaces')
        .flatMap((entry) => (entry.spaces as Array<{ id: string }>).map((space) => space.id));
      expect(purged.sort()).toEqual([...doomed].sort());
      const jobs = entries.filter((entry) => entry.msg === 'processed an OpenAPI spec').map((entry) => entry.job);
      expect(jobs).toHaveLength(slugs.length);
      expect(new Set(jobs).size).toBe(slugs.length);
    } finally {
      await Promise.all(
        servers.map(async (server) => {
          const exited = once(server.child, 'exit');
          server.child.kill('SIGTERM');
          expect((await exited)[0]).toBe(0);
        }),
      );
      await client.end().catch(() => {});
      await database.drop();
    }
  }, 180_000);
});
