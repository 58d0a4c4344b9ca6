import { createHash } from 'node:crypto';
import { sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * Errors after which a connection's prepared statements cannot be trusted:
 * a plan cached before a migration changed a table's columns (0A000), or a
 * pooler that lost the statement (26000). The connection is then dropped.
 */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);
const MAX_REMEMBERED_NAMES = 5_000;

/**
 * Appended to a query (Kysely's `modifyEnd(customPlan)`) whose best plan
 * depends on its values, such as a text search: it then runs unprepared, so
 * PostgreSQL plans it for each call's values instead of settling, after five
 * calls, on one generic plan that cannot use the search's index.
 */
export const CUSTOM_PLAN_MARKER = '/* custom plan */';
export const customPlan = sql.raw(CUSTOM_PLAN_MARKER);

/** Statements that change no row (a transaction's bounds, settings); any other may write. */
const READ_ONLY_VERBS = new Set([
  'select',
  'begin',
  'start',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'set',
  'show',
]);
const FIRST_WORD = /^\s*([a-z]+)/i;

/** A write anywhere in a `with` statement: its main statement's, or a data-modifying CTE's. */
const WRITE_IN_WITH = /\b(insert\s+into|update\s+"?\w|delete\s+from|merge\s+into)/i;

/**
 * Inserts into a table no clock follows (no trigger ticks one for it, and no
 * kept answer reads it), made at the readers' pace: their page views, written
 * in batches every second. They change no version, so they move no clock of
 * this process either; counted, each batch had every kept answer and every
 * remembered revision read again, a sixth of the reader's page views at load.
 */
const UNCLOCKED_INSERT = /^\s*insert\s+into\s+"site_insight_events"\s/i;

/**
 * Whether a statement may change rows a clock follows: every one but those
 * known not to. A `with` statement reads (the recursive reads of roles and
 * trees) unless it holds a write.
 */
export function mayWrite(text: string): boolean {
  return writeKind(text) !== 'none';
}

/**
 * How a statement's result tells whether it wrote what a clock follows:
 * `none` never does (it reads, or writes only an unclocked table);
 * `rows`, a plain insert, update, delete or merge, wrote only if its result
 * counts a row (a worker's claim that found no job wrote nothing, and moves
 * no clock); `always` is taken as a write whatever its result, as a `with`
 * whose data-modifying part the main statement's count does not show.
 */
export type WriteKind = 'none' | 'rows' | 'always';
const ROW_COUNTED_VERBS = new Set(['insert', 'update', 'delete', 'merge']);

export function writeKind(text: string): WriteKind {
  if (UNCLOCKED_INSERT.test(text)) return 'none';
  const verb = FIRST_WORD.exec(text)?.[1]?.toLowerCase();
  if (verb === 'with') return WRITE_IN_WITH.test(text) ? 'always' : 'none';
  if (verb !== undefined && READ_ONLY_VERBS.has(verb)) return 'none';
  return verb !== undefined && ROW_COUNTED_VERBS.has(verb) ? 'rows' : 'always';
}

/** Whether a statement of `kind` wrote, as its result says: a single result that counts no row did not. */
function wroteRows(kind: WriteKind, result: unknown): boolean {
  if (kind !== 'rows') return kind === 'always';
  return (result as { rowCount?: number | null } | undefined)?.rowCount !== 0;
}

export interface ClientOptions {
  /**
   * Run every query as a named prepared statement, one name per distinct SQL
   * text (the default). PostgreSQL then plans a query once per connection
   * instead of on every request, which for small queries costs more than
   * running them.
   */
  prepare?: boolean;
  /**
   * Called when a connection that ran a statement that may write goes back
   * to the pool: its transaction has ended by then, so what it wrote is
   * committed (or rolled back) for every reader.
   */
  afterWrite?: () => void;
}

/** A pool for Kysely whose clients prepare their statements and tell of their writes, as `options` asks. */
export function preparingPool(pool: pg.Pool, options: ClientOptions = {}): PostgresPool {
  const prepare = options.prepare ?? true;
  const afterWrite = options.afterWrite;
  /** Each distinct text's statement name, and how its result tells whether it wrote. */
  const statements = new Map<string, { name: string; writes: WriteKind }>();
  const statementOf = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= MAX_REMEMBERED_NAMES) statements.clear();
      statement = { name: `q_${createHash('sha1').update(text).digest('base64url')}`, writes: writeKind(text) };
      statements.set(text, statement);
    }
    return statement;
  };

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let stale: Error | undefined;
    let wrote = false;
    /** Notes a write once the statement's result shows one; a statement that failed wrote nothing that stays. */
    const noting = <Result>(kind: WriteKind, running: Promise<Result>): Promise<Result> => {
      if (kind === 'none' || wrote) return running;
      return running.then((result) => {
        if (wroteRows(kind, result)) wrote = true;
        return result;
      });
    };
    const query = (textOrCursor: unknown, values?: readonly unknown[]) => {
      if (typeof textOrCursor !== 'string') {
        // A cursor (Kysely's stream) carries its statement's text; its rows come later, so it counts as written now.
        const text = (textOrCursor as { text?: unknown }).text;
        if (typeof text !== 'string' || mayWrite(text)) wrote = true;
        return client.query(textOrCursor as pg.Submittable);
      }
      if (!prepare || textOrCursor.endsWith(CUSTOM_PLAN_MARKER))
        return noting(writeKind(textOrCursor), client.query(textOrCursor, values as unknown[]));
      const statement = statementOf(textOrCursor);
      const running = client
        .query({ name: statement.name, text: textOrCursor, values: values as unknown[] })
        .catch((error: Error & { code?: string }) => {
          if (error.code && STALE_STATEMENT_CODES.has(error.code)) stale = error;
          throw error;
        });
      return noting(statement.writes, running);
    };
    return {
      query: query as unknown as PostgresPoolClient['query'],
      release: () => {
        const error = stale;
        stale = undefined;
        // Released with an error, the client is closed instead of reused.
        client.release(error);
        if (wrote) {
          wrote = false;
          afterWrite?.();
        }
      },
    };
  };

  return wrappingClients(pool, wrap);
}

/** A pool handing out each of `pool`'s clients as `wrap` makes it, made once per client and kept with it. */
export function wrappingClients<Client extends object>(
  pool: { connect(): Promise<Client>; end(): Promise<void> },
  wrap: (client: Client) => PostgresPoolClient,
): PostgresPool {
  const wrappers = new WeakMap<Client, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
