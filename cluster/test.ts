/**
 * `npm run cluster:test`: starts the topology (cluster.ts), runs a mixed load
 * of writes and reads through HAProxy from several callers, kills one
 * instance (SIGKILL) and starts it again, then restarts the primary (fast
 * shutdown, start); afterwards checks that every acknowledged write reads
 * back, that no request hung, that each caller read its own writes, and that
 * background work (the purge, spec jobs, event deliveries) ran once. Exits
 * non-zero on any loss.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { ROOT, startCluster, type Cluster } from './cluster.js';

const CALLERS = Number(process.env.CLUSTER_TEST_CALLERS ?? 6);
const REQUEST_TIMEOUT_MS = 20_000;
const execFileAsync = promisify(execFile);
const say = (message: string) => process.stdout.write(`[test] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The webhook the service delivers to: when each event id came, each time it came.
const received = new Map<string, number[]>();
const hook = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    try {
      const { eventId } = JSON.parse(body) as { eventId?: string };
      if (eventId) received.set(eventId, [...(received.get(eventId) ?? []), Date.now()]);
    } catch {
      // not an event
    }
    response.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;

const cluster: Cluster = await startCluster({
  base: Number(process.env.CLUSTER_PORT ?? 7560),
  build: process.env.CLUSTER_BUILD !== 'false',
  env: {
    // The test's webhook is on 127.0.0.1.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // A deleted space is purged some seconds later, by a purge run every 2 s on every instance.
    SPACE_RETENTION_DAYS: '0.00003',
    PURGE_SCHEDULE: '*/2 * * * * *',
    SPEC_POLL_INTERVAL_MS: '250',
    GIT_SYNC_POLL_INTERVAL_MS: '250',
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_ORGANIZATION_MAX: '1000000',
  },
});
const db = new pg.Pool({ connectionString: cluster.primaryUrl, max: 2 });
let exitCode = 1;
try {
  exitCode = await exercise(cluster);
} catch (error) {
  say(`failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await db.end().catch(() => {});
  await cluster.stop();
  hook.close();
  // Each instance says, as it stops, where its lag-tolerant reads went (the killed one cannot).
  let replicaReads = 0;
  let primaryReads = 0;
  for (const instance of cluster.instances) {
    for (const line of readFileSync(instance.logFile, 'utf8').split('\n')) {
      if (!line.includes('lag-tolerant reads')) continue;
      const entry = JSON.parse(line) as { replicaReads: number; primaryReads: number };
      replicaReads += entry.replicaReads;
      primaryReads += entry.primaryReads;
    }
  }
  say(
    `lag-tolerant reads of the instances that stopped cleanly: ${replicaReads} on the replica, ${primaryReads} on the primary`,
  );
}
process.exit(exitCode);

interface Stats {
  requests: number;
  hung: number;
  failed: Map<string, number>;
  rywChecks: number;
  rywMissed: string[];
}

async function exercise(cluster: Cluster): Promise<number> {
  const stats: Stats = { requests: 0, hung: 0, failed: new Map(), rywChecks: 0, rywMissed: [] };
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    stats.requests++;
    try {
      const response = await fetch(`${cluster.url}/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      if (response.status >= 500) {
        const key = `${method} ${path.replace(/[A-Za-z0-9_-]{16,}/g, ':id')} ${response.status}`;
        stats.failed.set(key, (stats.failed.get(key) ?? 0) + 1);
      }
      return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch (error) {
      const name = (error as Error).name;
      if (stats.requests < 50)
        say(`${method} ${path}: ${String(error)} ${((error as Error).cause as Error | undefined)?.message ?? ''}`);
      if (name === 'TimeoutError') stats.hung++;
      const key = `${method} ${path.replace(/[A-Za-z0-9_-]{16,}/g, ':id')} ${name}`;
      stats.failed.set(key, (stats.failed.get(key) ?? 0) + 1);
      return { status: 0, json: {} };
    }
  };

  const admin = cluster.adminToken;
  const organizationId = ((await call(admin, 'GET', '/orgs')).json.items as Array<{ id: string }>)[0]!.id;
  say(`organization ${organizationId}; making ${CALLERS} callers (users with tokens) with the CLI`);
  // Asynchronous: a process waited on synchronously would hold back the event loop, and with it the
  // closing of a kept-alive connection, which the next request would then be sent on.
  const cli = async (...args: string[]) => {
    const { stdout } = await execFileAsync('node', ['dist/cli.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: cluster.primaryUrl },
    });
    return stdout.trim().split('\n');
  };
  const tokens: string[] = [];
  for (let i = 0; i < CALLERS; i++) {
    const email = `caller-${i}@cluster.test`;
    await cli('users', 'create', '--email', email, '--name', `Caller ${i}`, '--org', organizationId, '--role', 'admin');
    tokens.push((await cli('tokens', 'create', '--email', email)).at(-1)!);
  }
  let webhook = { status: 0, json: {} as Record<string, unknown> };
  for (let attempt = 0; attempt < 5 && webhook.status !== 201; attempt++) {
    webhook = await call(admin, 'POST', `/orgs/${organizationId}/webhooks`, {
      url: hookUrl,
      events: ['change_request_opened'],
    });
  }
  if (webhook.status !== 201) throw new Error(`webhook: ${webhook.status} ${JSON.stringify(webhook.json)}`);

  const created = new Map<string, string>(); // space id -> title, acknowledged
  const deleted = new Set<string>();
  const changeRequests: string[] = [];
  const specs: string[] = [];
  let running = true;
  const caller = async (index: number) => {
    const token = tokens[index]!;
    const mine: string[] = [];
    for (let n = 0; running; n++) {
      const title = `caller ${index} space ${n}`;
      const space = await call(token, 'POST', `/orgs/${organizationId}/spaces`, { title });
      if (space.status === 201) {
        const id = space.json.id as string;
        created.set(id, title);
        mine.push(id);
        // Read-your-writes: the list (a lag-tolerant read, maybe on the replica) shows the space just made.
        const list = await call(token, 'GET', `/orgs/${organizationId}/spaces?limit=100`);
        if (list.status === 200) {
          stats.rywChecks++;
          const ids = new Set((list.json.items as Array<{ id: string }>).map((item) => item.id));
          if (!ids.has(id)) stats.rywMissed.push(id);
        }
      }
      await call(token, 'GET', `/orgs/${organizationId}/members`);
      if (n % 3 === 0) await call(token, 'GET', `/orgs/${organizationId}/search?query=space`);
      if (n % 4 === 1 && mine.length > 0) {
        const id = mine.shift()!;
        const removed = await call(token, 'DELETE', `/spaces/${id}`);
        if (removed.status >= 200 && removed.status < 300) deleted.add(id);
      }
      if (n % 5 === 2 && mine.length > 0) {
        const cr = await call(token, 'POST', `/spaces/${mine.at(-1)!}/change-requests`, {
          subject: `cr ${index}/${n}`,
        });
        if (cr.status === 201) changeRequests.push(cr.json.id as string);
      }
      if (n % 25 === 3) {
        const slug = `spec-${index}-${n}`;
        const spec = await call(token, 'POST', `/orgs/${organizationId}/openapi`, {
          slug,
          source: { text: JSON.stringify(openapi(slug)) },
        });
        if (spec.status === 201 || spec.status === 200) specs.push(slug);
      }
    }
  };

  say('mixed load: writes (spaces, deletions, change requests, specs) and reads (lists, members, search)');
  const load = Promise.all(tokens.map((_, index) => caller(index)));
  await sleep(8_000);
  const victim = cluster.instances[1]!;
  say(`killing instance 2 (SIGKILL, pid ${victim.process?.pid})`);
  const killedAt = Date.now();
  victim.process?.kill('SIGKILL');
  await sleep(4_000);
  say('starting instance 2 again');
  await cluster.startInstance(1);
  await sleep(6_000);
  say('restarting the primary (fast shutdown, then start)');
  const restartAt = Date.now();
  await cluster.restartPrimary();
  say(`primary back after ${Date.now() - restartAt} ms`);
  await sleep(8_000);
  running = false;
  await load;
  say(`load stopped after ${stats.requests} requests`);

  // Background work settles: deliveries sent, spec jobs done, deleted spaces purged.
  const settled = async () => {
    const { rows } = await db.query<{ pending: string; jobs: string; unpurged: string }>(
      `select
         (select count(*) from event_deliveries where webhook_id is not null and status <> 'success') as pending,
         (select count(*) from openapi_spec_jobs) as jobs,
         (select count(*) from spaces where id = any($1::text[])) as unpurged`,
      [[...deleted]],
    );
    return rows[0]!;
  };
  const deadline = Date.now() + 90_000;
  let state = await settled();
  while (Date.now() < deadline && (state.pending !== '0' || state.jobs !== '0' || state.unpurged !== '0')) {
    await sleep(1_000);
    state = await settled();
  }

  const problems: string[] = [];
  // Every acknowledged write reads back through HAProxy.
  let readBack = 0;
  for (const [id, title] of created) {
    if (deleted.has(id)) continue;
    const space = await call(admin, 'GET', `/spaces/${id}`);
    if (space.status === 200 && space.json.title === title) readBack++;
    else problems.push(`space ${id} (${title}) acknowledged but read back as ${space.status}`);
  }
  for (const id of deleted) {
    const space = await call(admin, 'GET', `/spaces/${id}`);
    if (space.status !== 404) problems.push(`space ${id} deleted but read back as ${space.status}`);
  }
  if (stats.hung > 0) problems.push(`${stats.hung} request(s) hung past ${REQUEST_TIMEOUT_MS} ms`);
  if (stats.rywMissed.length > 0) problems.push(`${stats.rywMissed.length} list(s) missed the caller's own new space`);

  // Event deliveries: each change request's event delivered once, and received once.
  const deliveries = await db.query<{ event: string; status: string; attempts: number }>(
    `select payload->>'eventId' as event, status, attempts from event_deliveries where webhook_id is not null`,
  );
  const events = await db.query<{ id: string }>(
    `select e.id from events e where e.type = 'change_request_opened' and e.payload->>'changeRequestId' = any($1::text[])`,
    [changeRequests],
  );
  void events;
  const twice = [...received.entries()].filter(([, times]) => times.length > 1);
  for (const [event, times] of twice)
    say(
      `event ${event} came ${times.length} times, at ${times.map((time) => `${time - killedAt} ms`).join(', ')} from the SIGKILL`,
    );
  const duplicates = twice.length;
  const undelivered = deliveries.rows.filter((row) => row.status !== 'success').length;
  const deliveryEvents = new Set(deliveries.rows.map((row) => row.event));
  if (deliveries.rows.length < changeRequests.length)
    problems.push(`${changeRequests.length} change requests acknowledged, ${deliveries.rows.length} deliveries`);
  if (undelivered > 0) problems.push(`${undelivered} deliveries not delivered (status success)`);
  if (duplicates > 0) problems.push(`${duplicates} event(s) received more than once`);
  const missing = [...deliveryEvents].filter((event) => !received.has(event)).length;
  if (missing > 0) problems.push(`${missing} delivered event(s) never received`);

  // Spec jobs: each spec processed once (one version), no job left.
  const specRows = await db.query<{ slug: string; state: string; versions: string }>(
    `select s.slug, s.processing_state as state, (select count(*) from openapi_spec_versions v where v.spec_id = s.id) as versions
       from openapi_specs s where s.slug = any($1::text[])`,
    [specs],
  );
  for (const row of specRows.rows)
    if (row.state !== 'complete' || row.versions !== '1')
      problems.push(`spec ${row.slug}: ${row.state} with ${row.versions} version(s)`);
  if (specRows.rows.length !== specs.length)
    problems.push(`${specs.length} specs acknowledged, ${specRows.rows.length} stored`);
  if (state.jobs !== '0') problems.push(`${state.jobs} spec job(s) left`);

  // The purge: every deleted space gone, and purged by one run of one instance.
  const purgedBy = new Map<string, number>();
  for (const instance of cluster.instances) {
    for (const line of readFileSync(instance.logFile, 'utf8').split('\n')) {
      if (!line.includes('purged deleted spaces')) continue;
      const entry = JSON.parse(line) as { spaces: Array<{ id: string }> };
      for (const space of entry.spaces) purgedBy.set(space.id, (purgedBy.get(space.id) ?? 0) + 1);
    }
  }
  if (state.unpurged !== '0') problems.push(`${state.unpurged} deleted space(s) not purged`);
  const purgedTwice = [...deleted].filter((id) => (purgedBy.get(id) ?? 0) > 1).length;
  if (purgedTwice > 0) problems.push(`${purgedTwice} space(s) purged more than once`);

  const statusOf = await db.query<{ replica: string }>(
    `select coalesce((select state from pg_stat_replication limit 1), 'none') as replica`,
  );
  say('summary');
  const lines = [
    `requests: ${stats.requests} through HAProxy by ${CALLERS} callers; hung (no answer in ${REQUEST_TIMEOUT_MS / 1000} s): ${stats.hung}`,
    `failed (5xx or connection error, not acknowledged): ${[...stats.failed.values()].reduce((a, b) => a + b, 0)}`,
    ...[...stats.failed].map(([key, count]) => `  ${count} × ${key}`),
    `spaces acknowledged: ${created.size}, read back: ${readBack}, deleted and gone: ${deleted.size}`,
    `read-your-writes: ${stats.rywChecks} lists right after the caller's write, ${stats.rywMissed.length} missed it`,
    `change requests: ${changeRequests.length}; webhook deliveries: ${deliveries.rows.length}, delivered: ${deliveries.rows.length - undelivered}, events received: ${received.size}, received twice: ${duplicates}`,
    `specs: ${specs.length} made, ${specRows.rows.filter((row) => row.state === 'complete' && row.versions === '1').length} processed once`,
    `purge: ${deleted.size} deleted, ${[...deleted].filter((id) => purgedBy.get(id) === 1).length} purged by exactly one run`,
    `replication after the test: ${statusOf.rows[0]!.replica}`,
  ];
  for (const line of lines) say(`  ${line}`);
  if (problems.length > 0) {
    say(`LOSS OR FAULT (${problems.length}):`);
    for (const problem of problems.slice(0, 30)) say(`  ${problem}`);
    return 1;
  }
  say('nothing lost');
  return 0;
}

function openapi(title: string) {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: { '/pets': { get: { responses: { '200': { description: 'The pets' } } } } },
  };
}
