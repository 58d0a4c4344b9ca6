import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';
import { startServerProcess } from './support/server-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const startServer = startServerProcess;

describe('the server process', () => {
  it('migrates, bootstraps, prints the first token once, and stops cleanly, finishing a request in flight', async () => {
    const database = await createTestDatabase();
    const lock = new pg.Client({ connectionString: database.url });
    try {
      const server = await startServer({ DATABASE_URL: database.url });
      const first = server.logs.find((entry) => typeof entry.token === 'string');
      expect(first).toMatchObject({ email: 'admin@example.com', msg: expect.stringMatching(/^first start/) });
      const headers = { authorization: `Bearer ${String(first!.token)}`, 'content-type': 'application/json' };

      const user = await fetch(`${server.baseUrl}/v1/user`, { headers });
      expect(user.status).toBe(200);
      expect(user.headers.get('x-request-id')).toBeTruthy();

      // Hold the organization's row so that a PATCH is still running when SIGTERM arrives.
      await lock.connect();
      await lock.query('BEGIN');
      await lock.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [first!.organizationId]);
      const inFlight = fetch(`${server.baseUrl}/v1/orgs/${String(first!.organizationId)}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ title: 'Finished during shutdown' }),
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
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

  // Two starts of an embedded PostgreSQL, the first with its initdb: on a loaded 2-core machine, more than the default 30 s.
  it('runs on an embedded PostgreSQL without DATABASE_URL and keeps its data across restarts', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'quire-start-'));
    // As root, PostgreSQL runs as the postgres user, which must be able to reach the folder.
    await chmod(dataDir, 0o755);
    try {
      const first = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir });
      const token = String(first.logs.find((entry) => typeof entry.token === 'string')!.token);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const created = await fetch(`${first.baseUrl}/v1/orgs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Kept across restarts' }),
      });
      expect(created.status).toBe(201);
      const stopped = once(first.child, 'exit');
      first.child.kill('SIGTERM');
      expect((await stopped)[0]).toBe(0);

      const second = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir });
      try {
        expect(second.logs.some((entry) => 'token' in entry)).toBe(false);
        const response = await fetch(`${second.baseUrl}/v1/orgs`, { headers });
        const text = await response.text();
        expect(response.status, text).toBe(200);
        const list = JSON.parse(text) as { items: Array<{ title: string }> };
        expect(list.items.map((org) => org.title).sort()).toEqual(['Kept across restarts', 'My organization']);
      } finally {
        const stoppedAgain = once(second.child, 'exit');
        second.child.kill('SIGTERM');
        expect((await stoppedAgain)[0]).toBe(0);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start on a bad setting, naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
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
