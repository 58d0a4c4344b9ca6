import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { CounterReport, OthersCount } from './messages.js';

/**
 * How long a worker gathers what it admitted before it reports it: the most
 * that another worker's view of a counter lags behind, past the channel's own
 * delay. Under load one message per worker per interval, whatever the rate.
 */
export const REPORT_INTERVAL_MS = 25;

/** Counters kept per process; past this, those of ended windows go, then the oldest. */
const MAX_COUNTERS = 100_000;

interface Counter {
  /** When its fixed window began, ms since the epoch: every process shares one clock, so windows line up. */
  start: number;
  windowMs: number;
  /** Admitted by this worker in the window. */
  own: number;
  /** Of `own`, not yet reported. */
  unreported: number;
  /** Admitted by the other workers, as last heard. */
  others: number;
}

const windowStart = (now: number, windowMs: number) => now - (now % windowMs);

/** Makes room for one more counter: the ended windows go, and if none has ended, the oldest counter. */
function makeRoom<Entry extends { start: number; windowMs: number }>(counters: Map<string, Entry>, now: number): void {
  if (counters.size < MAX_COUNTERS) return;
  for (const [key, counter] of counters) if (counter.start + counter.windowMs <= now) counters.delete(key);
  if (counters.size >= MAX_COUNTERS) counters.delete(counters.keys().next().value!);
}

/**
 * A worker's rate-limit counters when several processes share one port and
 * no Redis: each request is counted here, at once and without a round trip;
 * what it admitted is reported to the primary every REPORT_INTERVAL_MS, and
 * what the others admitted comes back from it. A budget then holds across the
 * workers but for what the others admitted in the last interval or so.
 */
export class WorkerCounters {
  private readonly counters = new Map<string, Counter>();
  private readonly unreported = new Set<string>();
  private reportTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: (reports: CounterReport[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request on `key`: how many every worker admitted in its window, and the ms left of it. */
  increment(key: string, windowMs: number): { current: number; ttl: number } {
    const now = this.now();
    const counter = this.counterAt(key, windowStart(now, windowMs), windowMs, now);
    counter.own++;
    counter.unreported++;
    this.unreported.add(key);
    this.reportTimer ??= setTimeout(() => this.flush(), REPORT_INTERVAL_MS).unref();
    return { current: counter.own + counter.others, ttl: counter.start + windowMs - now };
  }

  /** What every worker admitted on `key` in its window so far, without counting a request; undefined if none. */
  peek(key: string, windowMs: number): { count: number; resetAt: number } | undefined {
    const counter = this.counters.get(key);
    if (!counter || counter.start !== windowStart(this.now(), windowMs)) return undefined;
    return { count: counter.own + counter.others, resetAt: counter.start + windowMs };
  }

  /** What the other workers admitted, as the primary tallied it. */
  heard(counts: OthersCount[]): void {
    const now = this.now();
    for (const [key, start, windowMs, admitted] of counts) {
      const counter = this.counterAt(key, start, windowMs, now);
      // A later window of this key has begun here already: the count is of one that ended.
      if (counter.start === start) counter.others = Math.max(counter.others, admitted);
    }
  }

  /** Reports what was admitted since the last report. */
  flush(): void {
    clearTimeout(this.reportTimer);
    this.reportTimer = undefined;
    const reports: CounterReport[] = [];
    for (const key of this.unreported) {
      const counter = this.counters.get(key);
      if (!counter || counter.unreported === 0) continue;
      reports.push([key, counter.start, counter.windowMs, counter.unreported]);
      counter.unreported = 0;
    }
    this.unreported.clear();
    if (reports.length > 0) this.report(reports);
  }

  /** The key's counter of the window that began at `start`, or of a later one if it began here already. */
  private counterAt(key: string, start: number, windowMs: number, now: number): Counter {
    const counter = this.counters.get(key);
    if (counter && counter.start >= start) return counter;
    if (!counter) makeRoom(this.counters, now);
    // A new window, or a later one than this worker's: nothing of the old one is left to report.
    const fresh: Counter = { start, windowMs, own: 0, unreported: 0, others: 0 };
    this.counters.set(key, fresh);
    return fresh;
  }
}

interface Tally {
  start: number;
  windowMs: number;
  total: number;
  /** What each worker (by its cluster id) admitted of `total`. */
  byWorker: Map<number, number>;
}

/**
 * The primary's side: adds up what each worker reports, and tells every other
 * worker what the rest admitted on the counters that moved.
 */
export class CounterTally {
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Adds a worker's reports; returns, for each other worker named, what to tell it. */
  add(from: number, reports: CounterReport[], workers: Iterable<number>): Map<number, OthersCount[]> {
    const moved: Array<[string, Tally]> = [];
    for (const [key, start, windowMs, admitted] of reports) {
      let tally = this.tallies.get(key);
      if (tally && tally.start > start) continue; // a report of a window that has ended
      if (!tally || tally.start < start) {
        if (!tally) makeRoom(this.tallies, this.now());
        tally = { start, windowMs, total: 0, byWorker: new Map() };
        this.tallies.set(key, tally);
      }
      tally.total += admitted;
      tally.byWorker.set(from, (tally.byWorker.get(from) ?? 0) + admitted);
      moved.push([key, tally]);
    }
    const toTell = new Map<number, OthersCount[]>();
    for (const worker of workers) {
      if (worker === from) continue;
      toTell.set(
        worker,
        moved.map(([key, tally]) => [
          key,
          tally.start,
          tally.windowMs,
          tally.total - (tally.byWorker.get(worker) ?? 0),
        ]),
      );
    }
    return toTell;
  }
}

/**
 * The rate-limit plugin's store over a worker's counters. Like the plugin's
 * own memory store, each route with limits of its own (a child) counts apart:
 * children are made in the order routes are registered, the same in every
 * worker, so their numbers name the same counters everywhere.
 */
export function sharedCountersStore(counters: WorkerCounters): FastifyRateLimitStoreCtor {
  let children = 0;
  return class SharedCountersStore implements FastifyRateLimitStore {
    /** The plugin passes its options, which this store has no use for. */
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
    ): void {
      callback(null, counters.increment(this.prefix + key, timeWindow!));
    }

    child(): FastifyRateLimitStore {
      return new SharedCountersStore(undefined, `${++children}/`);
    }
  };
}
