import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { DefaultLevel, Role } from '../db/types.js';
import { chainsOf, type ChainLink } from '../hierarchy/walk.js';
import { effectiveRole } from './membership.js';
import { strongestRole } from './roles.js';

/**
 * Everything that gives a caller a role on one space or collection: what they
 * are to its organization, the default levels along its chain of collections,
 * and the grants that reach them there (their own and their teams').
 */
export interface Reach {
  isMember: boolean;
  /** Null for a guest, who gets nothing from the organization or default levels. */
  memberRole: Role | null;
  levels: readonly DefaultLevel[];
  grants: readonly Role[];
}

/** The caller's role: the strongest of what reaches them; none for someone who is not an active member. */
export function contentRole(reach: Reach): Role | null {
  if (!reach.isMember) return null;
  return strongestRole(effectiveRole(reach.memberRole, reach.levels), ...reach.grants);
}

/** A value in SQL: a parameter, or a column of the query around. */
export type SqlValue = string | RawBuilder<string> | Expression<string>;

/** The ids of the teams `userId` is in within the organization (SQL). */
function teamsOf(organizationId: SqlValue, userId: SqlValue) {
  return sql<string>`(select tm.team_id from team_members tm where tm.organization_id = ${organizationId} and tm.user_id = ${userId})`;
}

/** Whether the grant `g` is to `userId` or one of their teams in the organization (SQL). */
export function grantIsFor(userId: SqlValue, organizationId: SqlValue): RawBuilder<boolean> {
  return sql<boolean>`(g.user_id = ${userId} or g.team_id in ${teamsOf(organizationId, userId)})`;
}

/**
 * The roles of the grants reaching `userId` on the space `s` (a row in the
 * query) and the collections of the CTE `chain` above it, as an array (SQL).
 * Two index lookups, by space and by collection, rather than one OR.
 */
export function grantRolesOnSpace(userId: string): RawBuilder<Role[] | null> {
  const reaches = grantIsFor(userId, sql.ref('s.organization_id'));
  return sql<Role[] | null>`(select array_agg(r.role) from (
    select g.role from content_grants g where g.space_id = s.id and ${reaches}
    union all
    select g.role from chain join content_grants g on g.collection_id = chain.id where ${reaches}
  ) r)`;
}

/** The roles of the grants reaching `userId` on the collections of the CTE `chain` (SQL). */
export function grantRolesOnChain(userId: string): RawBuilder<Role[] | null> {
  return sql<Role[] | null>`(select array_agg(g.role) from chain join content_grants g on g.collection_id = chain.id
    where ${grantIsFor(userId, sql.ref('c.organization_id'))})`;
}

/** Deepest tree walked down; as for the walk up, the bound only stops a walk that a corrupted tree could loop. */
const MAX_DEPTH = 100;

/** The grants to `userId` themself in the organization, as a table of (space_id, collection_id, role) (SQL). */
function grantsToUser(organizationId: SqlValue, userId: SqlValue): RawBuilder<unknown> {
  return sql`(select g.space_id, g.collection_id, g.role from content_grants g
    where g.organization_id = ${organizationId} and g.user_id = ${userId})`;
}

/**
 * The grants reaching `userId` in the organization, theirs and their teams',
 * as a table of (space_id, collection_id, role) (SQL). Two index lookups, by
 * user and by team, rather than one OR over all the organization's grants.
 */
export function grantsReachingUser(organizationId: SqlValue, userId: SqlValue): RawBuilder<unknown> {
  return sql`(
    ${grantsToUser(organizationId, userId)}
    union all
    select g.space_id, g.collection_id, g.role from team_members tm
      join content_grants g on g.organization_id = tm.organization_id and g.team_id = tm.team_id
    where tm.organization_id = ${organizationId} and tm.user_id = ${userId})`;
}

/**
 * The live spaces a user reaches through grants, each with its creation time
 * (SQL, a subquery of `space_id` and `created_at`): their own grants, walked
 * from the primary key and the live spaces of each collection (few, their
 * times read from the spaces), and their teams', read with their times from
 * team_reach, which the database keeps. What a guest sees of an organization,
 * never found by scanning the organization's spaces.
 */
