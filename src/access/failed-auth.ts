import { ApiError } from '../core/errors.js';
import type { WorkerCounters } from '../core/processes/rate-limit-counters.js';

export const MAX_TRACKED_ADDRESSES = 50_000;

/**
 * Counts failed authentications per client address in fixed windows. Requests
 * with made-up tokens never reach the per-user rate limit, which counts only
 * the users of real tokens; this bounds how many token lookups one address can cause.
 * Counters live in the process, like the rate limiter's; with `shared`, in
 * the counters the processes of one port add up (PROCESSES).
 */
export class FailedAuthLimiter {
  private readonly windows = new Map<string, { failures: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly shared?: WorkerCounters,
  ) {}

  /** Addresses tracked now, at most MAX_TRACKED_ADDRESSES. */
  get size(): number {
    return this.windows.size;
  }

  /** Throws 429 when the address used up its failures for this window. */
  check(address: string, now: number): void {
    const retryAfter = this.retryAfter(address, now);
    if (retryAfter === undefined) return;
    throw new ApiError(429, `Too many failed authentications from this address; retry after ${retryAfter} seconds`, {
      'retry-after': String(retryAfter),
    });
  }

  /** Seconds until the key's window ends, when it used up its failures; else undefined. */
  retryAfter(key: string, now: number): number | undefined {
    const window = this.shared ? this.sharedWindow(key) : this.windows.get(key);
    if (!window || window.resetAt <= now || window.failures < this.max) return undefined;
    return Math.ceil((window.resetAt - now) / 1000);
  }

  recordFailure(address: string, now: number): void {
    if (this.shared) {
      this.shared.increment(`failed-auth:${address}`, this.windowMs);
      return;
    }
    const window = this.windows.get(address);
    if (window && window.resetAt > now) {
      window.failures++;
      return;
    }
    if (this.windows.size >= MAX_TRACKED_ADDRESSES) this.evictExpired(now);
    this.windows.set(address, { failures: 1, resetAt: now + this.windowMs });
  }

  private sharedWindow(address: string): { failures: number; resetAt: number } | undefined {
    const counted = this.shared!.peek(`failed-auth:${address}`, this.windowMs);
    return counted && { failures: counted.count, resetAt: counted.resetAt };
  }

  private evictExpired(now: number): void {
    for (const [address, window] of this.windows) if (window.resetAt <= now) this.windows.delete(address);
    // Still full of live windows: forget the oldest rather than grow without bound.
    if (this.windows.size >= MAX_TRACKED_ADDRESSES) this.windows.delete(this.windows.keys().next().value!);
  }
}
