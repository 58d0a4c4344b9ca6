import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { anyWordQuery, tsquery, type ParsedQuery } from './query.js';
import { reachableSpaceIds } from '../access/grants.js';

/**
 * Where a search looks: one space; some spaces of an organization (a site's);
 * or every space of an organization, or only those a guest reaches through
 * grants (`guest`, their id). Deleted spaces are never searched.
 */
export type SearchScope =
  | { kind: 'space'; organizationId: string; spaceId: string }
  | { kind: 'spaces'; organizationId: string; spaceIds: readonly string[] }
  | { kind: 'organization'; organizationId: string; guest?: string };

/** A matching section of a page: its anchor (null for the text before the first heading), heading and excerpt. */
export interface SectionHit {
  anchor: string | null;
  title: string;
  excerpt: string;
  /** How well the section matches any of the words. */
  score: number;
}

export interface PageHit {
  spaceId: string;
  /** The space's current revision, whose tree gives the page's path. */
  revisionId: string;
  pageId: string;
  title: string;
  /** The rank as the database wrote it: a cursor holds it exactly. */
  score: string;
  sections: SectionHit[];
}

/** Where a page of results starts: after this rank and these ids (space and page, or space). */
export type SearchPosition = readonly string[];

/** A page's sections shown in a result: the best few. */
const SECTIONS_PER_PAGE = 5;
/** Excerpts: about this many words around the match, in one fragment. */
const EXCERPT_OPTIONS = 'MaxWords=35, MinWords=15, ShortWord=3, MaxFragments=1, StartSel="", StopSel=""';

function scopeCondition(scope: SearchScope): RawBuilder<boolean> {
  switch (scope.kind) {
    case 'space':
      return sql<boolean>`s.space_id = ${scope.spaceId}`;
    case 'spaces':
      return sql<boolean>`s.space_id = any(${[...scope.spaceIds]}::text[])`;
    case 'organization':
      return scope.guest === undefined
        ? sql<boolean>`true`
        : sql<boolean>`sp.id = any(array${reachableSpaceIds(scope.organizationId, scope.guest)})`;
  }
}

/**
 * How a matching page ranks. Within a space or a site's spaces, by all its
 * words (title over headings over text, and how often). Across a whole
 * organization, where a common word can match a hundred thousand pages, by
 * its title and headings alone: reading every match's whole text to rank it
 * would cost seconds, and which page of a space is best matters less there.
 */
function rankOf(scope: SearchScope) {
  return scope.kind === 'organization' ? sql`ts_rank(s.head_tsv, q.query, 1)` : sql`ts_rank(s.tsv, q.query, 1)`;
}

/**
 * The query, once, as `q`; and `matched`: each matching page of the scope
 * with its title, its space's current revision and its rank.
 */
function matchedPages(scope: SearchScope, query: ParsedQuery) {
  return sql`
    q as materialized (select ${tsquery(query)} as query, ${anyWordQuery(query)} as anything),
    matched as (
      select s.space_id, s.page_id, s.title, sp.revision_id, ${rankOf(scope)} as score
      from search_sections s
        cross join q
        join spaces sp on sp.id = s.space_id and sp.deleted_at is null
      where s.organization_id = ${scope.organizationId} and ${scopeCondition(scope)} and s.ord = 0
        and s.tsv @@ q.query
    )`;
}

/** A page of `matched` (as `page`) as JSON: its title and its best sections, each with an excerpt. */
function pageJson(page: string) {
  const ref = (column: string) => sql.ref(`${page}.${column}`);
  return sql`json_build_object(
    'spaceId', ${ref('space_id')}, 'pageId', ${ref('page_id')}, 'score', ${ref('score')}::text,
    'revisionId', ${ref('revision_id')},
    'title', ${ref('title')},
    'sections', coalesce((
      select json_agg(json_build_object('anchor', x.anchor, 'title', x.title, 'score', x.rank,
          'excerpt', ts_headline(x.language, x.body, q.anything, ${EXCERPT_OPTIONS}))
        order by x.rank desc, x.ord)
      from (
        select sec.anchor, sec.title, sec.body, sec.language, sec.ord, ts_rank(sec.tsv, q.anything, 1) as rank
        from search_sections sec
        where sec.space_id = ${ref('space_id')} and sec.page_id = ${ref('page_id')} and sec.ord > 0
          and sec.tsv @@ q.anything
        order by rank desc, sec.ord
        limit ${SECTIONS_PER_PAGE}
      ) x), '[]'))`;
}