export function reachableSpacesByCreation(organizationId: SqlValue, userId: SqlValue): RawBuilder<unknown> {
  return sql`(
    select x.id as space_id, s.created_at
    from ${liveSpaceIdsReached(grantsToUser(organizationId, userId))} x (id) join spaces s on s.id = x.id
    union
    select r.space_id, r.space_created_at from team_members tm join team_reach r on r.team_id = tm.team_id
    where tm.organization_id = ${organizationId} and tm.user_id = ${userId})`;
}

/**
 * The ids of the spaces of reachableSpacesByCreation (SQL, a parenthesised
 * subquery: `x in …`, `any(array…)`, or a table to count).
 */
export function reachableSpaceIds(organizationId: SqlValue, userId: SqlValue): RawBuilder<unknown> {
  return sql`(select reached.space_id from ${reachableSpacesByCreation(organizationId, userId)} reached)`;
}

/** How many live spaces a user reaches through grants, theirs and their teams' (SQL). */
export function spacesReachedByUserCount(organizationId: SqlValue, userId: SqlValue): RawBuilder<number> {
  return sql<number>`(select count(*)::int from ${reachableSpaceIds(organizationId, userId)} r)`;
}

/** The ids of the collections a user reaches through grants, and of every collection inside them (SQL, a subquery). */
export function reachableCollectionIds(organizationId: string, userId: string): RawBuilder<unknown> {
  return collectionIdsReached(grantsReachingUser(organizationId, userId));
}

/**
 * The ids of the live spaces `grants` reach (SQL, a subquery). Written so that
 * the planner looks each space up, by its live id (an index-only lookup in
 * spaces_live_id_idx) or by collection, rather than scanning every space of
 * the organization to join them: the scalar subquery and the fenced lateral
 * one are not flattened into joins.
 */
function liveSpaceIdsReached(grants: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(
    select g.space_id from ${grants} g
    where g.space_id is not null and (select true from spaces x where x.id = g.space_id and x.deleted_at is null)
    union
    select x.id from ${collectionIdsReached(grants)} r
      cross join lateral (
        select x.id from spaces x where x.parent_id = r.id and x.deleted_at is null offset 0
      ) x)`;
}

/** The collections granted among `grants`, and every collection inside them (SQL, a subquery). */
function collectionIdsReached(grants: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(
    with recursive reach(id, depth) as (
      select g.collection_id, 0 from ${grants} g where g.collection_id is not null
      union
      select c.id, reach.depth + 1 from collections c join reach on c.parent_id = reach.id
      where reach.depth < ${sql.lit(MAX_DEPTH)}
    )
    select reach.id from reach)`;
}

/** Groups grants by the id of their target. */
function rolesByTarget(grants: readonly ReachingGrant[]): Map<string, Role[]> {
  const roles = new Map<string, Role[]>();
  for (const grant of grants) {
    const target = (grant.space_id ?? grant.collection_id)!;
    roles.set(target, [...(roles.get(target) ?? []), grant.role]);
  }
  return roles;
}

/** The ids of every collection on these chains, once each. */
function idsOnChains(chains: ReadonlyMap<string, readonly ChainLink[]>): string[] {
  return [...new Set([...chains.values()].flat().map((link) => link.id))];
}

/** The caller as a member of an organization: their role there (null for a guest). */
export interface Member {
  userId: string;
  role: Role | null;
}

/**
 * For a page of spaces of one organization, a function giving the member's
 * role on each: default levels and grants up the tree, read in two queries
 * for the whole page.
 */
export async function spaceRolesFor(
  db: Db,
  organizationId: string,
  member: Member,
  spaces: readonly { id: string; parent_id: string | null; default_level: DefaultLevel }[],
): Promise<(space: { id: string; parent_id: string | null; default_level: DefaultLevel }) => Role | null> {
  // Nothing down the tree raises an admin: no query needed.
  if (member.role === 'admin') return () => 'admin';
  const parents = [...new Set(spaces.flatMap((space) => (space.parent_id ? [space.parent_id] : [])))];
  const chains = await chainsOf(db, parents);
  const grants = rolesByTarget(
    await grantsReachingUsers(
      db,
      organizationId,
      { spaces: spaces.map((space) => space.id), collections: idsOnChains(chains) },
      [member.userId],
    ),
  );
  return (space) => {
    const chain: ChainLink[] = space.parent_id ? (chains.get(space.parent_id) ?? []) : [];
    return contentRole({
      isMember: true,
      memberRole: member.role,
      levels: [space.default_level, ...chain.map((link) => link.level)],
      grants: [space.id, ...chain.map((link) => link.id)].flatMap((id) => grants.get(id) ?? []),
    });
  };
}

