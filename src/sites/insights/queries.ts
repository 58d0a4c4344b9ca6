import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { InsightRow } from './events.js';

/**
 * The statement that writes a batch of events: the rows as one JSON
 * parameter, which PostgreSQL reads into the table's row type. A batch of
 * 500 as a list of values was 17,500 parameters, each built into the query
 * and encoded one by one, and a statement text of its own for each batch size.
 */
export function insightEventsInsert(rows: InsightRow[]) {
  // The rows' own names (insightRow's): each one a column; one a row leaves out is null.
  const columns = sql.join([...new Set(rows.flatMap((row) => Object.keys(row)))].map((name) => sql.ref(name)));
  return sql`insert into "site_insight_events" (${columns})
    select ${columns} from json_populate_recordset(null::site_insight_events, ${JSON.stringify(rows)}::json)`;
}

export async function insertInsightEvents(db: Db, rows: InsightRow[]): Promise<void> {
  if (rows.length > 0) await insightEventsInsert(rows).execute(db);
}

/** Removes up to `batchSize` of the events older than `cutoff`, oldest first; returns how many. */
export async function deleteInsightEventsBefore(db: Db, cutoff: Date, batchSize: number): Promise<number> {
  const result = await sql`delete from site_insight_events where id in (
      select id from site_insight_events where occurred_at < ${cutoff} order by occurred_at limit ${batchSize})`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/** Events, sessions and visitors of a site since `from`, apart for visitors signed in and not. */
export function countVisitorsBySignIn(db: Db, organizationId: string, siteId: string, from: Date) {
  return db
    .selectFrom('site_insight_events')
    .select([
      'authenticated',
      sql<number>`count(*)::int`.as('events'),
      sql<number>`count(distinct visitor_hash)::int`.as('visitors'),
      sql<number>`count(distinct session_hash)::int`.as('sessions'),
    ])
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('occurred_at', '>=', from)
    .groupBy('authenticated')
    .orderBy('authenticated')
    .execute();
}
