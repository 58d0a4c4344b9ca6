import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { freePort } from '../../test/support/app.js';
import { run, serviceEnvironment, stopper } from '../processes.js';

const root = new URL('../..', import.meta.url).pathname;

/**
 * An instance given 512 MiB, as an operator would start it: its JavaScript
 * heap limited to 336 MiB, the rest left to its conversion threads, buffers
 * and code. The content caches size themselves from that limit
 * (CONTENT_CACHE_BYTES). SCALE_SERVICE_NODE_OPTIONS replaces it (empty: none).
 */
export const SERVICE_NODE_OPTIONS = '--max-old-space-size=336';

export const serviceNodeOptions = () => process.env.SCALE_SERVICE_NODE_OPTIONS ?? SERVICE_NODE_OPTIONS;

export interface ServiceProcess {
  base: string;
  pid: number;
  /** The process's resident set size now, in bytes (Linux /proc). */
  rss(): Promise<number>;
  stop(): Promise<void>;
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
  // Node's options on its command line rather than in NODE_OPTIONS, which refuses some of them (--trace-gc).
  const nodeOptions = serviceNodeOptions().split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeOptions, ...command], {
    cwd: root,
    // Its request log is read for the line that says its schemas are compiled, and kept only in SCALE_SERVICE_LOG.
    stdio: ['ignore', 'pipe', 'inherit'],
    env: serviceEnvironment(databaseUrl, port),
  });
  const stop = stopper(child);
  // A server just started compiles its route schemas between requests for its first minute or so:
  // a load started before that measures the compilation.
  let compiled = false;
  let tail = '';
  // Kept where asked (SCALE_SERVICE_LOG), with what Node's options such as --trace-gc print there.
  const kept = process.env.SCALE_SERVICE_LOG;
  if (kept) child.stdout!.pipe(createWriteStream(kept));
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
