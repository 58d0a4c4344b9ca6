/**
 * What a compiler made, kept for the process by the JSON text of what it was
 * made from, so that an app compiles nothing that an earlier app of the same
 * process compiled already. A server builds one app; each of the test
 * suite's workers builds some ninety, one after another, and compiled the
 * same validators and serialisers again for each: about a tenth of the
 * suite's CPU. Route schemas are built anew by each app, so their text is the
 * key, not the object.
 */
export class CompiledOnce<T> {
  readonly #made = new Map<string, T>();

  /** What `compile` makes of `source`, made at most once. */
  get(source: unknown, compile: () => T): T {
    const key = JSON.stringify(source);
    let made = this.#made.get(key);
    if (made === undefined) {
      made = compile();
      this.#made.set(key, made);
    }
    return made;
  }
}
