import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface LoadSettings {
  /** Seconds measured. */
  durationS: number;
  /** Seconds of load before the measurement, not counted. */
  warmupS: number;
  connections: number;
}

export interface Measurement {
  /** Mean of the per-second request counts. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  completed: number;
}

function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  durationS: number,
): PromiseLike<autocannon.Result> {
  // In a worker thread of its own: on the server's event loop, reading large
  // responses would be charged to the endpoint being measured.
  return autocannon({ url, headers, connections, duration: durationS, workers: 1 });
}

/**
 * A benchmark of error responses measures the error path, not the endpoint,
 * so any non-2xx (other than the `expected` status), socket error or timeout
 * fails the run instead of being averaged in.
 */
function assertAllSucceeded(phase: string, url: string, result: autocannon.Result, expected?: number): void {
  const answered = expected === undefined ? result['2xx'] : (result.statusCodeStats[expected]?.count ?? 0);
  const all = Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + count, 0);
  const wrong = expected === undefined ? result.non2xx : all - answered;
  if (wrong === 0 && result.errors === 0 && result.timeouts === 0 && answered > 0) return;
  const statuses = Object.entries(result.statusCodeStats)
    .map(([status, { count }]) => `${status}×${count}`)
    .join(', ');
  throw new Error(
    `${phase} of ${url} did not succeed throughout: ${result['2xx']} 2xx, ${result.non2xx} non-2xx (${statuses || 'none'}), ` +
      `${result.errors} errors, ${result.timeouts} timeouts`,
  );
}

const run = promisify(execFile);

interface HttpLoadResult {
  latenciesMs: number[];
  failures: number;
  elapsedS: number;
}

/** Loads with bench/http-load.ts in a child process (the same loader flags as this one, so it runs as TypeScript). */
async function loadLargeBodies(
  url: string,
  headers: Record<string, string>,
  connections: number,
  durationS: number,
): Promise<Measurement> {
  const script = new URL('./http-load.ts', import.meta.url).pathname;
  const { stdout } = await run(
    process.execPath,
    [...process.execArgv, script, JSON.stringify({ url, headers, connections, durationS })],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const result = JSON.parse(stdout) as HttpLoadResult;
  if (result.failures > 0 || result.latenciesMs.length === 0) {
    throw new Error(
      `Load of ${url} did not succeed throughout: ${result.latenciesMs.length} 2xx, ${result.failures} failed`,
    );
  }
  const sorted = result.latenciesMs.sort((a, b) => a - b);
  const at = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!);
  return {
    requestsPerSecond: sorted.length / result.elapsedS,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: Math.round(sorted.at(-1)!),
    completed: sorted.length,
  };
}

/**
 * Loads `url` for the warm-up, then for the measured duration, with the same
 * connections. `largeBody` switches to a client whose own parsing is not
 * what gets measured (see http-load.ts).
 */
export async function measure(
  url: string,
  headers: Record<string, string>,
  settings: LoadSettings,
  largeBody = false,
  /** A status other than 2xx every answer must have (304 to a revalidation); autocannon only. */
  expectedStatus?: number,
): Promise<Measurement> {
  if (largeBody) {
    if (settings.warmupS > 0) await loadLargeBodies(url, headers, settings.connections, settings.warmupS);
    return loadLargeBodies(url, headers, settings.connections, settings.durationS);
  }
  // The warm-up fills the JIT, the database pool, the auth cache and
  // PostgreSQL's buffers, which the first seconds of any run would otherwise pay for.
  if (settings.warmupS > 0)
    assertAllSucceeded(
      'Warm-up',
      url,
      await load(url, headers, settings.connections, settings.warmupS),
      expectedStatus,
    );
  const result = await load(url, headers, settings.connections, settings.durationS);
  assertAllSucceeded('Measurement', url, result, expectedStatus);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    completed: result.latency.totalCount,
  };
}
