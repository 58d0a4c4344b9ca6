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
  /** Seconds the load ran. */
  elapsedS: number;
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
    elapsedS: result.elapsedS,
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
    elapsedS: result.duration,
  };
}

/** A load target: its URL and headers, and how it is loaded (see `measure`). */
export interface Target {
  url: string;
  headers: Record<string, string>;
  largeBody?: boolean | undefined;
  expectedStatus?: number | undefined;
}

/** An endpoint and its floor, measured in turns, and the ratio of their requests/s in each turn. */
export interface PairedMeasurement {
  endpoint: Measurement;
  floor: Measurement;
  roundRatios: number[];
}

/** How long each side runs in a round, about: long enough for the rate to settle, short enough for many rounds. */
const ROUND_S = 2;

/**
 * Measures an endpoint against its floor in alternating rounds (endpoint,
 * floor, endpoint, floor…) of about ROUND_S seconds, `settings.durationS`
 * for each side in all, after a warm-up of both. Measured in one run each,
 * the two met the machine at different times, and on this kind of shared
 * machine one side's run could be a quarter slower for reasons of neither: in
 * turns, a slow spell falls on both alike. Requests/s are counted over all
 * rounds; the percentiles are the rounds' median, the max their max.
 */
export async function measureAgainstFloor(
  endpoint: Target,
  floor: Target,
  settings: LoadSettings,
): Promise<PairedMeasurement> {
  const rounds = Math.max(1, Math.round(settings.durationS / ROUND_S));
  // Whole seconds: autocannon stops on a second's tick.
  const round = { ...settings, warmupS: 0, durationS: Math.max(1, Math.round(settings.durationS / rounds)) };
  const load = (target: Target, loadSettings: LoadSettings) =>
    measure(target.url, target.headers, loadSettings, target.largeBody, target.expectedStatus);
  if (settings.warmupS > 0) {
    const warmUp = { ...settings, durationS: settings.warmupS, warmupS: 0 };
    await load(endpoint, warmUp);
    await load(floor, warmUp);
  }
  const endpoints: Measurement[] = [];
  const floors: Measurement[] = [];
  for (let n = 0; n < rounds; n++) {
    endpoints.push(await load(endpoint, round));
    floors.push(await load(floor, round));
  }
  const rate = (measurement: Measurement) => measurement.completed / measurement.elapsedS;
  return {
    endpoint: combined(endpoints),
    floor: combined(floors),
    roundRatios: endpoints.map((measured, n) => rate(measured) / rate(floors[n]!)),
  };
}

/** Rounds of one target as one measurement: its requests over its seconds, its rounds' median percentiles. */
function combined(rounds: Measurement[]): Measurement {
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const completed = rounds.reduce((sum, round) => sum + round.completed, 0);
  const elapsedS = rounds.reduce((sum, round) => sum + round.elapsedS, 0);
  return {
    requestsPerSecond: completed / elapsedS,
    p50Ms: middle(rounds.map((round) => round.p50Ms)),
    p99Ms: middle(rounds.map((round) => round.p99Ms)),
    maxMs: Math.max(...rounds.map((round) => round.maxMs)),
    completed,
    elapsedS,
  };
}
