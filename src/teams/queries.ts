import { sql, type Kysely } from 'kysely';
import type { DbOrTx } from '../db/database.js';
import type { Database, TeamRole } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';

export interface MemberTeamRow {
  id: string;
  title: string;
  created_at: Date;
  members_count: string;
  member_role: TeamRole;
  caller_is_owner: boolean;
  [TOTAL_COUNT]: string;
}

/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function teamsOfMember(db: Kysely<Database>, organizationId: string, userId: string, pattern: string | undefined) {
  const query = db
    .selectFrom('team_members as tm')
    .innerJoin('teams as t', 't.id', 'tm.team_id')
    .where('tm.organization_id', '=', organizationId)
    .where('tm.user_id', '=', userId);
  return pattern === undefined ? query : query.where('t.title', 'ilike', pattern);
}

function memberTeamsSelect(db: Kysely<Database>, organizationId: string, userId: string, callerId: string, pattern: string | undefined) {
  return teamsOfMember(db, organizationId, userId, pattern)
    .select(['t.id', 't.title', 't.created_at', 'tm.role as member_role'])
    .select(sql<string>`(select count(*) from team_members c where c.team_id = t.id)`.as('members_count'))
    .select(
      sql<boolean>`exists (select 1 from team_members o where o.team_id = t.id and o.user_id = ${callerId} and o.role = 'owner')`.as('caller_is_owner'),
    )
    .select(() => teamsOfMember(db, organizationId, userId, pattern).select((eb) => eb.fn.countAll<string>().as('n')).as(TOTAL_COUNT));
}

const TEAM_KEYSET = { createdAt: 't.created_at', id: 't.id' };
const memberTeams = {
  all: pageQuery(TEAM_KEYSET, (db, organizationId: string, userId: string, callerId: string) =>
    memberTeamsSelect(db, organizationId, userId, callerId, undefined),
  ),
  byTitle: pageQuery(TEAM_KEYSET, (db, organizationId: string, userId: string, callerId: string, pattern: string) =>
    memberTeamsSelect(db, organizationId, userId, callerId, pattern),
  ),
};

/** A page of the teams a member is in, with the member's role in each and whether the caller owns it. */
export async function listTeamsOfMember(
  db: DbOrTx,
  page: PageRequest,
  organizationId: string,
  userId: string,
  callerId: string,
  title: string | undefined,
): Promise<MemberTeamRow[]> {
  const rows =
    title === undefined
      ? await memberTeams.all(db, page, organizationId, userId, callerId)
      : await memberTeams.byTitle(db, page, organizationId, userId, callerId, containsPattern(title));
  return rows as MemberTeamRow[];
}

export async function countTeamsOfMember(db: DbOrTx, organizationId: string, userId: string, title: string | undefined): Promise<number> {
  const { n } = await teamsOfMember(db as Kysely<Database>, organizationId, userId, title === undefined ? undefined : containsPattern(title))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
