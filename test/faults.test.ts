import type { FastifyInstance } from 'fastify';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { purgeDeletedSpaces } from '../src/spaces/purge.js';
import { startSpecWorker } from '../src/specs/worker.js';
import { buildOwnApp, listen, testConfig, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { TcpProxy } from './support/tcp-proxy.js';

// The slow site's linked pages take a second each to send; the rest of the bound is for a loaded machine.
const OUTBOUND_TIMEOUT_MS = 2_500;
const IMPORT_TIMEOUT_MS = 1_600;
const SPEC_FETCH_TIMEOUT_MS = 800;

const t = useTestApp({
  config: {
    outbound: { allowPrivate: true, timeoutMs: OUTBOUND_TIMEOUT_MS, maxBytes: 10 * 1024 * 1024 },
    importLimits: { maxPages: 50, maxBytes: 50 * 1024 * 1024, timeoutMs: IMPORT_TIMEOUT_MS },
    specs: {
      maxBytes: 1024 * 1024,
      maxFiles: 5,
      maxRefDepth: 2,
      fetchTimeoutMs: SPEC_FETCH_TIMEOUT_MS,
      processTimeoutMs: 10_000,
      pollIntervalMs: 20,
      maxAttempts: 1,
    },
  },
});
const api = contentApi(() => t.app);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Past this, a request counts as hung. */
const HANG_BOUND_MS = 15_000;

/** Waits at least `minMs`, then until `enough` holds (at most 30 s). */
async function phase(minMs: number, enough: () => boolean): Promise<void> {
  const started = performance.now();
  await sleep(minMs);
  while (!enough() && performance.now() - started < 30_000) await sleep(50);
}

const UNAVAILABLE = { error: { code: 503, message: 'The database is unavailable; try again shortly' } };

/** A URL of the test database that goes through `proxy`, so the test can take the database away. */
function throughProxy(proxy: TcpProxy): string {
  const url = new URL(t.database.url);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}

interface Answer {
  status: number;
  body: unknown;
  ms: number;
  startedAt: number;
}

/** A request over HTTP that must be answered within `boundMs`; a hang is recorded as status 0. */
async function call(
  base: string,
  account: Account,
  method: string,
  path: string,
  payload?: unknown,
  boundMs = HANG_BOUND_MS,
): Promise<Answer> {
  const startedAt = performance.now();
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...account.headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      signal: AbortSignal.timeout(boundMs),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      ms: performance.now() - startedAt,
      startedAt,
      path,
    } as Answer;
  } catch (error) {
    return { status: 0, body: String(error), ms: performance.now() - startedAt, startedAt };
  }
}

const ok = (answer: Answer | undefined) => answer !== undefined && answer.status >= 200 && answer.status < 300;

/**
 * Clients of one organization writing (spaces, comments, pages through
 * change requests) and reading over HTTP, each write carrying a marker and
 * its answer kept, to be read back afterwards.
 */
function mixedLoad(base: string, admin: Account, organizationId: string, spaceId: string) {
  const load = {
    answers: [] as Answer[],
    spaces: new Map<string, Answer>(),
    comments: new Map<string, Answer>(),
    changeRequests: [] as Array<{ marker: string; created: Answer; written?: Answer; merged?: Answer }>,
  };
  const send = (method: string, path: string, payload?: unknown) =>
    call(base, admin, method, path, payload).then((answer) => (load.answers.push(answer), answer));
  const changeRequests = `/v1/spaces/${spaceId}/change-requests`;

  /** The client's `n`th request (or requests: a change request is opened, written and merged). */
  async function step(client: number, n: number): Promise<void> {
    const marker = `load-${client}-${n}`;
    switch (n % 5) {
      case 0:
        load.spaces.set(marker, await send('POST', `/v1/orgs/${organizationId}/spaces`, { title: marker }));
        return;
      case 1:
        load.comments.set(
          marker,
          await send('POST', `/v1/spaces/${spaceId}/comments`, { body: { markdown: `Remark ${marker}` } }),
        );
        return;
      case 2: {
        const flow: (typeof load.changeRequests)[number] = {
          marker,
          created: await send('POST', changeRequests, { subject: marker }),
        };
        load.changeRequests.push(flow);
        if (!ok(flow.created)) return;
        const id = (flow.created.body as { id: string }).id;
        flow.written = await send('POST', `${changeRequests}/${id}/content?compat=false`, {
          changes: [{ operation: 'insert_page', title: marker, document: { markdown: `Written by ${marker}.\n` } }],
        });
        if (ok(flow.written)) flow.merged = await send('POST', `${changeRequests}/${id}/merge`);
        return;
      }
      case 3:
        await send('GET', `/v1/spaces/${spaceId}`);
        return;
      default:
        await send('GET', `/v1/spaces/${spaceId}/comments?limit=5`);
    }
  }
  return { ...load, step };
}

