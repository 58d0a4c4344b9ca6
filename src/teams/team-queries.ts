import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';

export interface TeamRow {
  id: string;
  title: string;
  created_at: Date;
  members_count: string;
  spaces_count: number;
  caller_is_owner: boolean;
}
/** Teams of the organization, optionally only those `ownedBy` owns and those whose title matches `pattern`. */
export function teamsOf(
  db: Kysely<Database>,
  organizationId: string,
  ownedBy: string | undefined,
  pattern: string | undefined,
) {
  let query = db.selectFrom('teams as t').where('t.organization_id', '=', organizationId);
  if (ownedBy !== undefined) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('team_members as own')
          .select('own.team_id')
          .whereRef('own.team_id', '=', 't.id')
          .where('own.user_id', '=', ownedBy)
          .where('own.role', '=', 'owner'),
      ),
    );
  }
  return pattern === undefined ? query : query.where('t.title', 'ilike', pattern);
}
/** Teams with their member count and whether the caller owns each. */
export function selectTeams(
  db: Kysely<Database>,
  organizationId: string,
  callerId: string,
  ownedBy?: string,
  pattern?: string,
) {
  return teamsOf(db, organizationId, ownedBy, pattern)
    .select(['t.id', 't.title', 't.created_at'])
    .select(sql<string>`(select count(*) from team_members c where c.team_id = t.id)`.as('members_count'))
    .select(teamSpacesCount().as('spaces_count'))
    .select(
      sql<boolean>`exists (select 1 from team_members o where o.team_id = t.id and o.user_id = ${callerId} and o.role = 'owner')`.as(
        'caller_is_owner',
      ),
    );
}
/** How many live spaces the team `t` reaches through the grants to it, from team_reach, which the database keeps (SQL). */
export function teamSpacesCount() {
  return sql<number>`(select count(*)::int from team_reach r where r.team_id = t.id)`;
}

export async function findTeam(
  db: Db,
  organizationId: string,
  teamId: string,
  callerId: string,
): Promise<TeamRow | undefined> {
  return selectTeams(db, organizationId, callerId).where('t.id', '=', teamId).executeTakeFirst();
}
/** Teams of the organization among `teamIds`, in one query. */
export async function findTeams(
  db: Db,
  organizationId: string,
  teamIds: readonly string[],
  callerId: string,
): Promise<TeamRow[]> {
  if (teamIds.length === 0) return [];
  return selectTeams(db, organizationId, callerId)
    .where('t.id', 'in', [...teamIds])
    .execute();
}

/**
 * The ids among `teamIds` of teams of the organization, locked against
 * deletion until the transaction ends (a deleted team takes along what the
 * transaction writes for it; one deleted meanwhile is not found here).
 */
export async function lockTeams(db: Db, organizationId: string, teamIds: readonly string[]): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('teams')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...teamIds])
    .forKeyShare()
    .execute();
  return new Set(rows.map((row) => row.id));
}
