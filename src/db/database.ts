import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { preparingPool } from './prepared-pool.js';
import type { Database } from './types.js';

/** The database, or an open transaction: a Kysely `Transaction` is a `Kysely`, so queries taking a `Db` compose inside one. */
export type Db = Kysely<Database>;

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  /** How long a request waits for a connection before it is answered with 503. */
  connectionTimeoutMs?: number;
  /**
   * How long PostgreSQL lets one statement run before it cancels it (SQLSTATE
   * 57014, answered 503); 0 or unset: no limit. Sent as a startup parameter
   * of each connection: no session state, and nothing to set on every query.
   */
  statementTimeoutMs?: number;
  logger?: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /**
   * Run queries as named prepared statements (the default). Turn off behind a
   * pooler without protocol-level prepared statements (PgBouncer before 1.21).
   */
  preparedStatements?: boolean;
  /** Called when a connection that may have written goes back to the pool (see ClientOptions). */
  afterWrite?: () => void;
}

export function createDatabase(options: DatabaseOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    // No JIT compilation: the service's queries are short, and a plan whose
    // estimate passes jit_above_cost (a page of members with their guest
    // reach, say) spent some 30 ms compiling for a 1 ms execution, on every call.
    options: '-c jit=off',
    idleTimeoutMillis: 30_000,
    // Each connection keeps the statements it prepared; renewing connections
    // now and then bounds that memory on both sides.
    maxUses: 50_000,
  });
  // A connection the server drops must not crash the process, whether it sits
  // idle in the pool or is checked out between two queries: the pool discards
  // a broken client when it comes back and opens a new one when needed.
  const onLost = (err: Error & { code?: string }) => {
    // 57P01: the server ends its sessions as it shuts down (or an operator ended this one), which a stop of the whole service does too.
    if (err.code === '57P01') options.logger?.info({ cause: err.message }, 'database connection ended by the server');
    // Where in the driver it was noticed says nothing to an operator: one line, no stack.
    else options.logger?.warn({ cause: err.message }, 'database connection lost');
  };
  pool.on('error', onLost);
  pool.on('connect', (client) => client.on('error', onLost));
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: preparingPool(pool, { prepare: options.preparedStatements !== false, afterWrite: options.afterWrite }),
    }),
  });
}

/**
 * Lifts the statement timeout for the rest of the transaction `tx`: for
 * background work that no caller waits on and that may rightly take long,
 * such as the purge's cascading deletes.
 */
export async function withoutStatementTimeout(tx: Db): Promise<void> {
  await sql`set local statement_timeout = 0`.execute(tx);
}
