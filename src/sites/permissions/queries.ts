import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, Role } from '../../db/types.js';
import type { Order } from '../../core/pagination.js';
import { grantIsFor } from '../../access/grants.js';
import { rankOf } from '../../access/roles.js';
import { rank } from '../../permissions/reach-queries.js';
import type { SiteReachSort } from './schemas.js';

export interface SiteReachFilters {
  sort: SiteReachSort;
  /** A role on the site, or 'guest' for the organization's guests. */
  role: Role | 'guest' | undefined;
  /** An ILIKE pattern over display names and e-mails. */
  pattern: string | undefined;
  team: string | undefined;
}

/**
 * The active members of the organization with their role on the site: the
 * strongest of their organization role (none for a guest) and the grants to
 * them or their teams on the site, the strongest grant with its team (a
 * grant to the user first). Members nothing reaches have a null rank.
 */
function membersWithSiteRank(db: Kysely<Database>, organizationId: string, siteId: string, filters: SiteReachFilters) {
  let query = db
    .selectFrom('organization_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('content_grants as g')
          .select(['g.role', 'g.team_id'])
          .where('g.site_id', '=', siteId)
          .where(grantIsFor(sql.ref<string>('m.user_id'), sql.ref<string>('m.organization_id')))
          .orderBy(rank(sql.ref('g.role')), 'desc')
          .orderBy(sql`g.team_id nulls first`)
          .orderBy('g.id')
          .limit(1)
          .as('gr'),
      (join) => join.onTrue(),
    )
    .select([
      'm.user_id',
      'm.joined_at',
      'm.last_seen_at',
      'm.role as organization_role',
      'u.email',
      'u.display_name',
      'u.photo_url',
      'gr.role as grant_role',
      'gr.team_id as grant_team',
      sql<number | null>`greatest(
        case when m.role is not null then ${rank(sql.ref('m.role'))} end,
        ${rank(sql.ref('gr.role'))})`.as('rank'),
    ])
    .where('m.organization_id', '=', organizationId)
    .where('m.disabled', '=', false);
  if (filters.sort === 'lastSeenAt') query = query.where('m.last_seen_at', 'is not', null);
  // The same expression as the trigram index on users, so that the index serves the search.
  if (filters.pattern !== undefined) {
    query = query.where(sql<string>`u.display_name || E'\n' || u.email`, 'ilike', filters.pattern);
  }
  if (filters.team !== undefined) {
    const team = filters.team;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('team_members as tm')
          .select('tm.user_id')
          .whereRef('tm.organization_id', '=', 'm.organization_id')
          .where('tm.team_id', '=', team)
          .whereRef('tm.user_id', '=', 'm.user_id'),
      ),
    );
  }
  return query;
}

function reachingSite(db: Kysely<Database>, organizationId: string, siteId: string, filters: SiteReachFilters) {
  let query = db
    .selectFrom(membersWithSiteRank(db, organizationId, siteId, filters).as('a'))
    .where('a.rank', 'is not', null);
  if (filters.role === 'guest') query = query.where('a.organization_role', 'is', null);
  else if (filters.role !== undefined) query = query.where('a.rank', '=', rankOf(filters.role));
  return query;
}

/** What each sort orders by, as text that casts back to its type for the keyset. */
const SORT_KEYS = {
  joinedAt: { key: sql<string>`a.joined_at`, cast: sql`timestamptz` },
  lastSeenAt: { key: sql<string>`a.last_seen_at`, cast: sql`timestamptz` },
  name: { key: sql<string>`lower(a.display_name)`, cast: sql`text` },
} as const;

/**
 * A page of the users who reach the site, ordered by the sort's key then the
 * user id, strictly after `after` (a key as text and an id); one row more
 * than `limit` tells whether a page follows.
 */
export async function listSiteReach(
  db: Db,
  organizationId: string,
  siteId: string,
  filters: SiteReachFilters,
  page: { order: Order; limit: number; after: readonly [string, string] | undefined },
) {
  const { key, cast } = SORT_KEYS[filters.sort];
  let query = reachingSite(db, organizationId, siteId, filters)
    .selectAll('a')
    .select(sql<string>`(${key})::text`.as('sort_key'))
    .orderBy(key, page.order)
    .orderBy('a.user_id', page.order)
    .limit(page.limit + 1);
  if (page.after) {
    const position = sql`(${page.after[0]}::${cast}, ${page.after[1]}::text)`;
    const keyset = sql`(${key}, a.user_id)`;
    query = query.where(
      page.order === 'asc' ? sql<boolean>`${keyset} > ${position}` : sql<boolean>`${keyset} < ${position}`,
    );
  }
  return query.execute();
}

export async function countSiteReach(
  db: Db,
  organizationId: string,
  siteId: string,
  filters: SiteReachFilters,
): Promise<number> {
  const { n } = await reachingSite(db, organizationId, siteId, filters)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
