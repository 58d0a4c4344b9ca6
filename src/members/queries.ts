import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import { customPlan } from '../db/prepared-pool.js';
import type { Database, Role } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { containsPattern } from '../core/text.js';
import { membersOf, selectMember, type MemberFields } from './member-queries.js';

export type MemberSort = 'joinedAt' | 'lastSeenAt' | 'name';
export interface MemberFilters {
  sort: MemberSort;
  /** A role, 'guest' for members without one, or undefined for all. */
  role: Role | 'guest' | undefined;
  /** Matches display names and e-mails, case-insensitively. */
  search: string | undefined;
}

/** The expression of the trigram index on users, so that the index serves the search. */
const SEARCHED = sql<string>`users.display_name || E'\n' || users.email`;

/**
 * The organization's members that `filters` keep. A search is `pattern`, or,
 * where `matched` is given, the users already found to match it (their ids,
 * an array parameter).
 */
export function filtered(
  db: Kysely<Database>,
  organizationId: string,
  filters: MemberFilters,
  role: string,
  pattern: string,
  matched?: string,
) {
  let query = membersOf(db, organizationId);
  if (filters.sort === 'lastSeenAt') query = query.where('organization_members.last_seen_at', 'is not', null);
  if (filters.role === 'guest') query = query.where('organization_members.role', 'is', null);
  else if (filters.role !== undefined) query = query.where('organization_members.role', '=', role as Role);
  if (filters.search !== undefined) {
    query =
      matched === undefined
        ? query.where(SEARCHED, 'ilike', pattern)
        : query.where(sql<boolean>`users.id = any(${matched}::text[])`);
  }
  return query;
}

/**
 * Users a search's page is read from rather than by walking the members in
 * their order: the planner cannot tell a rare name from a common one (it
 * guessed 2,020 users for "jack gordon", which 15 match, and 20 for "okafor",
 * which 885 match), and for a rare one it walked all 200,000 members of an
 * organization newest first to find 15 (seconds under load). Up to this many
 * users are read through the trigram index and their members sorted; past it
 * the search is common enough for the walk to fill a page soon.
 */
const MATCHED_USERS_READ_FIRST = 1_000;

/** The users whose name or e-mail matches `pattern`, or undefined when more than MATCHED_USERS_READ_FIRST do. */
async function usersMatching(db: Db, pattern: string): Promise<string[] | undefined> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where(SEARCHED, 'ilike', pattern)
    .limit(MATCHED_USERS_READ_FIRST + 1)
    .modifyEnd(customPlan)
    .execute();
  return rows.length > MATCHED_USERS_READ_FIRST ? undefined : rows.map((row) => row.id);
}

/**
 * The count of `filtered`: unfiltered, the organization's kept count; without
 * a search, from the memberships alone (every one has its user), an
 * index-only scan rather than a join of every member with their user.
 */
function countOf(db: Kysely<Database>, organizationId: string, filters: MemberFilters, role: string, pattern: string) {
  if (filters.search !== undefined) {
    return filtered(db, organizationId, filters, role, pattern).select((eb) => eb.fn.countAll<string>().as('n'));
  }
  if (filters.sort === 'joinedAt' && filters.role === undefined) {
    return db.selectFrom('organizations').where('id', '=', organizationId).select('members_count as n');
  }
  let query = db.selectFrom('organization_members').where('organization_members.organization_id', '=', organizationId);
  if (filters.sort === 'lastSeenAt') query = query.where('organization_members.last_seen_at', 'is not', null);
  if (filters.role === 'guest') query = query.where('organization_members.role', 'is', null);
  else if (filters.role !== undefined) query = query.where('organization_members.role', '=', role as Role);
  return query.select((eb) => eb.fn.countAll<string>().as('n'));
}

// One compiled query per combination of sort, role filter and search. Each
// takes, after the organization, only the values its filters use.
const memberPages = new Map<string, (db: Db, page: PageRequest, ...args: string[]) => Promise<unknown[]>>();