/**
 * Every write the load was acknowledged reads back, and whatever was stored
 * (acknowledged or not) is whole: spaces with their first revision, change
 * requests merged exactly when their page is in the space, counters that
 * match the rows they count.
 */
async function expectWritesReadBack(
  load: ReturnType<typeof mixedLoad>,
  admin: Account,
  organizationId: string,
  spaceId: string,
) {
  const read = (path: string) => api.read(admin, path);
  const storedSpaces = await t.db
    .selectFrom('spaces')
    .leftJoin('revisions', 'revisions.id', 'spaces.revision_id')
    .select(['spaces.id', 'spaces.title', 'revisions.space_id as revisionSpace'])
    .where('spaces.organization_id', '=', organizationId)
    .execute();
  for (const stored of storedSpaces) {
    expect(stored.revisionSpace).toBe(stored.id);
    expect((await read(`/v1/spaces/${stored.id}/content/pages`)).statusCode).toBe(200);
  }
  const spaceIds = new Map(storedSpaces.map((stored) => [stored.title, stored.id]));
  for (const [marker, answer] of load.spaces) {
    if (ok(answer)) expect(spaceIds.get(marker)).toBe((answer.body as { id: string }).id);
  }

  const listed = await read(`/v1/spaces/${spaceId}/comments?limit=1000`);
  expect(listed.statusCode).toBe(200);
  const remarks = new Map(
    (listed.json().items as Array<{ id: string; body: { markdown: string } }>).map((item) => [
      item.body.markdown.trim(),
      item.id,
    ]),
  );
  for (const [marker, answer] of load.comments) {
    if (ok(answer)) expect(remarks.get(`Remark ${marker}`)).toBe((answer.body as { id: string }).id);
  }

  const pages = await read(`/v1/spaces/${spaceId}/content/pages`);
  expect(pages.statusCode).toBe(200);
  const pageTitles = new Set((pages.json().pages as Array<{ title: string }>).map((page) => page.title));
  const stored = await t.db
    .selectFrom('change_requests')
    .select(['id', 'subject', 'status'])
    .where('space_id', '=', spaceId)
    .execute();
  // Merged or not, each change request and the space agree, whatever its caller was told.
  for (const changeRequest of stored)
    expect([changeRequest.subject, pageTitles.has(changeRequest.subject ?? '')]).toEqual([
      changeRequest.subject,
      changeRequest.status === 'merged',
    ]);
  const storedBySubject = new Map(stored.map((changeRequest) => [changeRequest.subject, changeRequest]));
  for (const flow of load.changeRequests) {
    if (!ok(flow.created)) continue;
    const id = (flow.created.body as { id: string }).id;
    expect(storedBySubject.get(flow.marker)?.id).toBe(id);
    if (ok(flow.written)) {
      const inChangeRequest = await read(`/v1/spaces/${spaceId}/change-requests/${id}/content/pages`);
      const titles = (inChangeRequest.json().pages as Array<{ title: string }>).map((page) => page.title);
      expect(titles).toContain(flow.marker);
    }
    if (ok(flow.merged)) {
      expect(flow.merged!.body).toMatchObject({ result: 'merge' });
      expect(storedBySubject.get(flow.marker)?.status).toBe('merged');
    }
  }

  const counters = await t.db
    .selectFrom('spaces')
    .select(['comments_total_count', 'change_requests_count'])
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  const comments = await t.db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('space_id', '=', spaceId)
    .where('change_request_id', 'is', null)
    .executeTakeFirstOrThrow();
  expect(counters).toEqual({ comments_total_count: Number(comments.n), change_requests_count: stored.length });
  const organization = await t.db
    .selectFrom('organizations')
    .select('live_spaces_count')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  expect(organization.live_spaces_count).toBe(storedSpaces.length);
}

