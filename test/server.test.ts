import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';
import { runServerToExit, SERVER_ARGS, startServerProcess } from './support/server-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const startServer = startServerProcess;

/** A session of this database waiting for a lock another holds. */
const WAITING_ON_A_LOCK =
  "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";

/** Waits until `check` holds, looking every 20 ms; the test's timeout stops a wait that never ends. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the server process', () => {
  it('migrates, bootstraps, prints the first token once, and stops cleanly, finishing a request in flight', async () => {
    const database = await createTestDatabase();
    const lock = new pg.Client({ connectionString: database.url });
    try {
      // As a user starts it: every route's schemas compile once it listens (the other starts of the suite leave that off).
      const server = await startServer({ DATABASE_URL: database.url, PRECOMPILE_SCHEMAS: 'true' });
      const first = server.logs.find((entry) => typeof entry.token === 'string');
      expect(first).toMatchObject({ email: 'admin@example.com', msg: expect.stringMatching(/^first start/) });
      const headers = { authorization: `Bearer ${String(first!.token)}`, 'content-type': 'application/json' };

      const user = await fetch(`${server.baseUrl}/v1/user`, { headers });
      expect(user.status).toBe(200);
      expect(user.headers.get('x-request-id')).toBeTruthy();

      await until(async () => server.logs.some((entry) => entry.msg === 'compiled every schema'));
      const compiled = server.logs.find((entry) => entry.msg === 'compiled every schema');
      expect(compiled?.schemas).toBeGreaterThan(2000);
      expect(server.logs.filter((entry) => entry.level === 50)).toEqual([]);

      // Hold the organization's row so that a PATCH is still running when SIGTERM arrives.
      await lock.connect();
      await lock.query('BEGIN');
      await lock.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [first!.organizationId]);
      const inFlight = fetch(`${server.baseUrl}/v1/orgs/${String(first!.organizationId)}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ title: 'Finished during shutdown' }),
      });
      // The PATCH waits on the row, and the server has begun to shut down, before the row is let go.
      await until(async () => (await lock.query(WAITING_ON_A_LOCK)).rows.length > 0);
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      await until(async () => server.logs.some((entry) => String(entry.msg).startsWith('shutting down')));
      await lock.query('COMMIT');

      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(((await response.json()) as { title: string }).title).toBe('Finished during shutdown');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(server.logs.map((entry) => entry.msg)).toContain('stopped');

      // A second start finds users and does not bootstrap again.
      const again = await startServer({ DATABASE_URL: database.url });
      expect(again.logs.some((entry) => 'token' in entry)).toBe(false);
      const exitedAgain = once(again.child, 'exit');
      again.child.kill('SIGINT');
      expect((await exitedAgain)[0]).toBe(0);
    } finally {
      await lock.end().catch(() => {});
      await database.drop();
    }
  }, 120_000);

  it('does not spend the first start on a port it cannot listen on', async () => {
    const database = await createTestDatabase();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const refused = await runServerToExit({ DATABASE_URL: database.url, PORT: String(port) });
      expect(refused.code).toBe(1);
      expect(refused.logs.at(-1)).toMatchObject({
        level: 50,
        msg: `Port ${port} on 127.0.0.1 is already in use: stop what listens there, or set PORT.`,
      });
      expect(refused.output).not.toContain('first start');
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        expect((await client.query('select id from users')).rows).toEqual([]);
      } finally {
        await client.end();
      }

      // The next start, on a free port, is the first start.
      const started = await startServer({ DATABASE_URL: database.url });
      expect(started.logs.some((entry) => typeof entry.token === 'string')).toBe(true);
      const stopped = once(started.child, 'exit');
      started.child.kill('SIGTERM');
      expect((await stopped)[0]).toBe(0);
    } finally {
      blocker.close();
      await database.drop();
    }
  }, 120_000);

  it('refuses to start on a bad setting, naming it', async () => {
    const child = spawn(process.execPath, SERVER_ARGS, {
      cwd: root,
      env: { ...process.env, PORT: 'http', DATABASE_URL: 'postgres://nowhere/x' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toMatch(/Invalid configuration:\n {2}PORT .*"http"/);
  });
});