function memberPage(filters: MemberFilters, byMatchedUsers: boolean) {
  const column = filters.sort === 'lastSeenAt' ? 'organization_members.last_seen_at' : 'organization_members.joined_at';
  const columns = { createdAt: column, id: 'organization_members.user_id' };
  // `searched`: the search's pattern, or the ids of the users found to match it first.
  const page = (db: Kysely<Database>, organizationId: string, role: string, searched: string) => {
    const members = selectMember(
      byMatchedUsers
        ? filtered(db, organizationId, filters, role, '', searched)
        : filtered(db, organizationId, filters, role, searched),
    );
    // A search usually matches less than a page, whose size is then the count:
    // counting in the same statement would scan the search index twice.
    if (filters.search !== undefined) return members.modifyEnd(customPlan);
    return members.select(() => countOf(db, organizationId, filters, role, searched).as(TOTAL_COUNT));
  };
  const byRole = filters.role !== undefined && filters.role !== 'guest';
  const bySearch = filters.search !== undefined;
  if (byRole && bySearch) {
    return pageQuery(columns, (db, organizationId: string, role: string, searched: string) =>
      page(db, organizationId, role, searched),
    );
  }
  if (byRole) {
    return pageQuery(columns, (db, organizationId: string, role: string) => page(db, organizationId, role, ''));
  }
  if (bySearch) {
    return pageQuery(columns, (db, organizationId: string, searched: string) => page(db, organizationId, '', searched));
  }
  return pageQuery(columns, (db, organizationId: string) => page(db, organizationId, '', ''));
}

/** A page of members: check first that the caller may read the roster. */
export async function listMembers(db: Db, page: PageRequest, organizationId: string, filters: MemberFilters) {
  const byRole = filters.role !== undefined && filters.role !== 'guest';
  const roleShape = filters.role === 'guest' ? 'guest' : byRole ? 'role' : 'any';
  const pattern = filters.search === undefined ? undefined : containsPattern(filters.search);
  const matched = pattern === undefined ? undefined : await usersMatching(db, pattern);
  const shape = `${filters.sort}:${roleShape}:${filters.search !== undefined}:${matched !== undefined}`;
  let run = memberPages.get(shape);
  if (!run) {
    run = memberPage(filters, matched !== undefined);
    memberPages.set(shape, run);
  }
  const args = [
    ...(byRole ? [filters.role as string] : []),
    // An array parameter where users were matched first: pg sends it as PostgreSQL's array.
    ...(pattern === undefined ? [] : [(matched ?? pattern) as string]),
  ];
  return (await run(db, page, organizationId, ...args)) as Array<MemberFields & { [TOTAL_COUNT]?: string }>;
}

export async function countMembers(db: Db, organizationId: string, filters: MemberFilters): Promise<number> {
  const { n } = await countOf(db, organizationId, filters, filters.role ?? '', containsPattern(filters.search ?? ''))
    .modifyEnd(customPlan)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Locks the organization's active admins, so that two admins demoting each other at once cannot both succeed. */
export async function lockActiveAdmins(db: Db, organizationId: string): Promise<string[]> {
  const admins = await db
    .selectFrom('organization_members')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', false)
    .forUpdate()
    .execute();
  return admins.map((admin) => admin.user_id);
}

export async function countActiveAdmins(db: Db, organizationId: string): Promise<number> {
  const { n } = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', false)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function setMemberRole(db: Db, organizationId: string, userId: string, role: Role | null): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Team memberships, grants and review requests follow through their foreign
 * keys (ON DELETE CASCADE); comments and replies stay, shown with their author.
 */
export async function deleteMember(db: Db, organizationId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('organization_members')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function recordLastSeen(db: Db, organizationId: string, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ last_seen_at: now })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function markSsoMember(db: Db, organizationId: string, userId: string): Promise<void> {
  await db
    .updateTable('organization_members')
    .set({ sso: true })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}
