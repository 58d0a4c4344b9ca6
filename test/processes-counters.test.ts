import { describe, expect, it } from 'vitest';
import type { CounterReport, OthersCount } from '../src/core/processes/messages.js';
import { CounterTally, sharedCountersStore, WorkerCounters } from '../src/core/processes/rate-limit-counters.js';

const WINDOW = 60_000;

/**
 * Two workers and a primary's tally wired as the cluster's channel wires them,
 * in one process, on a clock of the test's: a worker's reports reach the tally
 * on flush(), and what the tally tells comes back at once.
 */
function twoWorkers(start = 1_000 * WINDOW) {
  let now = start;
  const clock = () => now;
  const tally = new CounterTally(clock);
  const workers = new Map<number, WorkerCounters>();
  const told: Array<{ to: number; counts: OthersCount[] }> = [];
  for (const id of [1, 2]) {
    workers.set(
      id,
      new WorkerCounters((reports: CounterReport[]) => {
        for (const [to, counts] of tally.add(id, reports, workers.keys())) {
          told.push({ to, counts });
          workers.get(to)!.heard(counts);
        }
      }, clock),
    );
  }
  return { one: workers.get(1)!, two: workers.get(2)!, told, advance: (ms: number) => (now += ms) };
}

describe("the workers' shared rate-limit counters", () => {
  it('count what the other worker admitted once it reports, and tell each only what the others admitted', () => {
    const { one, two, told } = twoWorkers();
    for (let i = 0; i < 3; i++) one.increment('user:a', WINDOW);
    expect(two.increment('user:a', WINDOW).current).toBe(1);
    one.flush();
    expect(told).toEqual([{ to: 2, counts: [['user:a', 1_000 * WINDOW, WINDOW, 3]] }]);
    expect(two.increment('user:a', WINDOW).current).toBe(5);
    two.flush();
    // Worker 1 hears worker 2's two, not its own three again.
    expect(told.at(-1)).toEqual({ to: 1, counts: [['user:a', 1_000 * WINDOW, WINDOW, 2]] });
    expect(one.increment('user:a', WINDOW).current).toBe(6);
    // Another key counts apart, and a flush with nothing new tells nothing.
    expect(one.increment('user:b', WINDOW).current).toBe(1);
    two.flush();
    expect(told).toHaveLength(2);
  });

  it('begin again in a new window on both, with the time left of the window as ttl', () => {
    const { one, two, advance } = twoWorkers();
    advance(15_000);
    expect(one.increment('user:a', WINDOW)).toEqual({ current: 1, ttl: 45_000 });
    one.flush();
    expect(two.increment('user:a', WINDOW).current).toBe(2);
    advance(WINDOW);
    expect(one.increment('user:a', WINDOW)).toEqual({ current: 1, ttl: 45_000 });
    expect(two.increment('user:a', WINDOW).current).toBe(1);
  });

  it('drop what a worker had not reported of a window once it hears of a later one', () => {
    const { one, two, advance, told } = twoWorkers();
    one.increment('user:a', WINDOW);
    advance(WINDOW);
    // Worker 2 is in the new window before worker 1 has reported its request of the old one.
    two.increment('user:a', WINDOW);
    two.flush();
    one.flush();
    expect(told).toEqual([{ to: 1, counts: [['user:a', 1_001 * WINDOW, WINDOW, 1]] }]);
    expect(two.increment('user:a', WINDOW).current).toBe(2);
    expect(one.increment('user:a', WINDOW).current).toBe(2);
  });

  it('tally no report of a window that has ended where a later one has begun', () => {
    const tally = new CounterTally(() => 1_001 * WINDOW);
    tally.add(2, [['user:a', 1_001 * WINDOW, WINDOW, 4]], [1, 2]);
    expect(tally.add(1, [['user:a', 1_000 * WINDOW, WINDOW, 9]], [1, 2])).toEqual(new Map([[2, []]]));
    expect(tally.add(3, [['user:a', 1_001 * WINDOW, WINDOW, 1]], [1, 2, 3])).toEqual(
      new Map([
        [1, [['user:a', 1_001 * WINDOW, WINDOW, 5]]],
        [2, [['user:a', 1_001 * WINDOW, WINDOW, 1]]],
      ]),
    );
  });

  it('tell what every worker counted in the window without counting, and nothing of an ended window', () => {
    const { one, two, advance } = twoWorkers();
    expect(one.peek('failed-auth:ip', WINDOW)).toBeUndefined();
    two.increment('failed-auth:ip', WINDOW);
    two.increment('failed-auth:ip', WINDOW);
    two.flush();
    one.increment('failed-auth:ip', WINDOW);
    expect(one.peek('failed-auth:ip', WINDOW)).toEqual({ count: 3, resetAt: 1_001 * WINDOW });
    expect(one.peek('failed-auth:ip', WINDOW)).toEqual({ count: 3, resetAt: 1_001 * WINDOW });
    advance(WINDOW);
    expect(one.peek('failed-auth:ip', WINDOW)).toBeUndefined();
  });

  it('keep the counts of a route with limits of its own apart, as the plugin does', () => {
    const counters = new WorkerCounters(() => {});
    const Store = sharedCountersStore(counters);
    const store = new Store({});
    const route = store.child({} as never);
    const results: number[] = [];
    const record = (_error: Error | null, result?: { current: number }) => results.push(result!.current);
    const incr = (on: typeof store) => (on.incr as (...args: unknown[]) => void)('user:a', record, WINDOW, 10);
    incr(store);
    incr(store);
    incr(route);
    expect(results).toEqual([1, 2, 1]);
  });
});