describe('PostgreSQL going away under load', () => {
  it(
    'answers every request with success or 503 while it is gone, recovers by itself, and loses no acknowledged write',
    { timeout: 90_000 },
    async () => {
      const target = new URL(t.database.url);
      const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      const app = await buildOwnApp(testConfig(throughProxy(proxy), { databasePoolSize: 4 }));
      try {
        const base = await listen(app);
        const { admin, organization } = await t.factory.team();
        const space = await api.createSpace(admin, organization.id, { title: 'Under load' });
        const load = mixedLoad(base, admin, organization.id, space.id);
        const { answers } = load;

        // Warm up first: the conversion threads start on the first write that needs them, and that is no fault.
        for (let n = 0; n < 3; n++) await load.step(9, n);
        expect(answers.map((answer) => answer.status)).toEqual([201, 200, 201, 200, 200]);
        answers.length = 0;

        let running = true;
        const clients = Array.from({ length: 6 }, async (_, client) => {
          for (let n = client; running; n++) await load.step(client, n);
        });
        const refused = () => answers.filter((answer) => !ok(answer));
        // Each phase lasts its least time, and longer while this busy machine has not yet answered enough requests in it.
        await phase(1_000, () => answers.length >= 12);
        const cutAt = performance.now();
        await proxy.cut();
        await phase(2_000, () => refused().length >= 12);
        await proxy.start();
        const restoredAt = performance.now();
        const afterRestore = () => answers.filter((answer) => answer.startedAt > restoredAt + 100);
        await phase(1_000, () => afterRestore().length >= 12);
        running = false;
        await Promise.all(clients);

        // Every request was answered within the bound, with success or a 503 in the error shape.
        expect(answers.filter((answer) => answer.status === 0)).toEqual([]);
        for (const answer of refused())
          expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: UNAVAILABLE });
        // Refused while the database was gone, not once it was back: they did not wait for it.
        expect(refused().filter((answer) => answer.startedAt + answer.ms < restoredAt).length).toBeGreaterThan(0);
        // Nothing but the outage was refused: before the cut and once it was back, everything succeeded by itself.
        expect(refused().filter((answer) => answer.startedAt + answer.ms < cutAt)).toEqual([]);
        expect(afterRestore().filter((answer) => !ok(answer))).toEqual([]);

        await expectWritesReadBack(load, admin, organization.id, space.id);
      } finally {
        await app.close();
        await proxy.cut();
      }
    },
  );
});

