import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { freePort } from '../../test/support/app.js';

const root = new URL('../..', import.meta.url).pathname;

export interface ServiceProcess {
  base: string;
  pid: number;
  /** The process's resident set size now, in bytes (Linux /proc). */
  rss(): Promise<number>;
  stop(): Promise<void>;
}

async function run(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/**
 * The service as `npm start` runs it: `npm run build`, then `node
 * dist/server.js`; or, with `fromSources`, `node --import tsx src/server.ts`
 * (no build, but the loader's own memory counts in its RSS). NODE_ENV=production,
 * its request log at the default level (to /dev/null), the rate limits lifted
 * by their settings as an operator would for a load test (the limiter still
 * runs), every other setting at its default.
 */
export async function startService(
  databaseUrl: string,
  log: (message: string) => void,
  fromSources = false,
): Promise<ServiceProcess> {
  if (!fromSources) {
    log('building the service (npm run build)');
    await run('npm', ['run', '-s', 'build']);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const command = fromSources ? ['--import', 'tsx', 'src/server.ts'] : ['dist/server.js'];
  const child = spawn(process.execPath, command, {
    cwd: root,
    // Its request log is read only for the line that says its schemas are compiled, then dropped.
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: base,
      SECRET_KEY: 'scale-secret-key-scale-secret-key-0123456789',
      ENCRYPTION_KEY: 'c2NhbGUtZW5jcnlwdGlvbi1rZXktMzItYnl0ZXMhISE=',
      RATE_LIMIT_MAX: '10000000',
      RATE_LIMIT_ORGANIZATION_MAX: '10000000',
      ...(process.env.SCALE_SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SCALE_SERVICE_NODE_OPTIONS } : {}),
    },
  });
  const stop = stopper(child);
  // A server just started compiles its route schemas between requests for its first minute or so:
  // a load started before that measures the compilation.
  let compiled = false;
  let tail = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    if (compiled) return;
    tail = (tail + chunk.toString('utf8')).slice(-4096);
    if (tail.includes('"compiled every schema"')) compiled = true;
  });
  try {
    await waitFor(`${base}/readyz`, child);
    const deadline = Date.now() + 300_000;
    while (!compiled) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the service never compiled its schemas');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  log(`service process ${child.pid} at ${base} (NODE_ENV=production, node ${command.join(' ')}), its schemas compiled`);
  return {
    base,
    pid: child.pid!,
    rss: async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
      return kb ? Number(kb[1]) * 1024 : NaN;
    },
    stop,
  };
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer 200 within two minutes`);
}

/** Samples `read` every `everyMs` until stopped; the largest sample and how many were taken. */
export function sampleMax(read: () => Promise<number>, everyMs = 200) {
  let max = 0;
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const value = await read().catch(() => NaN);
      if (value > max) max = value;
      samples++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { max, samples };
    },
  };
}
