import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RedirectOrder } from './schemas.js';

export type DestinationKind = 'site-section' | 'site-space' | 'site-page' | 'external';

export interface RedirectRow {
  id: string;
  source: string;
  draft: boolean;
  capture_wildcard: boolean;
  permanent: boolean;
  destination_kind: string;
  site_section_id: string | null;
  site_space_id: string | null;
  page_id: string | null;
  url: string | null;
  created_at: Date;
  updated_at: Date | null;
  changed_at: Date;
}

/** What a redirect holds besides its site, source and times: one kind of destination and its fields. */
export interface RedirectValues {
  draft: boolean;
  capture_wildcard: boolean;
  permanent: boolean;
  destination_kind: DestinationKind;
  site_section_id: string | null;
  site_space_id: string | null;
  page_id: string | null;
  url: string | null;
}

/** What a stored redirect holds besides its source and times. */
export function valuesOf(row: RedirectRow): RedirectValues {
  return {
    draft: row.draft,
    capture_wildcard: row.capture_wildcard,
    permanent: row.permanent,
    // The table's check holds the kinds.
    destination_kind: row.destination_kind as DestinationKind,
    site_section_id: row.site_section_id,
    site_space_id: row.site_space_id,
    page_id: row.page_id,
    url: row.url,
  };
}

const FIELDS = [
  'id',
  'source',
  'draft',
  'capture_wildcard',
  'permanent',
  'destination_kind',
  'site_section_id',
  'site_space_id',
  'page_id',
  'url',
  'created_at',
  'updated_at',
  'changed_at',
] as const;

/** The column each order sorts on (then id), and its direction. */
const ORDERS = {
  createdAt: { column: 'created_at', direction: 'desc' },
  updatedAt: { column: 'changed_at', direction: 'desc' },
  source: { column: 'source', direction: 'asc' },
} as const;

export interface RedirectFilter {
  draft: boolean;
  search: string | undefined;
  orderBy: RedirectOrder;
  /** The sort value and id of the previous page's last row. */
  after: readonly [string, string] | undefined;
  limit: number;
}

const sortValue = (row: RedirectRow, orderBy: RedirectOrder) =>
  orderBy === 'source'
    ? row.source
    : orderBy === 'createdAt'
      ? row.created_at.toISOString()
      : row.changed_at.toISOString();
export { sortValue };

/** A site's redirects, live and draft: every read of them starts here, the organization's id in it. */
function redirectsOfSite(db: Db, organizationId: string, siteId: string) {
  return db.selectFrom('site_redirects').where('organization_id', '=', organizationId).where('site_id', '=', siteId);
}

/** A page of a site's live or draft redirects (limit + 1 rows), and how many match. */
export async function listRedirects(
  db: Db,
  organizationId: string,
  siteId: string,
  filter: RedirectFilter,
): Promise<{ rows: RedirectRow[]; count: number }> {
  const { column, direction } = ORDERS[filter.orderBy];
  const matching = redirectsOfSite(db, organizationId, siteId)
    .where('draft', '=', filter.draft)
    .$if(filter.search !== undefined, (query) =>
      query.where(sql<boolean>`strpos(lower(source), lower(${filter.search}))`, '>', sql.lit(0) as never),
    );
  const count = await matching.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  let page = matching.select(FIELDS);
  if (filter.after) {
    const [value, id] = filter.after;
    const position = column === 'source' ? sql`(${value}, ${id})` : sql`(${value}::timestamptz, ${id})`;
    page = page.where(
      direction === 'asc'
        ? sql<boolean>`(${sql.ref(column)}, id) > ${position}`
        : sql<boolean>`(${sql.ref(column)}, id) < ${position}`,
    );
  }
  const rows = await page
    .orderBy(column, direction)
    .orderBy('id', direction)
    .limit(filter.limit + 1)
    .execute();
  return { rows, count: Number(count.n) };
}

export async function countRedirects(db: Db, organizationId: string, siteId: string): Promise<number> {
  const { n } = await redirectsOfSite(db, organizationId, siteId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function findRedirect(
  db: Db,
  organizationId: string,
  siteId: string,
  id: string,
): Promise<RedirectRow | undefined> {
  return redirectsOfSite(db, organizationId, siteId).select(FIELDS).where('id', '=', id).executeTakeFirst();
}

export async function findRedirectBySource(
  db: Db,
  organizationId: string,
  siteId: string,
  draft: boolean,
  source: string,
): Promise<RedirectRow | undefined> {
  return redirectsOfSite(db, organizationId, siteId)
    .select(FIELDS)
    .where('draft', '=', draft)
    .where('source', '=', source)
    .executeTakeFirst();
}

/**
 * The live redirect of a site that answers a path: its sources among
 * `candidates` (the path itself and its prefixes with `*`), the longest
 * first, as the most precise. One lookup of the (site, draft, source) index.
 */
export async function matchRedirect(
  db: Db,
  organizationId: string,
  siteId: string,
  candidates: readonly string[],
): Promise<RedirectRow | undefined> {
  return redirectsOfSite(db, organizationId, siteId)
    .select(FIELDS)
    .where('draft', '=', false)
    .where('source', '=', sql<string>`any(${[...candidates]}::text[])`)
    .orderBy(sql`char_length(source)`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertRedirect(
  db: Db,
  organizationId: string,
  siteId: string,
  redirect: RedirectValues & { id: string; source: string },
  now: Date,
): Promise<RedirectRow> {
  return db
    .insertInto('site_redirects')
    .values({ ...redirect, organization_id: organizationId, site_id: siteId, created_at: now, changed_at: now })
    .returning(FIELDS)
    .executeTakeFirstOrThrow();
}

/** Changes a redirect; undefined when the site has no such redirect. */
export async function updateRedirect(
  db: Db,
  organizationId: string,
  siteId: string,
  id: string,
  changes: Partial<RedirectValues> & { source?: string },
  now: Date,
): Promise<RedirectRow | undefined> {
  return db
    .updateTable('site_redirects')
    .set({ ...changes, updated_at: now, changed_at: now })
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .returning(FIELDS)
    .executeTakeFirst();
}

/** Deletes a redirect by id, or by source and state; false when there was none. */
export async function deleteRedirect(
  db: Db,
  organizationId: string,
  siteId: string,
  which: { id: string } | { draft: boolean; source: string },
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('site_redirects')
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .$if('id' in which, (query) => query.where('id', '=', (which as { id: string }).id))
    .$if(!('id' in which), (query) => {
      const { draft, source } = which as { draft: boolean; source: string };
      return query.where('draft', '=', draft).where('source', '=', source);
    })
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
