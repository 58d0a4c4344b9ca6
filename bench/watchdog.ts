import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

/**
 * Runs in a separate, detached Node process and drops the database when this
 * process goes away without saying "done" first. Signal handlers are not
 * enough: `tsx` (what `npm run bench` runs) SIGKILLs its child when Ctrl-C
 * arrives while the event loop is busy, e.g. while Fastify compiles schemas.
 * The pipe to the watchdog closes however this process ends.
 */
const WATCHDOG = `
const pg = require(process.env.BENCH_WATCHDOG_PG);
const drop = 'DROP DATABASE IF EXISTS "' + process.env.BENCH_WATCHDOG_DATABASE + '" WITH (FORCE)';
let released = false;
process.stdin.on('data', (chunk) => { if (String(chunk).includes('done')) released = true; });
process.stdin.on('end', async () => {
  if (released) return;
  // Twice, a second apart: a CREATE DATABASE still running at the moment of death would hide the first.
  for (let attempt = 0; attempt < 2; attempt++) {
    const client = new pg.Client({ connectionString: process.env.BENCH_WATCHDOG_ADMIN_URL });
    try { await client.connect(); await client.query(drop); } catch {} finally { await client.end().catch(() => {}); }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
});
`;

export interface Watchdog {
  /** Tells the watchdog the database is gone (or will be dropped elsewhere) and lets it exit. */
  release(): void;
}

/** `name` must be safe to put in a statement as is (database.ts makes it from hex digits). */
export function watchDatabase(adminUrl: string, name: string): Watchdog {
  const child = spawn(process.execPath, ['-e', WATCHDOG], {
    // Its own process group, so the terminal's Ctrl-C does not reach it.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    // In the environment, not argv, so the URL (it may hold a password) stays out of `ps`.
    env: {
      ...process.env,
      BENCH_WATCHDOG_PG: createRequire(import.meta.url).resolve('pg'),
      BENCH_WATCHDOG_ADMIN_URL: adminUrl,
      BENCH_WATCHDOG_DATABASE: name,
    },
  });
  // Neither the child nor the pipe may keep this process alive.
  child.unref();
  (child.stdin as unknown as Socket).unref();
  return {
    release: () => {
      if (child.stdin?.writable) child.stdin.end('done\n');
    },
  };
}
