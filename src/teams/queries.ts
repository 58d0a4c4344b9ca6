import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, TeamRole } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { containsPattern } from '../core/text.js';
import { type TeamRow, selectTeams, teamSpacesCount, teamsOf } from './team-queries.js';
import { membershipColumn, type CarriedMembership } from '../access/membership.js';

export interface MemberTeamRow {
  id: string;
  title: string;
  created_at: Date;
  members_count: string;
  spaces_count: number;
  member_role: TeamRole;
  caller_is_owner: boolean;
  [TOTAL_COUNT]: string;
}

function teamsOfMember(db: Kysely<Database>, organizationId: string, userId: string, pattern: string | undefined) {
  const query = db
    .selectFrom('team_members as tm')
    .innerJoin('teams as t', 't.id', 'tm.team_id')
    .where('tm.organization_id', '=', organizationId)
    .where('tm.user_id', '=', userId);
  return pattern === undefined ? query : query.where('t.title', 'ilike', pattern);
}

function memberTeamsSelect(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  callerId: string,
  pattern: string | undefined,
) {
  return teamsOfMember(db, organizationId, userId, pattern)
    .select(['t.id', 't.title', 't.created_at', 'tm.role as member_role'])
    .select(sql<string>`(select count(*) from team_members c where c.team_id = t.id)`.as('members_count'))
    .select(teamSpacesCount().as('spaces_count'))
    .select(
      sql<boolean>`exists (select 1 from team_members o where o.team_id = t.id and o.user_id = ${callerId} and o.role = 'owner')`.as(
        'caller_is_owner',
      ),
    )
    .select(() =>
      teamsOfMember(db, organizationId, userId, pattern)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    );
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
  db: Db,
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

export async function countTeamsOfMember(
  db: Db,
  organizationId: string,
  userId: string,
  title: string | undefined,
): Promise<number> {
  const pattern = title === undefined ? undefined : containsPattern(title);
  const { n } = await teamsOfMember(db, organizationId, userId, pattern)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface TeamFilters {
  /** Only teams this user owns. */
  ownedBy: string | undefined;
  title: string | undefined;
}

// One compiled query per combination of filters; each takes only the values its filters use.
// Each row also carries the caller's membership, which decides whether they may read the list.
const withCount = <Q extends ReturnType<typeof selectTeams>>(
  query: Q,
  db: Kysely<Database>,
  organizationId: string,
  callerId: string,
  ownedBy?: string,
  pattern?: string,
) =>
  query
    .select(() =>
      teamsOf(db, organizationId, ownedBy, pattern)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    )
    .select(membershipColumn(organizationId, callerId).as('caller'));
const teamPages = {
  all: pageQuery(TEAM_KEYSET, (db, organizationId: string, callerId: string) =>
    withCount(selectTeams(db, organizationId, callerId), db, organizationId, callerId),
  ),
  owned: pageQuery(TEAM_KEYSET, (db, organizationId: string, callerId: string, ownedBy: string) =>
    withCount(selectTeams(db, organizationId, callerId, ownedBy), db, organizationId, callerId, ownedBy),
  ),
  titled: pageQuery(TEAM_KEYSET, (db, organizationId: string, callerId: string, pattern: string) =>
    withCount(
      selectTeams(db, organizationId, callerId, undefined, pattern),
      db,
      organizationId,
      callerId,
      undefined,
      pattern,
    ),
  ),
  ownedTitled: pageQuery(
    TEAM_KEYSET,
    (db, organizationId: string, callerId: string, ownedBy: string, pattern: string) =>
      withCount(
        selectTeams(db, organizationId, callerId, ownedBy, pattern),
        db,
        organizationId,
        callerId,
        ownedBy,
        pattern,
      ),
  ),
};

export async function listTeams(
  db: Db,
  page: PageRequest,
  organizationId: string,
  callerId: string,
  filters: TeamFilters,
) {
  const { ownedBy, title } = filters;
  const rows =
    ownedBy !== undefined && title !== undefined
      ? await teamPages.ownedTitled(db, page, organizationId, callerId, ownedBy, containsPattern(title))
      : ownedBy !== undefined
        ? await teamPages.owned(db, page, organizationId, callerId, ownedBy)
        : title !== undefined
          ? await teamPages.titled(db, page, organizationId, callerId, containsPattern(title))
          : await teamPages.all(db, page, organizationId, callerId);
  return rows as Array<TeamRow & { [TOTAL_COUNT]: string; caller: CarriedMembership }>;
}

export async function countTeams(db: Db, organizationId: string, filters: TeamFilters): Promise<number> {
  const pattern = filters.title === undefined ? undefined : containsPattern(filters.title);
  const { n } = await teamsOf(db, organizationId, filters.ownedBy, pattern)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

function teamMembersOf(db: Kysely<Database>, teamId: string) {
  return db.selectFrom('team_members as tm').where('tm.team_id', '=', teamId);
}

/** A page of a team's members: their user ids and team roles, oldest first by default order. */
export const listTeamMemberships = pageQuery({ createdAt: 'tm.added_at', id: 'tm.user_id' }, (db, teamId: string) =>
  teamMembersOf(db, teamId)
    .select(['tm.user_id', 'tm.role', 'tm.added_at'])
    .select(() =>
      teamMembersOf(db, teamId)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    ),
);

export async function countTeamMemberships(db: Db, teamId: string): Promise<number> {
  const { n } = await teamMembersOf(db, teamId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Adds the users to the team, or sets their role when they are in it already. */
export async function upsertTeamMembers(
  tx: Db,
  organizationId: string,
  teamId: string,
  members: ReadonlyArray<{ userId: string; role: TeamRole | undefined }>,
  now: Date,
): Promise<void> {
  for (const { userId, role } of members) {
    await tx
      .insertInto('team_members')
      .values({
        team_id: teamId,
        organization_id: organizationId,
        user_id: userId,
        role: role ?? 'member',
        added_at: now,
      })
      .onConflict((oc) =>
        role === undefined
          ? oc.columns(['team_id', 'user_id']).doNothing()
          : oc.columns(['team_id', 'user_id']).doUpdateSet({ role }),
      )
      .execute();
  }
}

export async function insertTeam(
  db: Db,
  organizationId: string,
  team: { id: string; title: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('teams')
    .values({ id: team.id, organization_id: organizationId, title: team.title, created_at: now, updated_at: now })
    .execute();
}

export async function renameTeam(
  db: Db,
  organizationId: string,
  teamId: string,
  title: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('teams')
    .set({ title, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', teamId)
    .execute();
}

/** Deletes the team; its members stay in the organization. */
/** Whether the team was there to delete: of two deletions at once, one finds it. */
export async function deleteTeam(db: Db, organizationId: string, teamId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('teams')
    .where('organization_id', '=', organizationId)
    .where('id', '=', teamId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export async function deleteTeamMembers(
  db: Db,
  organizationId: string,
  teamId: string,
  userIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .where('user_id', 'in', [...userIds])
    .execute();
}

/** Whether the user was in the team: removing someone not in it changes nothing. */
export async function deleteTeamMember(
  db: Db,
  organizationId: string,
  teamId: string,
  userId: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('team_members')
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
