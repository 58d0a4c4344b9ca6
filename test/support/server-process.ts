import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What the test servers are started with, under the test's own `env`. Test
 * files share two cores: a lagging event loop there is the machine's, not a
 * reason to refuse (as in testConfig); and a server that lives a few requests
 * compiles only its routes' schemas, not all 2,555 (some 5 s of a core each,
 * of the 19 such servers of a run; test/server.test.ts starts one that does).
 */
const TEST_SERVER_ENVIRONMENT = {
  PORT: '0',
  LOG_LEVEL: 'info',
  MAX_EVENT_LOOP_DELAY_MS: '0',
  PRECOMPILE_SCHEMAS: 'false',
};

export type LogEntry = Record<string, unknown>;

export interface RunningServer {
  child: ChildProcess;
  /** Its log lines so far, parsed. */
  logs: LogEntry[];
  baseUrl: string;
}

/** What `npm start` runs once its `prestart` has built dist/ (test/support/global-setup.ts builds it for the run). */
export const SERVER_ARGS = ['dist/server.js'];

/**
 * The command-line tool `npm run cli` runs through tsx, from dist/ as the run
 * built it: the same code, started in half the time, as no module is
 * transpiled on the way.
 */
export const CLI_ARGS = ['dist/cli.js'];

/**
 * Starts the built server as its own process, as `npm start` does, on a free
 * port, and waits until it is ready. `env` comes over the defaults.
 */
export async function startServerProcess(
  env: Record<string, string>,
  /** In a process group of its own, as a terminal or a service manager starts it, so that a test can signal the group. */
  options: { detached?: boolean } = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: root,
    detached: options.detached ?? false,
    env: { ...process.env, ...TEST_SERVER_ENVIRONMENT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogEntry[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const entry = JSON.parse(line) as LogEntry;
        logs.push(entry);
        // Logged after the first-start setup, once the service listens.
        if (String(entry.msg).startsWith('ready:')) resolve(String(entry.url));
      }
    });
    child.once('exit', (code) =>
      reject(
        new Error(`server exited with ${code}: ${(buffered + stderr).slice(-2000)} ${JSON.stringify(logs.slice(-3))}`),
      ),
    );
  });
  return { child, logs, baseUrl };
}

/** Runs the built server until it exits by itself (a refused start), with what it wrote. */
export async function runServerToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; logs: LogEntry[] }> {
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: root,
    env: { ...process.env, ...TEST_SERVER_ENVIRONMENT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const logs = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogEntry);
  return { code, output, logs };
}
