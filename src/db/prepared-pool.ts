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

/**
 * A pool for Kysely that runs every query as a named prepared statement, one
 * name per distinct SQL text. PostgreSQL then plans a query once per
 * connection instead of on every request, which for small queries costs
 * more than running them.
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (!name) {
      if (names.size >= MAX_REMEMBERED_NAMES) names.clear();
      name = `q_${createHash('sha1').update(text).digest('base64url')}`;
      names.set(text, name);
    }
    return name;
  };

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let stale: Error | undefined;
    const query = (textOrCursor: unknown, values?: readonly unknown[]) => {
      if (typeof textOrCursor !== 'string') return client.query(textOrCursor as pg.Submittable);
      if (textOrCursor.endsWith(CUSTOM_PLAN_MARKER)) return client.query(textOrCursor, values as unknown[]);
      return client
        .query({ name: nameOf(textOrCursor), text: textOrCursor, values: values as unknown[] })
        .catch((error: Error & { code?: string }) => {
          if (error.code && STALE_STATEMENT_CODES.has(error.code)) stale = error;
          throw error;
        });
    };
    return {
      query: query as unknown as PostgresPoolClient['query'],
      release: () => {
        const error = stale;
        stale = undefined;
        // Released with an error, the client is closed instead of reused.
        client.release(error);
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
