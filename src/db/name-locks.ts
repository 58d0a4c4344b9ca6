import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * Waits for, then holds until the transaction ends, a lock on one name of one
 * kind (a site basename, an integration name, a hostname): claims and
 * retirements of the same name then run one after the other on every
 * instance. A transaction lock on a hash of the two, so safe behind PgBouncer
 * in transaction mode.
 */
export async function lockName(tx: Db, kind: string, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}:${name}`}, 0))`.execute(tx);
}
