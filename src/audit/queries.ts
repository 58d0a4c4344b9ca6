import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { precompiled } from '../db/precompiled.js';
import type { Selectable } from 'kysely';
import type { AuditEvents } from '../db/tables.generated.js';

export type AuditEventRow = Selectable<AuditEvents> & { [TOTAL_COUNT]?: string };

/** The list's filters, in the order their values are bound. */
export const AUDIT_FILTERS = ['action', 'actor', 'target', 'from', 'to'] as const;
export type AuditFilterName = (typeof AUDIT_FILTERS)[number];
export type AuditFilters = Partial<Record<'action' | 'actor' | 'target', string> & Record<'from' | 'to', Date>>;

type EventsQuery = SelectQueryBuilder<Database, 'audit_events', object>;

function narrowed(query: EventsQuery, name: AuditFilterName, value: unknown): EventsQuery {
  switch (name) {
    case 'action':
      return query.where('action', '=', value as string);
    case 'actor':
      return query.where('actor_id', '=', value as string);
    case 'target':
      return query.where('target_id', '=', value as string);
    case 'from':
      return query.where('occurred_at', '>=', value as Date);
    case 'to':
      return query.where('occurred_at', '<=', value as Date);
  }
}

function matching(db: Kysely<Database>, organizationId: string, named: readonly AuditFilterName[], values: unknown[]) {
  return named.reduce(
    (query, name, index) => narrowed(query, name, values[index]),
    db.selectFrom('audit_events').where('organization_id', '=', organizationId) as EventsQuery,
  );
}

/** A page query per set of filters given, built when first asked for: each keeps its own plan and index. */
const pages = new Map<string, (db: Db, page: PageRequest, ...args: unknown[]) => Promise<AuditEventRow[]>>();

function pageOf(named: readonly AuditFilterName[]) {
  const key = named.join(',');
  let run = pages.get(key);
  if (!run) {
    run = pageQuery(
      { createdAt: 'occurred_at', id: 'id' },
      (db, organizationId: string, ...values: unknown[]) =>
        matching(db, organizationId, named, values)
          .selectAll()
          .select(() =>
            matching(db, organizationId, named, values)
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .as(TOTAL_COUNT),
          ),
      1 + named.length,
    ) as (db: Db, page: PageRequest, ...args: unknown[]) => Promise<AuditEventRow[]>;
    pages.set(key, run);
  }
  return run;
}

/** A page of the organization's events matching the filters, newest first. */
export function listAuditEvents(
  db: Db,
  page: PageRequest,
  organizationId: string,
  filters: AuditFilters,
): Promise<AuditEventRow[]> {
  const named = AUDIT_FILTERS.filter((name) => filters[name] !== undefined);
  return pageOf(named)(db, page, organizationId, ...named.map((name) => filters[name]));
}

/** How many of the organization's events match the filters. */
export async function countAuditEvents(db: Db, organizationId: string, filters: AuditFilters): Promise<number> {
  const named = AUDIT_FILTERS.filter((name) => filters[name] !== undefined);
  const row = await matching(
    db,
    organizationId,
    named,
    named.map((name) => filters[name]),
  )
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findAuditEvent = precompiled((db, organizationId: string, id: string) =>
  db.selectFrom('audit_events').selectAll().where('organization_id', '=', organizationId).where('id', '=', id),
);

/**
 * Removes, in one statement, up to `batchSize` events recorded before
 * `cutoff`, oldest first; returns how many. The index on occurred_at finds them.
 */
export async function deleteAuditEventsBefore(db: Db, cutoff: Date, batchSize: number): Promise<number> {
  const result = await sql`delete from audit_events where id in (
      select id from audit_events where occurred_at < ${cutoff} order by occurred_at limit ${batchSize})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
