import autocannon from 'autocannon';
import { measure } from '../measure.js';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Loads `base` with `connections` for `durationS` seconds, each request to
 * the next of `paths` in turn (one path: always that one); after a warm-up of
 * `warmupS` not counted. Any answer but 2xx fails the run: an error path
 * measured would pass for the endpoint.
 */
export async function load(
  base: string,
  paths: readonly string[],
  headers: Record<string, string>,
  settings: { connections: number; durationS: number; warmupS: number },
  /** Bodies of megabytes, from one path: read by bench/http-load.ts, as autocannon's own parsing would be measured. */
  largeBody = false,
): Promise<LoadResult> {
  if (largeBody) {
    const { completed, ...measured } = await measure(base + paths[0]!, headers, settings, true);
    return { ...measured, requests: completed };
  }
  let next = 0;
  const run = (durationS: number) =>
    autocannon({
      url: base + paths[0],
      headers,
      connections: settings.connections,
      duration: durationS,
      timeout: 30,
      requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
    });
  if (settings.warmupS > 0) check(await run(settings.warmupS), 'warm-up', paths[0]!);
  const result = await run(settings.durationS);
  check(result, 'measurement', paths[0]!);
  return {
    requests: result.latency.totalCount,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
  };
}

function check(result: autocannon.Result, phase: string, path: string): void {
  // A short warm-up of a slow answer may end before any completes; the measurement may not.
  const completed = result['2xx'] > 0 || phase === 'warm-up';
  if (result.non2xx === 0 && result.errors === 0 && result.timeouts === 0 && completed) return;
  const statuses = Object.entries(result.statusCodeStats)
    .map(([status, { count }]) => `${status}×${count}`)
    .join(', ');
  throw new Error(
    `The ${phase} of ${path} did not succeed throughout: ${result['2xx']} 2xx, ${result.non2xx} non-2xx (${statuses}), ` +
      `${result.errors} errors, ${result.timeouts} timeouts`,
  );
}
