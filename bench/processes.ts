import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { open, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../test/support/app.js';

/**
 * The keys both the in-process app (which seeds) and the service process use:
 * a cursor the one signs the other reads, and a production start needs both.
 */
export const BENCH_KEYS = {
  secretKey: 'test-secret-key-test-secret-key-0123456789',
  encryptionKey: 'YmVuY2gtZW5jcnlwdGlvbi1rZXktMzItYnl0ZXMhISE=',
};

/** The rate limits lifted by their settings, as an operator would for a load test: the limiter still runs. */
const LIFTED_RATE_LIMIT = { RATE_LIMIT_MAX: '10000000', RATE_LIMIT_ORGANIZATION_MAX: '10000000' };

const root = new URL('..', import.meta.url).pathname;

/** The service's PROCESSES: `BENCH_PROCESSES`, else 1. */
export const SERVICE_PROCESSES = Number(process.env.BENCH_PROCESSES ?? '1');

/**
 * What the service process is started with: production, every setting at its
 * default but the rate limits, lifted as an operator would for a load test
 * (the limiter still runs), and the bench's keys, so that its cursors read here.
 * glibc's MALLOC_ARENA_MAX, an operator's way to bound memory outside the
 * JavaScript heap, is passed on where the bench is given it.
 */
export function serviceEnvironment(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SECRET_KEY: BENCH_KEYS.secretKey,
    ENCRYPTION_KEY: BENCH_KEYS.encryptionKey,
    ...LIFTED_RATE_LIMIT,
    PROCESSES: String(SERVICE_PROCESSES),
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
  };
}

export interface RunningProcess {
  base: string;
  stop(): Promise<void>;
}

/** Runs a command in the project's folder, its output on the bench's; fails unless it exits 0. */
export async function run(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/** Stops a child with SIGTERM, then SIGKILL if it has not exited 15 s later. */
export function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}

/** Polls `done` until it holds, or fails when the child exits first or `timeoutS` pass. */
async function waitFor(
  what: string,
  child: ChildProcess,
  done: () => Promise<boolean>,
  timeoutS: number,
): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}`);
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not happen within ${timeoutS} s`);
}

/**
 * The service as a user starts it: `npm run build`, then `node dist/server.js`
 * (what `npm start` runs) with NODE_ENV=production, the default log level
 * (info: a line per request, to a file, as an operator keeps them) and every
 * other setting at its default but the rate limits and the keys. Ready once
 * it has compiled every route's schemas, which it does after it listens,
 * between requests: a load during those seconds would measure the compilation.
 */
export async function startServiceProcess(
  databaseUrl: string,
  log: (message: string) => void,
): Promise<RunningProcess> {
  log('building the service (npm run build)');
  await run('npm', ['run', '-s', 'build']);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const folder = await mkdtemp(path.join(tmpdir(), 'quire-bench-service-'));
  const logFile = path.join(folder, 'service.log');
  const logHandle = await open(logFile, 'w');
  // A profiler or the like, for a scratch run: `BENCH_SERVICE_NODE_OPTIONS=--cpu-prof`. On Node's command line
  // rather than in NODE_OPTIONS, which refuses some options (--cpu-prof among them).
  const nodeOptions = (process.env.BENCH_SERVICE_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeOptions, 'dist/server.js'], {
    cwd: root,
    stdio: ['ignore', logHandle.fd, 'inherit'],
    env: serviceEnvironment(databaseUrl, port),
  });
  await logHandle.close();
  const stopChild = stopper(child);
  const stop = async () => {
    await stopChild();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    // Each process compiles its own.
    const compiled = async () =>
      (await readFile(logFile, 'utf8')).split('"compiled every schema"').length > SERVICE_PROCESSES;
    await waitFor('compiling every schema', child, compiled, 300);
  } catch (error) {
    log(`the service's log:\n${await readFile(logFile, 'utf8').catch(() => '')}`);
    await stop();
    throw error;
  }
  log(
    `service process ${child.pid} at ${base} (NODE_ENV=production, PROCESSES=${SERVICE_PROCESSES}, node dist/server.js), its schemas compiled`,
  );
  return { base, stop };
}

export interface FloorBodies {
  /** The organization whose row the floor reads before each answer. */
  organizationId: string;
  bodies: Array<{ body: Buffer; headers: Record<string, string> }>;
}

/** bench/floor-server.ts in a process of its own, with the same loader flags as this one (it is TypeScript). */
export async function startFloorProcess(
  databaseUrl: string,
  poolSize: number,
  floors: FloorBodies,
): Promise<RunningProcess> {
  const folder = await mkdtemp(path.join(tmpdir(), 'quire-bench-floor-'));
  const bodiesFile = path.join(folder, 'bodies.json');
  await writeFile(
    bodiesFile,
    JSON.stringify(floors.bodies.map(({ body, headers }) => ({ body: body.toString('base64'), headers }))),
  );
  const script = new URL('./floor-server.ts', import.meta.url).pathname;
  const argument = JSON.stringify({ databaseUrl, organizationId: floors.organizationId, bodiesFile, poolSize });
  const child = spawn(process.execPath, [...process.execArgv, script, argument], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stopChild = stopper(child);
  const stop = async () => {
    await stopChild();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const [line] = (await Promise.race([
      once(child.stdout!, 'data'),
      once(child, 'exit').then(([code]) => Promise.reject(new Error(`the floor process exited with ${code}`))),
    ])) as [Buffer];
    return { base: line.toString().trim(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
