import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { Database, Role } from '../db/types.js';
import { NotFoundError } from '../core/errors.js';
import { grantIsFor, spacesReachedByUserCount } from '../access/grants.js';

export interface MemberFields {
  user_id: string;
  role: Role | null;
  disabled: boolean;
  sso: boolean;
  joined_at: Date;
  last_seen_at: Date | null;
  email: string;
  display_name: string;
  photo_url: string | null;
  teams_count: string | number;
  spaces_count: number;
  sites_count: string | number;
}
/** A member with their user and their counters: teams they are in, spaces and sites they reach. */
export function selectMember<QB extends SelectQueryBuilder<Database, 'organization_members' | 'users', object>>(
  query: QB,
) {
  return query.select([
    'organization_members.user_id',
    'organization_members.role',
    'organization_members.disabled',
    'organization_members.sso',
    'organization_members.joined_at',
    'organization_members.last_seen_at',
    'users.email',
    'users.display_name',
    'users.photo_url',
    // Members with a role reach every live space of the organization; guests what is granted to them or their teams.
    sql<number>`case when organization_members.role is null
      then ${spacesReachedByUserCount(sql.ref('organization_members.organization_id'), sql.ref('organization_members.user_id'))}
      else (select o.live_spaces_count from organizations o where o.id = organization_members.organization_id) end`.as(
      'spaces_count',
    ),
    // Members with a role read every site of the organization; guests those given to them or their teams.
    sql<string>`case when organization_members.role is null
      then (select count(distinct g.site_id) from content_grants g
        where g.organization_id = organization_members.organization_id and g.site_id is not null
        and ${grantIsFor(sql.ref('organization_members.user_id'), sql.ref('organization_members.organization_id'))})
      else (select count(*) from sites s where s.organization_id = organization_members.organization_id) end`.as(
      'sites_count',
    ),
    sql<string>`(select count(*) from team_members tm where tm.organization_id = organization_members.organization_id and tm.user_id = organization_members.user_id)`.as(
      'teams_count',
    ),
  ]);
}
export function membersOf(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom('organization_members')
    .innerJoin('users', 'users.id', 'organization_members.user_id')
    .where('organization_members.organization_id', '=', organizationId);
}
const member = precompiled((db, organizationId: string, userId: string) =>
  selectMember(membersOf(db, organizationId)).where('organization_members.user_id', '=', userId),
);
export async function findMember(db: Db, organizationId: string, userId: string): Promise<MemberFields | undefined> {
  return (await member(db, organizationId, userId))[0];
}
/** Members of the organization among `userIds`, in one query. */
export async function findMembers(db: Db, organizationId: string, userIds: readonly string[]): Promise<MemberFields[]> {
  if (userIds.length === 0) return [];
  const rows = await selectMember(membersOf(db, organizationId))
    .where('organization_members.user_id', 'in', [...userIds])
    .execute();
  return rows;
}
/** The organization's members among user ids or e-mails, keyed by what was given. */
export async function resolveMembers(
  db: Db,
  organizationId: string,
  idsOrEmails: readonly string[],
): Promise<Map<string, string>> {
  const resolved = new Map<string, string>();
  if (idsOrEmails.length === 0) return resolved;
  const emails = idsOrEmails.map((value) => value.toLowerCase());
  const rows = await db
    .selectFrom('organization_members')
    .innerJoin('users', 'users.id', 'organization_members.user_id')
    .select(['users.id', 'users.email'])
    .where('organization_members.organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('users.id', 'in', [...idsOrEmails]), eb('users.email', 'in', emails)]))
    .execute();
  for (const value of idsOrEmails) {
    const row = rows.find((candidate) => candidate.id === value || candidate.email === value.toLowerCase());
    if (row) resolved.set(value, row.id);
  }
  return resolved;
}

/** The member of the organization, or 404. */
export async function memberOrNotFound(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<MemberFields> {
  const found = await findMember(db, organizationId, userId);
  if (!found) throw new NotFoundError('No member with this id in the organization');
  return found;
}

/**
 * The ids among `userIds` of members of the organization, their memberships
 * locked against removal until the transaction ends (a key-share lock, as a
 * foreign key to them would take at commit): a member who leaves meanwhile
 * takes along what the transaction writes for them, rather than making it fail.
 */
export async function lockMemberships(
  db: Db,
  organizationId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('organization_members')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('user_id', 'in', [...userIds])
    .forKeyShare()
    .execute();
  return new Set(rows.map((row) => row.user_id));
}