/** Rows of `alias` after a position: a lower rank, or the same rank and greater ids. */
function afterPosition(after: readonly string[] | undefined, alias: string, idColumns: readonly string[]) {
  if (!after) return sql<boolean>`true`;
  const score = sql.ref(`${alias}.score`);
  const ids = sql.join(idColumns.map((column) => sql.ref(`${alias}.${column}`)));
  const values = sql.join(after.slice(1));
  return sql<boolean>`(${score} < ${after[0]}::real or (${score} = ${after[0]}::real and (${ids}) > (${values})))`;
}

/**
 * One page of the pages matching the query in the scope, best first (ties
 * by space and page id), each with its best matching sections, and how many
 * pages match in all. A page matches as a whole (its row of all its text)
 * and ranks by it: its title weighs over its headings, headings over text.
 * Its sections show where any of the words are.
 */
export async function searchPages(
  db: Db,
  scope: SearchScope,
  query: ParsedQuery,
  request: { limit: number; after: SearchPosition | undefined },
): Promise<{ hits: PageHit[]; total: number }> {
  const rows = await sql<{ total: string; hit: PageHit | null }>`
    with ${matchedPages(scope, query)},
    chosen as (
      select * from matched m where ${afterPosition(request.after, 'm', ['space_id', 'page_id'])}
      order by m.score desc, m.space_id, m.page_id
      limit ${request.limit}
    )
    -- The count comes on every row, and alone on a row of nulls when no page is chosen.
    select totals.total, case when c.page_id is not null then ${pageJson('c')} end as hit
    from (select count(*) as total from matched) totals
      cross join q
      left join chosen c on true
    order by c.score desc, c.space_id, c.page_id`.execute(db);
  return {
    total: Number(rows.rows[0]?.total ?? 0),
    hits: rows.rows.flatMap((row) => (row.hit ? [row.hit] : [])),
  };
}

/** A space with matching pages: its best ones, best first. */
export interface SpaceHit {
  spaceId: string;
  title: string;
  score: string;
  pages: PageHit[];
}

/** Pages shown for each space of an organization search. */
const PAGES_PER_SPACE = 5;

/**
 * One page of the spaces with pages matching the query, ranked by their best
 * page (ties by id), each with its best pages; and how many spaces match.
 */
export async function searchSpaces(
  db: Db,
  scope: SearchScope,
  query: ParsedQuery,
  request: { limit: number; after: SearchPosition | undefined },
): Promise<{ hits: SpaceHit[]; total: number }> {
  const rows = await sql<{ total: string; hit: SpaceHit | null }>`
    with ${matchedPages(scope, query)},
    ranked as (select m.space_id, max(m.score) as score from matched m group by m.space_id),
    chosen as (
      select * from ranked r where ${afterPosition(request.after, 'r', ['space_id'])}
      order by r.score desc, r.space_id
      limit ${request.limit}
    ),
    -- The best pages of the chosen spaces, numbered once rather than sought in \`matched\` space by space.
    shown as materialized (
      select * from (
        select m.*, row_number() over (partition by m.space_id order by m.score desc, m.page_id) as n
        from matched m where m.space_id in (select c.space_id from chosen c)
      ) numbered
      where numbered.n <= ${PAGES_PER_SPACE}
    )
    select totals.total, case when c.space_id is not null then json_build_object(
      'spaceId', c.space_id, 'score', c.score::text,
      'title', (select sp.title from spaces sp where sp.id = c.space_id),
      'pages', (
        select json_agg(${pageJson('p')} order by p.score desc, p.page_id)
        from shown p where p.space_id = c.space_id
      )) end as hit
    from (select count(*) as total from ranked) totals
      cross join q
      left join chosen c on true
    order by c.score desc, c.space_id`.execute(db);
  return {
    total: Number(rows.rows[0]?.total ?? 0),
    hits: rows.rows.flatMap((row) => (row.hit ? [row.hit] : [])),
  };
}
