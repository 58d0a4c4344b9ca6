import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

const countedTask = new AsyncLocalStorage<true>();

/**
 * Runs `task` and counts the statements the app's connections send for it (pg
 * clients, which the pool's connections are), to bound a request's cost. Only
 * statements issued from the task's own async context count: the app's timers
 * (the hostname refresh, job polling) run in contexts of their own, and made the
 * count one higher now and then.
 */
export async function countStatements<T>(
  task: () => PromiseLike<T>,
): Promise<{ result: T; count: number; statements: string[] }> {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  const statements: string[] = [];
  prototype.query = function (this: unknown, ...args: unknown[]) {
    if (countedTask.getStore()) statements.push(textOf(args[0]));
    return query.apply(this, args);
  };
  try {
    // Awaited inside the context: an injected request starts when it is awaited, not when it is made.
    const result = await countedTask.run(true, async () => await task());
    return { result, count: statements.length, statements };
  } finally {
    prototype.query = query;
  }
}

function textOf(statement: unknown): string {
  if (typeof statement === 'string') return statement;
  const text = (statement as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}
