import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { ROLES } from '../access/roles.js';

/** A role's rank in SQL, as rankOf computes it, so that the strongest of several is their max. */
export function rank(role: RawBuilder<unknown>) {
  return sql<number>`array_position(${sql.lit(`{${ROLES.join(',')}}`)}::text[], ${role})`;
}

/**
 * Where the content is, for the reach of everyone in its organization: the
 * space (null for a collection), the collections whose grants count (the
 * collection and those above it, or the space's), and the rank of the
 * strongest default level along them (null when none raises anyone).
 */
export interface ReachScope {
  organizationId: string;
  spaceId: string | null;
  chainIds: readonly string[];
  levelRank: number | null;
}

/**
 * The active members of the organization with the rank of their role on the
 * content: their organization role raised by the default levels (members
 * with a role only), and grants to them or their teams on the content and
 * the collections above it (guests too). Members nothing reaches have null.
 */
function reachOf(db: Kysely<Database>, spaceId: string | null, chainIds: string[], levelRank: number | null) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('content_grants as g')
          .select(sql<number | null>`max(${rank(sql.ref('g.role'))})`.as('grant_rank'))
          .where(sql<boolean>`(g.space_id = ${spaceId} or g.collection_id = any(${chainIds}::text[]))`)
          .where(
            sql<boolean>`(g.user_id = m.user_id or g.team_id in (select tm.team_id from team_members tm
              where tm.organization_id = m.organization_id and tm.user_id = m.user_id))`,
          )
          .as('gr'),
      (join) => join.onTrue(),
    )
    .select([
      'm.user_id',
      'm.joined_at',
      'm.role as organization_role',
      'u.email',
      'u.display_name',
      'u.photo_url',
      sql<number | null>`greatest(
        case when m.role is not null then greatest(${rank(sql.ref('m.role'))}, ${levelRank}::int) end,
        gr.grant_rank)`.as('rank'),
    ])
    .where('m.disabled', '=', false);
}

function reachingMembers(
  db: Kysely<Database>,
  organizationId: string,
  spaceId: string | null,
  chainIds: string[],
  levelRank: number | null,
  roleRank: number | null,
) {
  return db
    .selectFrom(reachOf(db, spaceId, chainIds, levelRank).where('m.organization_id', '=', organizationId).as('a'))
    .where('a.rank', 'is not', null)
    .where(sql<boolean>`(${roleRank}::int is null or a.rank = ${roleRank}::int)`);
}

/**
 * A page of the members who reach the content, by when they joined, with
 * their rank there; `roleRank` keeps only those with that role.
 */
const reachingPage = pageQuery(
  { createdAt: 'a.joined_at', id: 'a.user_id' },
  (
    db,
    organizationId: string,
    spaceId: string | null,
    chainIds: string[],
    levelRank: number | null,
    roleRank: number | null,
  ) =>
    reachingMembers(db, organizationId, spaceId, chainIds, levelRank, roleRank)
      .selectAll('a')
      .select(() =>
        reachingMembers(db, organizationId, spaceId, chainIds, levelRank, roleRank)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .as(TOTAL_COUNT),
      ),
);

export function listReachingMembers(
  db: Db,
  request: Parameters<typeof reachingPage>[1],
  scope: ReachScope,
  roleRank: number | null,
) {
  return reachingPage(db, request, scope.organizationId, scope.spaceId, [...scope.chainIds], scope.levelRank, roleRank);
}

export async function countReachingMembers(db: Db, scope: ReachScope, roleRank: number | null): Promise<number> {
  const { n } = await reachingMembers(
    db,
    scope.organizationId,
    scope.spaceId,
    [...scope.chainIds],
    scope.levelRank,
    roleRank,
  )
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
