import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { InsightRow } from './events.js';

/** Every column an event's row may set: all but its id, none with a default. */
const EVENT_COLUMN_SET = {
  organization_id: true,
  site_id: true,
  occurred_at: true,
  event_type: true,
  display_context: true,
  url: true,
  url_path: true,
  site_section_id: true,
  site_space_id: true,
  site_share_key: true,
  space_id: true,
  revision_id: true,
  page_id: true,
  visitor_hash: true,
  session_hash: true,
  authenticated: true,
  referrer: true,
  referrer_domain: true,
  utm_source: true,
  utm_medium: true,
  utm_campaign: true,
  utm_term: true,
  utm_content: true,
  country: true,
  language: true,
  browser: true,
  os: true,
  device: true,
  bot: true,
  search_query: true,
  search_result_record_id: true,
  feedback_rating: true,
  feedback_comment: true,
  link_position: true,
  link_target_kind: true,
  link_target_domain: true,
  markdown_source: true,
  llms_variant: true,
} satisfies Record<Exclude<keyof InsightRow, 'id'>, true>;
const EVENT_COLUMNS = Object.keys(EVENT_COLUMN_SET) as Array<keyof typeof EVENT_COLUMN_SET>;
const EVENT_COLUMN_REFS = sql.join(EVENT_COLUMNS.map((name) => sql.ref(name)));

/** A row as sent: without its nulls, which the insert reads as null anyway (a view leaves some 20 of its 38 columns null). */
function withoutNulls(row: InsightRow): Partial<InsightRow> {
  const sent: Record<string, unknown> = {};
  for (const column of EVENT_COLUMNS) {
    const value = row[column];
    if (value !== null && value !== undefined) sent[column] = value;
  }
  return sent;
}

/**
 * The statement that writes a batch of events: the rows as one JSON
 * parameter, which PostgreSQL reads into the table's row type. A batch of
 * 500 as a list of values was 17,500 parameters, each built into the query
 * and encoded one by one, and a statement text of its own for each batch size.
 * Every column is named, so that the statement is the same for every batch;
 * one a row leaves out is null.
 */
export function insightEventsInsert(rows: InsightRow[]) {
  return sql`insert into "site_insight_events" (${EVENT_COLUMN_REFS})
    select ${EVENT_COLUMN_REFS} from json_populate_recordset(null::site_insight_events, ${JSON.stringify(rows.map(withoutNulls))}::json)`;
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
