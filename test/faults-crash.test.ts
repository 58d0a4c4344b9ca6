import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { startServerProcess, type RunningServer } from './support/server-process.js';
import { contentApi, flatten } from './support/content.js';
import type { Account } from './support/factory.js';
import { rowsInSpace, type SpaceTable } from './support/rows.js';
import { fixture, serveSpecs, type SpecServer } from './fixtures/specs/serve.js';

const t = useTestApp();
const api = contentApi(() => t.app);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `src/server.ts` as its own process on the test database, and waits until it listens. */
function startServer(name: string, env: Record<string, string> = {}): Promise<RunningServer> {
  // Its connections carry its name, so the test can tell them apart in pg_stat_activity.
  const databaseUrl = new URL(t.database.url);
  databaseUrl.searchParams.set('application_name', name);
  return startServerProcess({
    DATABASE_URL: databaseUrl.toString(),
    OUTBOUND_ALLOW_PRIVATE: 'true',
    SPEC_POLL_INTERVAL_MS: '100',
    CONVERSION_THREADS: '1',
    ...env,
  });
}

async function kill(server: RunningServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGKILL');
  await exited;
}

/** Polls `probe` until it gives something other than undefined. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The backends of the named server, with what they are doing. */
async function backendsOf(name: string) {
  const { rows } = await sql<{
    pid: number;
    state: string | null;
    wait_event_type: string | null;
    query: string;
    writing: boolean;
  }>`select pid, state, wait_event_type, query, backend_xid is not null as writing
     from pg_stat_activity where datname = current_database() and application_name = ${name}`.execute(t.db);
  return rows;
}

function post(server: RunningServer, account: Account, path: string, payload?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...account.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
}

const PAGES = 30;
const markdownOf = (title: string, edit: string) => `${edit} text of ${title}.\n`;

/** A space with PAGES pages, and change requests that update them all and add as many again. */
async function spaceWithChangeRequests(admin: Account, organizationId: string) {
  const space = await api.createSpace(admin, organizationId, { title: 'Merged under fire' });
  const titles = Array.from({ length: PAGES }, (_, i) => `Page ${i}`);
  const { written } = await api.change(
    admin,
    space.id,
    titles.map((title) => ({ operation: 'insert_page', title, document: { markdown: markdownOf(title, 'First') } })),
  );
  const pageIds = (written.changes as Array<{ page: { id: string } }>).map((change) => change.page.id);

  const open = async (subject: string, changes: unknown[]) => {
    const id = await api.openChangeRequest(admin, space.id, subject);
    // A write takes at most 50 changes.
    for (let i = 0; i < changes.length; i += 50) {
      const res = await api.writeContent(admin, space.id, id, changes.slice(i, i + 50), { compat: 'false' });
      expect(res.statusCode, res.body).toBe(200);
    }
    return id;
  };
  const edits = await open('Edit everything', [
    ...pageIds.map((page, i) => ({
      operation: 'update_page',
      page,
      document: { markdown: markdownOf(titles[i]!, 'Second') },
    })),
    ...titles.map((title) => ({
      operation: 'insert_page',
      title: `${title} appendix`,
      document: { markdown: markdownOf(`${title} appendix`, 'New') },
    })),
  ]);
  const additions = await open(
    'Add more',
    Array.from({ length: PAGES * 3 }, (_, i) => ({
      operation: 'insert_page',
      title: `Extra ${i}`,
      document: { markdown: markdownOf(`Extra ${i}`, 'Extra') },
    })),
  );
  return { space, pageIds, titles, edits, additions };
}

/** Statements of a merge after it wrote its revision: killed at one of them, the merge has written much and committed nothing. */
const MERGE_WRITES = /insert into "revisions"|"tree_entries"|search_sections/;

const SPACE_LINE_TABLES = ['revisions', 'tree_entries', 'change_requests'] as const;

/**
 * The space as it stands: its current revision is either the one it had or
 * one the change request's merge made whole, the change request agrees, and
 * every page reads back.
 */
