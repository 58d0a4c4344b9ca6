import { Piscina } from 'piscina';

type PoolOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

/** A pool of threads held by one of the app's pools, until `release`. */
export interface HeldThreads {
  pool: Piscina;
  release(): Promise<void>;
}

/** Where the app's pools get their threads. */
export interface ThreadSource {
  /** Threads for `options`; `onError` hears of a thread that failed outside any task, until released. */
  hold(options: PoolOptions, onError: (error: unknown) => void): HeldThreads;
}

/** A service's: each pool starts its own threads, and stops them, tasks and all, when released. */
export const ownThreads: ThreadSource = {
  hold(options, onError) {
    const pool = new Piscina(options);
    pool.on('error', onError);
    return { pool, release: () => pool.close({ force: true }) };
  },
};

/**
 * Pools kept between the apps that one process builds one after another, by
 * their options: the same task module with the same bounds gets the same
 * threads. For a process that builds many apps in turn: each of the test
 * suite's workers runs some ninety files, each with an app of its own, and a
 * thread started from TypeScript source spends some 1.5 s of a core loading
 * its modules before its first task. A released pool's threads stay, idle
 * until the pool's own idle timeout; tasks still running finish.
 */
export class KeptThreads implements ThreadSource {
  readonly #pools = new Map<string, { pool: Piscina; listeners: Set<(error: unknown) => void> }>();

  hold(options: PoolOptions, onError: (error: unknown) => void): HeldThreads {
    const key = JSON.stringify(options);
    let kept = this.#pools.get(key);
    if (!kept) {
      const listeners = new Set<(error: unknown) => void>();
      const pool = new Piscina(options);
      // Always listened to: an 'error' event nobody hears would be thrown.
      pool.on('error', (error: unknown) => listeners.forEach((listener) => listener(error)));
      kept = { pool, listeners };
      this.#pools.set(key, kept);
    }
    const { pool, listeners } = kept;
    listeners.add(onError);
    return { pool, release: async () => void listeners.delete(onError) };
  }
}