/** For a page of collections of one organization, a function giving the member's role on each, in two queries. */
export async function collectionRolesFor(
  db: Db,
  organizationId: string,
  member: Member,
  collections: readonly { id: string }[],
): Promise<(collection: { id: string }) => Role | null> {
  if (member.role === 'admin') return () => 'admin';
  const chains = await chainsOf(
    db,
    collections.map((collection) => collection.id),
  );
  const grants = rolesByTarget(
    await grantsReachingUsers(db, organizationId, { spaces: [], collections: idsOnChains(chains) }, [member.userId]),
  );
  return (collection) => {
    const chain = chains.get(collection.id) ?? [];
    return contentRole({
      isMember: true,
      memberRole: member.role,
      levels: chain.map((link) => link.level),
      grants: chain.flatMap((link) => grants.get(link.id) ?? []),
    });
  };
}

/** Whether any grant reaches `userId` in the organization, theirs or their teams'. */
export async function hasGrants(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const { rows } = await sql<{
    found: boolean;
  }>`select exists (select 1 from ${grantsReachingUser(organizationId, userId)} g) as found`.execute(db);
  return rows[0]?.found === true;
}

/** A grant on some content or above it that reaches one of several users, directly or through a team. */
export interface ReachingGrant {
  user_id: string;
  role: Role;
  space_id: string | null;
  collection_id: string | null;
  team_id: string | null;
}

/**
 * The grants reaching these users, theirs and their teams', on these spaces
 * and collections, each once per user it reaches, oldest first, in one query.
 */
export async function grantsReachingUsers(
  db: Db,
  organizationId: string,
  targets: { spaces: readonly string[]; collections: readonly string[] },
  userIds: readonly string[],
): Promise<ReachingGrant[]> {
  if (userIds.length === 0 || (targets.spaces.length === 0 && targets.collections.length === 0)) return [];
  const users = sql.val([...userIds]);
  return db
    .selectFrom('content_grants as g')
    .leftJoin('team_members as tm', (join) =>
      join.onRef('tm.team_id', '=', 'g.team_id').onRef('tm.organization_id', '=', 'g.organization_id'),
    )
    .select([
      sql<string>`coalesce(g.user_id, tm.user_id)`.as('user_id'),
      'g.role',
      'g.space_id',
      'g.collection_id',
      'g.team_id',
    ])
    .where('g.organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('g.space_id', '=', sql<string>`any(${sql.val([...targets.spaces])}::text[])`),
        eb('g.collection_id', '=', sql<string>`any(${sql.val([...targets.collections])}::text[])`),
      ]),
    )
    .where(sql<boolean>`(g.user_id = any(${users}::text[]) or tm.user_id = any(${users}::text[]))`)
    .orderBy('g.created_at')
    .execute();
}

/**
 * The role each of `userIds` has on the space, null for none: what an
 * active member's organization role, the default levels and the grants to
 * them or their teams on the space and its collections give. Three queries
 * however many users.
 */
export async function userRolesOnSpace(
  db: Db,
  space: { id: string; organization_id: string; parent_id: string | null; default_level: DefaultLevel },
  userIds: readonly string[],
): Promise<Map<string, Role | null>> {
  if (userIds.length === 0) return new Map();
  const members = await db
    .selectFrom('organization_members')
    .select(['user_id', 'role'])
    .where('organization_id', '=', space.organization_id)
    .where('user_id', 'in', [...new Set(userIds)])
    .where('disabled', '=', false)
    .execute();
  const chain = space.parent_id ? ((await chainsOf(db, [space.parent_id])).get(space.parent_id) ?? []) : [];
  const grants = await grantsReachingUsers(
    db,
    space.organization_id,
    { spaces: [space.id], collections: chain.map((link) => link.id) },
    userIds,
  );
  const levels = [space.default_level, ...chain.map((link) => link.level)];
  const memberRoles = new Map(members.map((member) => [member.user_id, member.role]));
  return new Map(
    userIds.map((userId) => [
      userId,
      contentRole({
        isMember: memberRoles.has(userId),
        memberRole: memberRoles.get(userId) ?? null,
        levels,
        grants: grants.filter((grant) => grant.user_id === userId).map((grant) => grant.role),
      }),
    ]),
  );
}
