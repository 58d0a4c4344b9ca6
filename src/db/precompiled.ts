import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
} from 'kysely';
import type { Db } from './database.js';
import type { Database } from './types.js';

/** Compiles queries to SQL without a connection; it holds no state. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

class Placeholder {
  constructor(readonly index: number) {}
}

type Slot = { argument: number } | { value: unknown };

/**
 * A query of fixed shape whose SQL Kysely builds once; each call only binds
 * its arguments. Building a wide query's tree costs more than running it, so
 * the hot paths build theirs once.
 *
 * `build` receives placeholders in place of the arguments; use each one only
 * as a plain comparison or insert value (`where(col, '=', arg)`), never as a
 * list or in `is`, which Kysely does not turn into a parameter.
 */
export function precompiled<Args extends unknown[], Row>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
  /** How many arguments follow `db`; by default, as many as `build` declares. */
  arity: number = build.length - 1,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as Args;
  const compiled = build(compiler, ...placeholders).compile();
  const slots: Slot[] = compiled.parameters.map((value) =>
    value instanceof Placeholder ? { argument: value.index } : { value },
  );
  const used = new Set(slots.flatMap((slot) => ('argument' in slot ? [slot.argument] : [])));
  if (used.size !== arity)
    throw new Error(`precompiled: ${arity - used.size} argument(s) did not become query parameters`);

  return async (db, ...args) => {
    const parameters = slots.map((slot) => ('argument' in slot ? args[slot.argument] : slot.value));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters));
    return result.rows;
  };
}
