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
    return this.getByText(JSON.stringify(source), compile);
  }

  /** What `compile` makes of the source whose text (JSON, or JSON texts joined) is `text`, made at most once. */
  getByText(text: string, compile: () => T): T {
    let made = this.#made.get(text);
    if (made === undefined) {
      made = compile();
      this.#made.set(text, made);
    }
    return made;
  }
}

const texts = new WeakMap<object, string>();

/**
 * The JSON text of a schema object, made once for that object: Fastify hands
 * the same external schemas to each of an app's ninety plugin contexts, and
 * writing them all out again for each took some 40 ms of an app's start.
 */
export function schemaText(schema: object): string {
  let text = texts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    texts.set(schema, text);
  }
  return text;
}