describe('the statement timeout', () => {
  const TIMEOUT_MS = 300;
  let app: FastifyInstance;
  let locker: pg.Client;

  beforeAll(async () => {
    app = await buildOwnApp(testConfig(t.database.url, { databaseStatementTimeoutMs: TIMEOUT_MS }));
    await app.ready();
    locker = new pg.Client({ connectionString: t.database.url });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await app?.close();
  });

  /** Runs `during` while another connection holds `lock` in an open transaction. */
  async function whileLocked<T>(lock: string, values: unknown[], during: () => Promise<T>): Promise<T> {
    await locker.query('BEGIN');
    try {
      await locker.query(lock, values);
      return await during();
    } finally {
      await locker.query('COMMIT');
    }
  }

  it('is set on every connection of the pool', async () => {
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(app.context.db);
    expect(rows).toEqual([{ statement_timeout: `${TIMEOUT_MS}ms` }]);
  });

  it('answers a statement it cancels with a clear 503, writes nothing, and the pool serves the next requests', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Held' });
    const spacesBefore = await t.db
      .selectFrom('spaces')
      .select('id')
      .where('organization_id', '=', organization.id)
      .execute();
    const request = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });

    // Answered while the lock is still held (it is let go only once they are): the statements were cancelled, not waited out.
    const [read, write, unrelated] = await whileLocked('LOCK TABLE spaces IN ACCESS EXCLUSIVE MODE', [], () =>
      Promise.all([
        request('GET', `/v1/spaces/${space.id}`),
        request('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Never written' }),
        // A request that needs no space is not held.
        request('GET', '/v1/user'),
      ]),
    );
    const cancelled = {
      error: { code: 503, message: 'The database took too long to answer this request; try again shortly' },
    };
    expect(read.statusCode).toBe(503);
    expect(read.json()).toEqual(cancelled);
    expect(read.headers['retry-after']).toBe('1');
    expect(write.statusCode).toBe(503);
    expect(write.json()).toEqual(cancelled);
    expect(unrelated.statusCode).toBe(200);
    expect(
      await t.db.selectFrom('spaces').select('id').where('organization_id', '=', organization.id).execute(),
    ).toEqual(spacesBefore);

    // More requests than the pool has connections: every connection a cancelled statement ran on is still good.
    const after = await Promise.all(Array.from({ length: 12 }, () => request('GET', `/v1/spaces/${space.id}`)));
    expect(after.map((res) => res.statusCode)).toEqual(Array(12).fill(200));
    expect((await request('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Written' })).statusCode).toBe(201);
  });

  it('does not cut the purge short, whose deletes may wait longer than a request would', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Expired' });
    await t.db
      .updateTable('spaces')
      .set({ deleted_at: new Date(Date.now() - 30 * 86_400_000) })
      .where('id', '=', space.id)
      .execute();
    // A row of the space held for longer than the timeout: deleting the space waits for it.
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM revisions WHERE space_id = $1 FOR UPDATE', [space.id]);
    const purge = purgeDeletedSpaces(app.context.db, systemClock, { retentionMs: 7 * 86_400_000, batchSize: 10 }).catch(
      (error: Error) => error.message,
    );
    await sleep(TIMEOUT_MS * 3);
    await locker.query('COMMIT');
    const result = await purge;
    expect(result).toEqual({ purged: [space.id], busy: false });
    expect(await t.db.selectFrom('spaces').select('id').where('id', '=', space.id).execute()).toEqual([]);
  });
});

