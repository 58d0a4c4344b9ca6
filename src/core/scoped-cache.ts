import { LRUCache } from 'lru-cache';

/** Scopes whose generation is remembered; past it, all are forgotten at once, with every entry. */
const MAX_SCOPES = 100_000;

interface Entry {
  value: Buffer;
  generation: number;
}

/**
 * A short-lived cache of computed answers (bytes ready to send), bounded by
 * their total size: an lru-cache whose entries live `ttlMs` at most, so a
 * change made on another instance shows within that time. What lru-cache
 * lacks is scopes: a change made on this instance drops every entry of its
 * scope (`invalidate`) at once. `ttlMs` 0 turns it off.
 */
export class ScopedCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly generations = new Map<string, number>();
  /** Bumped by `clear`. A scope's generation is its own count plus this: either change moves it. */
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    capacityBytes: number,
    now: () => number = Date.now,
    private readonly maxScopes = MAX_SCOPES,
  ) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: capacityBytes,
      // lru-cache counts a size of at least 1.
      sizeCalculation: (entry) => Math.max(entry.value.length, 1),
      ttl: ttlMs,
      // Ages are read from the given clock at every look (no 1 ms memo), so that a test's clock decides them.
      perf: { now },
      ttlResolution: 0,
    });
  }

  get(scope: string, key: string): Buffer | undefined {
    if (this.ttlMs === 0) return undefined;
    const id = `${scope}\u0000${key}`;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.generation !== this.generationOf(scope)) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Keeps `value` for `key`, unless the scope was invalidated since `generation`
   * (taken with `generationOf` before the value was computed): a value computed
   * from rows that changed meanwhile is not kept.
   */
  set(scope: string, key: string, value: Buffer, generation: number): void {
    if (this.ttlMs === 0 || generation !== this.generationOf(scope)) return;
    this.entries.set(`${scope}\u0000${key}`, { value, generation });
  }

  /** What it holds now, for monitoring: entries and their bytes against the bound, and the scopes whose generation it tracks. */
  stats(): { entries: number; bytes: number; capacityBytes: number; scopes: number } {
    return {
      entries: this.entries.size,
      bytes: this.entries.calculatedSize,
      capacityBytes: this.entries.maxSize,
      scopes: this.generations.size,
    };
  }

  generationOf(scope: string): number {
    return (this.generations.get(scope) ?? 0) + this.epoch;
  }

  invalidate(scope: string): void {
    if (this.generations.size >= this.maxScopes && !this.generations.has(scope)) this.clear();
    this.generations.set(scope, (this.generations.get(scope) ?? 0) + 1);
  }

  /**
   * Drops every entry, of every scope: for a change whose scopes are not
   * known. The scopes' generations are forgotten too, so they stay bounded:
   * the new epoch is above every generation handed out so far, so neither a
   * kept entry nor a value computed before the clear can match one after it.
   */
  clear(): void {
    let highest = 0;
    for (const generation of this.generations.values()) highest = Math.max(highest, generation);
    this.epoch += highest + 1;
    this.generations.clear();
    this.entries.clear();
  }
}
