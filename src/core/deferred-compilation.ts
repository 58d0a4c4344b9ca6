/**
 * Compilations put off until first use: a route's request validators and
 * response serialisers. Compiling all of them when the routes are registered
 * took some 4 s of a 5 s start; a server compiles them once it listens
 * instead, between requests, and any not compiled yet compiles on its first
 * request.
 */
export class DeferredCompilations {
  readonly #waiting = new Set<() => unknown>();

  /** `compile` run once, on the first call of what this returns or by `compileAll`, whichever comes first. */
  defer<T>(compile: () => T): () => T {
    let made: { value: T } | undefined;
    const get = () => {
      if (!made) {
        this.#waiting.delete(get);
        made = { value: compile() };
      }
      return made.value;
    };
    this.#waiting.add(get);
    return get;
  }

  /** How many are still to compile. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Compiles all that wait, yielding to the event loop between two, so that requests go on meanwhile. */
  async compileAll(): Promise<void> {
    for (const get of this.#waiting) {
      get();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