describe('a slow outbound fetch', () => {
  const PROSE =
    'Acme keeps your documentation close to your code, so that every change to one is a change to the other. ' +
    'This page walks through what you need to know, one step at a time, with examples you can copy. ';
  const page = (title: string, links: string[] = []) =>
    `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1>` +
    `<p>${PROSE.repeat(3)}</p>${links.map((href) => `<p><a href="${href}">${href}</a></p>`).join('')}` +
    '</article></main></body></html>';
  const LINKED_PAGES = 12;

  let server: Server;
  let base: string;
  const hits: string[] = [];

  /** Sends `body` a few bytes at a time over `overMs`; with `overMs` Infinity, never ends. */
  function trickle(response: ServerResponse, type: string, body: string, overMs: number): void {
    response.writeHead(200, { 'content-type': type });
    const bytes = Buffer.from(body);
    const step = Number.isFinite(overMs) ? Math.max(1, Math.ceil(bytes.length / (overMs / 50))) : 1;
    let sent = 0;
    const timer = setInterval(() => {
      if (Number.isFinite(overMs) && sent >= bytes.length) {
        clearInterval(timer);
        response.end();
        return;
      }
      response.write(Number.isFinite(overMs) ? bytes.subarray(sent, sent + step) : ' ');
      sent += step;
    }, 50);
    response.on('close', () => clearInterval(timer));
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      hits.push(path);
      if (path === '/forever/') trickle(response, 'text/html', page('Never ends'), Infinity);
      else if (path === '/docs/')
        response.writeHead(200, { 'content-type': 'text/html' }).end(
          page(
            'Docs',
            Array.from({ length: LINKED_PAGES }, (_, i) => `/docs/p${i}`),
          ),
        );
      else if (path.startsWith('/docs/p')) trickle(response, 'text/html', page(`Page ${path.slice(7)}`), 1_000);
      else if (path === '/quick/') response.writeHead(200, { 'content-type': 'text/html' }).end(page('Quick'));
      else if (path === '/spec.json') trickle(response, 'application/json', '{"openapi": "3.0.3"}', Infinity);
      else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /**
   * Reads a space of another organization again and again until `slow`
   * settles, and counts the reads answered before it did: the slow fetch
   * holds nothing that other requests need.
   */
  async function readsDuring<T>(slow: Promise<T>): Promise<{ result: T; answeredBefore: number }> {
    const { admin, organization } = await t.factory.team();
    const other = await api.createSpace(admin, organization.id, { title: 'Elsewhere' });
    let settled = false;
    let answeredBefore = 0;
    const reading = (async () => {
      while (!settled) {
        const res = await api.read(admin, `/v1/spaces/${other.id}`);
        expect(res.statusCode).toBe(200);
        if (!settled) answeredBefore += 1;
        await sleep(100);
      }
    })();
    const result = await slow.finally(() => (settled = true));
    await reading;
    return { result, answeredBefore };
  }

  it('ends an import whose start page never finishes at OUTBOUND_TIMEOUT_MS, with a 400 saying so, and other requests are served meanwhile', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Imports' });
    const { result: res, answeredBefore } = await readsDuring(
      t.app.inject({
        method: 'POST',
        url: `/v1/spaces/${space.id}/content/import`,
        headers: admin.headers,
        payload: { source: 'website', url: `${base}/forever/` },
      }),
    );
    // The message names the limit that ended it.
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      `body/url: no page of ${base} could be imported, so nothing was written: ` +
        `The URL ${base}/ did not answer within ${OUTBOUND_TIMEOUT_MS} ms`,
    );
    expect(answeredBefore).toBeGreaterThan(0);
    expect((await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json()).toEqual({ pages: [] });
  });

  it(
    'stops fetching new pages at IMPORT_TIMEOUT_MS and imports what it has, counting it honestly',
    { timeout: 60_000 },
    async () => {
      const { admin, organization } = await t.factory.team();
      const space = await api.createSpace(admin, organization.id, { title: 'Partly imported' });
      // The page reader's threads start with the first import; that time is not the slow site's.
      const warm = await t.app.inject({
        method: 'POST',
        url: `/v1/spaces/${space.id}/content/import`,
        headers: admin.headers,
        payload: { source: 'website', url: `${base}/quick/` },
      });
      expect(warm.statusCode, warm.body).toBe(201);
      const before = hits.length;
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/spaces/${space.id}/content/import`,
        headers: admin.headers,
        payload: { source: 'website', url: `${base}/docs/` },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { importedResources, totalResources } = res.json() as { importedResources: number; totalResources: number };
      // Each linked page takes a second, four at a time: the time limit falls while the second four are fetched,
      // long before the last four would be asked for. Those asked for were let finish, and are all imported.
      const fetched = hits.slice(before).filter((path) => path.startsWith('/docs/p')).length;
      expect(fetched).toBeGreaterThan(0);
      expect(fetched).toBeLessThan(LINKED_PAGES);
      expect(importedResources).toBe(1 + fetched);
      expect(totalResources).toBe(importedResources);
      const pages = await api.read(admin, `/v1/spaces/${space.id}/content/pages`);
      const count = (list: Array<{ pages: unknown[] }>): number =>
        list.reduce((sum, item) => sum + 1 + count(item.pages as Array<{ pages: unknown[] }>), 0);
      // The warm-up page, and the imported ones (and the group pages above them).
      expect(count(pages.json().pages)).toBeGreaterThanOrEqual(1 + importedResources);
    },
  );

  it('records FETCH_TIMEOUT for a spec whose URL never finishes answering, and other requests are served meanwhile', async () => {
    const { admin, organization } = await t.factory.team();
    const spec = (method: 'GET' | 'PUT', payload?: object) =>
      t.app.inject({
        method,
        url: `/v1/orgs/${organization.id}/openapi/slow`,
        headers: admin.headers,
        ...(payload ? { payload } : {}),
      });
    expect((await spec('PUT', { source: { url: `${base}/spec.json` } })).statusCode).toBe(200);
    const worker = startSpecWorker(t.app.context);
    try {
      const processed = (async () => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const state = (await spec('GET')).json();
          if (state.processingState === 'complete' || Date.now() > deadline) return state;
          await sleep(50);
        }
      })();
      const { result, answeredBefore } = await readsDuring(processed);
      expect(result).toMatchObject({
        processingState: 'complete',
        lastProcessErrorCode: 'FETCH_TIMEOUT',
        lastProcessedErrors: [{ message: expect.stringMatching(`did not answer within ${SPEC_FETCH_TIMEOUT_MS} ms`) }],
      });
      expect(answeredBefore).toBeGreaterThan(0);
    } finally {
      await worker.stop();
    }
  });
});
