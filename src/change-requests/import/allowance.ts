/** A website import's limits (IMPORT_MAX_PAGES, IMPORT_MAX_BYTES, IMPORT_TIMEOUT_MS). */
export interface ImportLimits {
  /** Pages fetched at most, failed ones included. */
  maxPages: number;
  /** Bytes fetched at most, pages and images together. */
  maxBytes: number;
  /** Time after which no new page or image is fetched; what was fetched is imported. */
  timeoutMs: number;
}

/** Below this, what is left of the byte limit is not worth a fetch. */
const LEAST_FETCH_BYTES = 1024;

/**
 * What an import may still fetch: bytes and time. A fetch reserves its
 * largest possible size before it starts, so fetches running together can
 * never pass the byte limit between them.
 */
export class Allowance {
  private used = 0;
  private reserved = 0;
  private spent = false;
  private readonly endsAt: number;

  constructor(private readonly limits: ImportLimits) {
    this.endsAt = performance.now() + limits.timeoutMs;
  }

  get timeIsUp(): boolean {
    return performance.now() >= this.endsAt;
  }

  /** Bytes fetched so far. */
  get bytes(): number {
    return this.used;
  }

  /** Reserves up to `cap` bytes for one fetch: what it may read, or 0 when the limits leave none. */
  reserve(cap: number): number {
    if (this.spent || this.timeIsUp) return 0;
    const size = Math.min(cap, this.limits.maxBytes - this.used - this.reserved);
    if (size < LEAST_FETCH_BYTES) return 0;
    this.reserved += size;
    return size;
  }

  /** A fetch that reserved `size` read `read` bytes. */
  settle(size: number, read: number): void {
    this.reserved -= size;
    this.used += read;
  }

  /** Nothing more is fetched: a fetch cut short by the byte limit found it reached. */
  exhaust(): void {
    this.spent = true;
  }
}
