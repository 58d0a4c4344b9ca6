import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type LogEntry = Record<string, unknown>;

export interface RunningServer {
  child: ChildProcess;
  /** Its log lines so far, parsed. */
  logs: LogEntry[];
  baseUrl: string;
}

/**
 * Starts `src/server.ts` as its own process, as `npm start` does, on a free
 * port, and waits until it listens. `env` comes over the defaults.
 */
export async function startServerProcess(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    // Test files share two cores: a lagging event loop there is the machine's, not a reason to refuse (as in testConfig).
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', MAX_EVENT_LOOP_DELAY_MS: '0', ...env },
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
        const listening = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(String(entry.msg));
        if (listening) resolve(listening[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr.slice(-2000)}`)));
  });
  return { child, logs, baseUrl };
}