async function expectWhole(
  admin: Account,
  spaceId: string,
  changeRequestId: string,
  before: { revision: string; titles: string[] },
  mergedTitles: string[],
): Promise<'merged' | 'not merged'> {
  const space = await t.db
    .selectFrom('spaces')
    .select(['revision_id', 'change_requests_open_count', 'change_requests_draft_count', 'change_requests_count'])
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  const changeRequest = await t.db
    .selectFrom('change_requests')
    .select(['status', 'revision_merged_id'])
    .where('id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  const mergeRevisions = await t.db
    .selectFrom('revisions')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('merged_from', '=', changeRequestId)
    .execute();
  // The space's line ends at its current revision: nothing was left past it.
  const line = await t.db
    .selectFrom('revisions')
    .select(['id', 'seq'])
    .where('space_id', '=', spaceId)
    .where('change_request_id', 'is', null)
    .orderBy('seq', 'desc')
    .execute();
  expect(line[0]!.id).toBe(space.revision_id);

  const statuses = await t.db.selectFrom('change_requests').select('status').where('space_id', '=', spaceId).execute();
  const count = (status: string) => statuses.filter((row) => row.status === status).length;
  expect(space).toMatchObject({
    change_requests_open_count: count('open'),
    change_requests_draft_count: count('draft'),
    change_requests_count: statuses.length,
  });

  const pages = await api.read(admin, `/v1/spaces/${spaceId}/content/pages`);
  expect(pages.statusCode).toBe(200);
  const titles = flatten(pages.json().pages).map((page) => page.title);
  if (space.revision_id === before.revision) {
    expect(changeRequest).toEqual({ status: expect.not.stringMatching(/^merged$/), revision_merged_id: null });
    expect(mergeRevisions).toEqual([]);
    expect(titles.sort()).toEqual([...before.titles].sort());
    return 'not merged';
  }
  expect(changeRequest).toEqual({ status: 'merged', revision_merged_id: space.revision_id });
  expect(mergeRevisions).toEqual([{ id: space.revision_id }]);
  expect(titles.sort()).toEqual([...before.titles, ...mergedTitles].sort());
  return 'merged';
}

describe('a crash of the service process', () => {
  let spec: SpecServer;
  const held: ServerResponse[] = [];
  let first: RunningServer | undefined;
  let second: RunningServer | undefined;
  let locker: pg.Client;

  beforeAll(async () => {
    // The spec's first fetch never ends (its worker dies meanwhile); later ones are answered.
    spec = await serveSpecs({
      '/petstore.json': (response) => {
        if (held.length === 0) held.push(response.writeHead(200, { 'content-type': 'application/json' }));
        else response.writeHead(200, { 'content-type': 'application/json' }).end(fixture('petstore.json'));
      },
    });
    locker = new pg.Client({ connectionString: t.database.url });
    await locker.connect();
  });
  afterAll(async () => {
    await kill(first);
    await kill(second);
    await locker?.end();
    await spec?.close();
  });

  it(
    'leaves no half-written merge or purge, and the next instance finishes the merge, the purge and the spec job',
    { timeout: 240_000 },
    async () => {
      const { admin, organization } = await t.factory.team();
      const { space, pageIds, titles, edits, additions } = await spaceWithChangeRequests(admin, organization.id);
      const before = {
        revision: (await api.read(admin, `/v1/spaces/${space.id}`)).json().revision as string,
        titles,
      };
      const searchRows = async () =>
        Number(
          (
            await t.db
              .selectFrom('search_sections')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('space_id', '=', space.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const lineRows = async () =>
        Object.fromEntries(
          await Promise.all(SPACE_LINE_TABLES.map(async (table) => [table, await rowsInSpace(t.db, table, space.id)])),
        );
      const rowsBefore = { ...(await lineRows()), search: await searchRows() };

      // Spaces deleted past the retention, with content, for the purge.
      const expired: string[] = [];
      for (let i = 0; i < 3; i++) {
        const doomed = await api.createSpace(admin, organization.id, { title: `Expired ${i}` });
        await api.change(admin, doomed.id, [{ operation: 'insert_page', title: 'Doomed', document: {} }]);
        expired.push(doomed.id);
      }
      await t.db
        .updateTable('spaces')
        .set({ deleted_at: new Date(Date.now() - 30 * 86_400_000) })
        .where('id', 'in', expired)
        .execute();

      // Held rows stop the first instance mid-way: its merge at the search index, its purge in the cascade.
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM search_sections WHERE space_id = $1 AND page_id = $2 FOR UPDATE', [
        space.id,
        pageIds[0],
      ]);
      await locker.query('SELECT 1 FROM revisions WHERE space_id = $1 FOR UPDATE', [expired[1]]);

      // Statements wait on the held rows, and the fetch on the spec, as long as the test needs.
      first = await startServer('quire-first', {
        DATABASE_STATEMENT_TIMEOUT_MS: '0',
        OUTBOUND_TIMEOUT_MS: '120000',
        SPEC_FETCH_TIMEOUT_MS: '120000',
      });
      const published = await fetch(`${first.baseUrl}/v1/orgs/${organization.id}/openapi/petstore`, {
        method: 'PUT',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ source: { url: `${spec.url}/petstore.json` } }),
      });
      expect(published.status).toBe(200);
      const specId = ((await published.json()) as { id: string }).id;
      const job = () =>
        t.db.selectFrom('openapi_spec_jobs').select(['state', 'attempts']).where('spec_id', '=', specId).execute();
      await waitFor('the spec fetch', async () => (held.length > 0 ? true : undefined));
      expect(await job()).toEqual([{ state: 'running', attempts: 1 }]);

      const merging = post(first, admin, `/v1/spaces/${space.id}/change-requests/${edits}/merge`).catch(
        (error: Error) => error,
      );
      const stuck = await waitFor('the merge and the purge to wait on the held rows', async () => {
        const waiting = (await backendsOf('quire-first')).filter((backend) => backend.wait_event_type === 'Lock');
        const merge = waiting.find((backend) => /search_sections/.test(backend.query));
        const purge = waiting.find((backend) => /delete from "spaces"/i.test(backend.query));
        return merge && purge ? { merge, purge } : undefined;
      });
      // Both were writing when the process died.
      expect(stuck.merge.writing).toBe(true);

      // The next instance starts while the first one still holds the purge's lock and the job's lease.
      second = await startServer('quire-second', { PURGE_SCHEDULE: '* * * * * *' });
      await kill(first);
      // The job still names the dead worker, until its lease runs out.
      expect(await job()).toEqual([{ state: 'running', attempts: 1 }]);
      expect(await merging).toBeInstanceOf(Error);
      await locker.query('COMMIT');
      await waitFor('the first instance’s connections to end', async () =>
        (await backendsOf('quire-first')).length === 0 ? true : undefined,
      );

      // Nothing of the merge is left: the space, its line, its search rows and the change request are as they were.
      expect(await expectWhole(admin, space.id, edits, before, [])).toBe('not merged');
      expect({ ...(await lineRows()), search: await searchRows() }).toEqual(rowsBefore);

      // The second instance purges, once the first one's lock went with its transaction.
      const tables: SpaceTable[] = ['revisions', 'tree_entries', 'documents', 'change_requests'];
      await waitFor('the purge', async () =>
        (await t.db.selectFrom('spaces').select('id').where('id', 'in', expired).execute()).length === 0
          ? true
          : undefined,
      );
      for (const id of expired) {
        for (const table of tables) expect(await rowsInSpace(t.db, table, id)).toBe(0);
      }
      // Its log line comes through the child's stdout, which may arrive after the database shows the purge.
      await waitFor('the purge’s log line', async () =>
        second!.logs.some((entry) => entry.msg === 'purged deleted spaces') ? true : undefined,
      );

      // Once the dead worker's lease runs out (brought forward here, if this machine was not slow enough), the second instance takes the job.
      await t.db
        .updateTable('openapi_spec_jobs')
        .set({ locked_until: sql<Date>`now() - interval '1 second'` })
        .where('spec_id', '=', specId)
        .execute();
      const processed = await waitFor<{ lastVersion?: string; lastProcessErrorCode?: string }>(
        'the spec job',
        async () => {
          const res = await api.read(admin, `/v1/orgs/${organization.id}/openapi/petstore`);
          return res.json().processingState === 'complete' ? res.json() : undefined;
        },
      );
      expect(processed).toMatchObject({ lastVersion: expect.any(String) });
      expect(processed.lastProcessErrorCode).toBeUndefined();
      expect(await job()).toEqual([]);
      expect(spec.hits.filter((path) => path === '/petstore.json')).toHaveLength(2);

      // The merge can be asked for again, and makes the whole revision.
      const retried = await post(second, admin, `/v1/spaces/${space.id}/change-requests/${edits}/merge`);
      expect(retried.status).toBe(200);
      expect(await retried.json()).toMatchObject({ result: 'merge' });
      const appendices = titles.map((title) => `${title} appendix`);
      expect(await expectWhole(admin, space.id, edits, before, appendices)).toBe('merged');
      const merged = await api.read(admin, `/v1/spaces/${space.id}/content/pages`);
      for (const page of flatten(merged.json().pages).filter((item) => titles.includes(item.title)))
        expect(page.markdown).toBe(markdownOf(page.title, 'Second'));

      // Killed the moment its merge transaction has written something (or after, if the merge is quicker than the look).
      const afterFirst = {
        revision: (await api.read(admin, `/v1/spaces/${space.id}`)).json().revision as string,
        titles: [...titles, ...appendices],
      };
      const extras = Array.from({ length: PAGES * 3 }, (_, i) => `Extra ${i}`);
      const mergingMore = post(second, admin, `/v1/spaces/${space.id}/change-requests/${additions}/merge`).catch(
        (error: Error) => error,
      );
      await waitFor(
        'the second merge to write',
        async () => {
          const backends = await backendsOf('quire-second');
          if (backends.some((backend) => backend.writing && MERGE_WRITES.test(backend.query))) return true;
          return (await Promise.race([mergingMore, sleep(0).then(() => undefined)])) === undefined ? undefined : true;
        },
        30_000,
      );
      await kill(second);
      await mergingMore;
      await waitFor('the second instance’s connections to end', async () =>
        (await backendsOf('quire-second')).length === 0 ? true : undefined,
      );
      const outcome = await expectWhole(admin, space.id, additions, afterFirst, extras);
      if (outcome === 'not merged') {
        const again = await api.merge(admin, space.id, additions);
        expect(again.json()).toMatchObject({ result: 'merge' });
      }
      expect(await expectWhole(admin, space.id, additions, afterFirst, extras)).toBe('merged');
    },
  );
});
