import { once } from 'node:events';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { startServerProcess, type LogEntry, type RunningServer } from './support/server-process.js';

/*
 * The service started with PROCESSES=2, as `npm start` starts it: a primary
 * and two workers on one port. Each request goes on a connection of its own,
 * which the primary hands to the workers in turn, so consecutive requests
 * reach both; the log line of each request names the process that served it.
 */

const ADMIN_TOKEN = 'processes-test-admin-token-0123456789';
/** The admin's budget in a window longer than the file runs, so that it cannot begin again in the middle. */
const RATE_LIMIT = { RATE_LIMIT_MAX: '80', RATE_LIMIT_WINDOW_MS: '3600000' };

let database: TestDatabase;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServerProcess(
    {
      DATABASE_URL: database.url,
      PROCESSES: '2',
      BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
      // Long enough that only being told could make a process forget a token it has seen.
      AUTH_CACHE_TTL_MS: '60000',
      ...RATE_LIMIT,
    },
    { detached: true },
  );
}, 120_000);

afterAll(async () => {
  if (server?.child.exitCode === null) {
    const exited = once(server.child, 'exit');
    server.child.kill('SIGKILL');
    await exited;
  }
  await database?.drop();
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The process that served it, from its log line. */
  pid: number;
}

/** One request on a connection of its own (the primary hands each new connection to the next worker). */
async function call(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const outgoing = request(`${server.baseUrl}${path}`, {
      method,
      agent: false,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
    });
    outgoing.once('response', resolve).once('error', reject);
    // A failure names the request rather than the test's timeout.
    outgoing.setTimeout(15_000, () => outgoing.destroy(new Error(`no answer to ${method} ${path}`)));
    outgoing.end(payload);
  });
  let text = '';
  for await (const chunk of response) text += String(chunk);
  const requestId = String(response.headers['x-request-id']);
  return {
    status: response.statusCode!,
    body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: response.headers,
    pid: await servedBy(requestId),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for a log line: a failure names what never came, rather than the test's timeout. */
async function logged(what: string, matches: (entry: LogEntry) => boolean): Promise<LogEntry> {
  for (let waited = 0; waited < 30_000; waited += 20) {
    const entry = server.logs.find(matches);
    if (entry) return entry;
    await sleep(20);
  }
  throw new Error(`never logged: ${what}; the last lines: ${JSON.stringify(server.logs.slice(-5))}`);
}

/** The process whose log has the request's line (it may come a moment after the answer). */
async function servedBy(requestId: string): Promise<number> {
  const line = await logged(`request ${requestId}`, (entry) => entry.reqId === requestId && entry.pid !== undefined);
  return Number(line.pid);
}

/** The pids of the workers that listen now, from their log lines. */
const listeningPids = () =>
  server.logs.filter((entry) => String(entry.msg).startsWith('Server listening')).map((entry) => Number(entry.pid));

describe('several processes on one port (PROCESSES)', () => {
  it('answers from two workers, neither of them the primary, which logged ready for both', async () => {
    expect(server.logs.find((entry) => String(entry.msg).startsWith('ready:'))).toMatchObject({
      pid: server.child.pid,
      processes: 2,
    });
    // The first start's token is logged once, by one worker, though both serve.
    expect(server.logs.filter((entry) => String(entry.msg).startsWith('first start'))).toHaveLength(1);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call('GET', '/v1/user', { token: ADMIN_TOKEN }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const pids = new Set(answers.map((answer) => answer.pid));
    expect(pids.size).toBe(2);
    expect(pids.has(server.child.pid!)).toBe(false);
    expect([...pids].sort()).toEqual([...new Set(listeningPids())].sort());
  });

  it('refuses a token revoked through one worker on the other at once, though the other had it cached', async () => {
    const created = await call('POST', '/v1/user/tokens', { token: ADMIN_TOKEN, body: { label: 'Revoked soon' } });
    expect(created.status).toBe(201);
    const token = String(created.body.token);
    const before = [];
    for (let i = 0; i < 4; i++) before.push(await call('GET', '/v1/user', { token }));
    expect(before.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(before.map((answer) => answer.pid)).size).toBe(2);

    const revoked = await call('DELETE', `/v1/user/tokens/${String(created.body.id)}`, { token: ADMIN_TOKEN });
    expect(revoked.status).toBe(204);
    const after = [];
    for (let i = 0; i < 4; i++) after.push(await call('GET', '/v1/user', { token }));
    expect(after.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    expect(new Set(after.map((answer) => answer.pid)).size).toBe(2);
  });

  it("shows a write through one worker in the other's kept answer at once", async () => {
    const organizations = await call('GET', '/v1/orgs', { token: ADMIN_TOKEN });
    const organizationId = String((organizations.body.items as Array<{ id: string }>)[0]!.id);
    const read = async () => {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await call('GET', `/v1/orgs/${organizationId}`, { token: ADMIN_TOKEN }));
      return answers;
    };
    // Read twice on each worker: the second is served from what the worker kept.
    await read();
    for (const title of ['Renamed once', 'Renamed twice']) {
      const patched = await call('PATCH', `/v1/orgs/${organizationId}`, { token: ADMIN_TOKEN, body: { title } });
      expect(patched.status).toBe(200);
      const answers = await read();
      expect(answers.map((answer) => answer.body.title)).toEqual([title, title, title, title]);
      expect(new Set(answers.map((answer) => answer.pid)).size).toBe(2);
    }
  });

  it("counts one user's budget across both workers, not once in each", async () => {
    // Each worker has heard what the other admitted by now (they report every few tens of ms).
    await sleep(200);
    const first = await call('GET', '/v1/user', { token: ADMIN_TOKEN });
    expect(first.status).toBe(200);
    const remaining = Number(first.headers['ratelimit-remaining']);
    expect(remaining).toBeGreaterThan(10);
    expect(remaining).toBeLessThan(Number(RATE_LIMIT.RATE_LIMIT_MAX) - 10);

    let admitted = 0;
    const refusedBy = new Set<number>();
    while (refusedBy.size < 2) {
      const answer = await call('GET', '/v1/user', { token: ADMIN_TOKEN });
      if (answer.status === 200) admitted++;
      else {
        expect(answer.status).toBe(429);
        expect((answer.body.error as { message: string }).message).toMatch(/^Rate limit exceeded: 80 requests per/);
        refusedBy.add(answer.pid);
      }
      // A request is admitted at most once past the budget for each report a worker has not yet heard.
      expect(admitted).toBeLessThanOrEqual(remaining + 10);
      await sleep(40);
    }
    // Counted in each worker alone, the budget would have let about twice as many through.
    expect(admitted).toBeGreaterThanOrEqual(remaining);
    expect(admitted).toBeLessThanOrEqual(remaining + 8);
  });

  it('counts failed authentications from one address across both workers', async () => {
    await sleep(200);
    let refused = 0;
    const limitedBy = new Set<number>();
    while (limitedBy.size < 2) {
      const answer = await call('GET', '/v1/user', { token: 'made-up-token-0123456789' });
      if (answer.status === 401) refused++;
      else {
        expect(answer.status).toBe(429);
        expect((answer.body.error as { message: string }).message).toMatch(/^Too many failed authentications/);
        limitedBy.add(answer.pid);
      }
      expect(refused).toBeLessThanOrEqual(Number(RATE_LIMIT.RATE_LIMIT_MAX) + 10);
      await sleep(40);
    }
    // The four of the revoked token above counted too; alone, each worker would have allowed 80.
    expect(refused).toBeGreaterThanOrEqual(Number(RATE_LIMIT.RATE_LIMIT_MAX) - 4);
    expect(refused).toBeLessThanOrEqual(Number(RATE_LIMIT.RATE_LIMIT_MAX) - 4 + 8);
  });

  it('starts a worker again when it dies, while the other goes on serving', async () => {
    const [victim, survivor] = [...new Set(listeningPids())];
    process.kill(victim!, 'SIGKILL');
    await logged('the exit', (entry) => entry.msg === 'a worker exited; starting another');
    // The other worker serves meanwhile (/readyz is not rate-limited).
    const during = await call('GET', '/readyz');
    expect(during).toMatchObject({ status: 200, pid: survivor });
    await logged('the restart', (entry) => entry.msg === 'a worker started again and listens');
    expect(server.logs.find((entry) => entry.msg === 'a worker exited; starting another')).toMatchObject({
      level: 50,
      signal: 'SIGKILL',
    });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call('GET', '/readyz'));
    const pids = new Set(answers.map((answer) => answer.pid));
    expect(pids.size).toBe(2);
    expect(pids.has(survivor!)).toBe(true);
    expect(pids.has(victim!)).toBe(false);
  });

  it('stops every process cleanly on an interrupt to the whole group, as a terminal sends', async () => {
    const exited = once(server.child, 'exit');
    process.kill(-server.child.pid!, 'SIGINT');
    expect((await exited)[0]).toBe(0);
    const stopped = server.logs.filter((entry) => entry.msg === 'stopped').map((entry) => Number(entry.pid));
    expect(stopped).toHaveLength(3);
    expect(stopped).toContain(server.child.pid);
    expect(
      server.logs.filter((entry) => Number(entry.level) >= 50 && entry.msg !== 'a worker exited; starting another'),
    ).toEqual([]);
  });
});
