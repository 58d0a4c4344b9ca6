/**
 * A least-recently-used map bounded by the total weight of its values. The
 * content store keeps in it only what is derived from immutable rows
 * (revisions, documents), so its entries never go stale; ScopedCache adds a
 * time to live for what can.
 */
export class WeightedLru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    /** The most total weight it holds, in the unit `weigh` returns. */
    readonly capacity: number,
    private readonly weigh: (value: V) => number,
  ) {}

  /** Entries held now: for monitoring. */
  get size(): number {
    return this.entries.size;
  }

  /** Total weight held now, at most `capacity`: for monitoring. */
  get weight(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-inserting moves the key to the end: the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value);
    const previous = this.entries.get(key);
    if (previous) {
      this.total -= previous.weight;
      this.entries.delete(key);
    }
    if (weight > this.capacity) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.capacity) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total -= entry.weight;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** The cached value, or the one `load` makes (concurrent misses for one key share one load). */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const loading = load().then(
      (value) => {
        this.loading.delete(key);
        this.set(key, value);
        return value;
      },
      (error: unknown) => {
        this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, loading);
    return loading;
  }

  private readonly loading = new Map<K, Promise<V>>();
}
