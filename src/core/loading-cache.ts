import { LRUCache } from 'lru-cache';

/**
 * An LRU cache bounded by the total size of its values (lru-cache's `maxSize`),
 * whose misses each caller loads with a function of its own: `loaded` passes it
 * as the fetch's context, so concurrent misses of one key share one load.
 */
export type LoadingCache<V extends object | string> = LRUCache<string, V, () => Promise<V>>;

export function loadingCache<V extends object | string>(
  maxSize: number,
  sizeOf: (value: V) => number,
): LoadingCache<V> {
  return new LRUCache<string, V, () => Promise<V>>({
    // lru-cache needs a bound: with 0 nothing is kept, loads are still shared.
    maxSize: Math.max(maxSize, 1),
    sizeCalculation: sizeOf,
    fetchMethod: (_key, _stale, { context }) => context(),
    // Callers wait for the load: it ends and is kept even if its entry is dropped meanwhile (a clear, an eviction).
    ignoreFetchAbort: true,
  });
}

/** The value cached for `key`, or the one `load` makes (and the cache keeps, unless it is larger than the bound). */
export async function loaded<V extends object | string>(
  cache: LoadingCache<V>,
  key: string,
  load: () => Promise<V>,
): Promise<V> {
  const value = await cache.fetch(key, { context: load });
  // lru-cache answers undefined only for a load that made undefined, which `load`'s type rules out.
  if (value === undefined) throw new Error(`the cache's load of ${key} made nothing`);
  return value;
}

/**
 * An LRU cache of at most `entries` entries. Counted through `maxSize`, each entry weighing one: with `max`,
 * lru-cache fills arrays of that many slots when the cache is made, which every app build paid.
 */
export function countedCache<V extends object | string | boolean>(entries: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
