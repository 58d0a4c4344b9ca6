import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DbOrTx } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import { customPlan } from '../db/prepared-pool.js';
import type { Database, Role } from '../db/types.js';
import { ConflictError } from '../core/errors.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { containsPattern } from '../core/text.js';

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
}

/** A member with their user and their counters: teams they are in, spaces they reach. */
export function selectMember<QB extends SelectQueryBuilder<Database, 'organization_members' | 'users', object>>(query: QB) {
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
    // Members with a role reach every live space of the organization; guests only what is shared with them, nothing yet.
    sql<number>`case when organization_members.role is null then 0
      else (select o.live_spaces_count from organizations o where o.id = organization_members.organization_id) end`.as('spaces_count'),
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

export async function findMember(db: DbOrTx, organizationId: string, userId: string): Promise<MemberFields | undefined> {
  return (await member(db, organizationId, userId))[0] as MemberFields | undefined;
}

export type MemberSort = 'joinedAt' | 'lastSeenAt';
export interface MemberFilters {
  sort: MemberSort;
  /** A role, 'guest' for members without one, or undefined for all. */
  role: Role | 'guest' | undefined;
  /** Matches display names and e-mails, case-insensitively. */
  search: string | undefined;
}


function filtered(db: Kysely<Database>, organizationId: string, filters: MemberFilters, role: string, pattern: string) {
  let query = membersOf(db, organizationId);
  if (filters.sort === 'lastSeenAt') query = query.where('organization_members.last_seen_at', 'is not', null);
  if (filters.role === 'guest') query = query.where('organization_members.role', 'is', null);
  else if (filters.role !== undefined) query = query.where('organization_members.role', '=', role as Role);
  // The same expression as the trigram index on users, so that the index serves the search.
  if (filters.search !== undefined) query = query.where(sql<string>`users.display_name || E'\n' || users.email`, 'ilike', pattern);
  return query;
}

// One compiled query per combination of sort, role filter and search. Each
// takes, after the organization, only the values its filters use.
const memberPages = new Map<string, (db: DbOrTx, page: PageRequest, ...args: string[]) => Promise<unknown[]>>();

function memberPage(filters: MemberFilters) {
  const column = filters.sort === 'lastSeenAt' ? 'organization_members.last_seen_at' : 'organization_members.joined_at';
  const columns = { createdAt: column, id: 'organization_members.user_id' };
  const page = (db: Kysely<Database>, organizationId: string, role: string, pattern: string) => {
    const members = selectMember(filtered(db, organizationId, filters, role, pattern));
    // A search usually matches less than a page, whose size is then the count:
    // counting in the same statement would scan the search index twice.
    if (filters.search !== undefined) return members.modifyEnd(customPlan);
    return members.select(() =>
      filtered(db, organizationId, filters, role, pattern)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    );
  };
  const byRole = filters.role !== undefined && filters.role !== 'guest';
  const bySearch = filters.search !== undefined;
  if (byRole && bySearch) return pageQuery(columns, (db, organizationId: string, role: string, pattern: string) => page(db, organizationId, role, pattern));
  if (byRole) return pageQuery(columns, (db, organizationId: string, role: string) => page(db, organizationId, role, ''));
  if (bySearch) return pageQuery(columns, (db, organizationId: string, pattern: string) => page(db, organizationId, '', pattern));
  return pageQuery(columns, (db, organizationId: string) => page(db, organizationId, '', ''));
}

export async function listMembers(db: DbOrTx, page: PageRequest, organizationId: string, filters: MemberFilters) {
  const byRole = filters.role !== undefined && filters.role !== 'guest';
  const shape = `${filters.sort}:${filters.role === 'guest' ? 'guest' : byRole ? 'role' : 'any'}:${filters.search !== undefined}`;
  let run = memberPages.get(shape);
  if (!run) {
    run = memberPage(filters) as (db: DbOrTx, page: PageRequest, ...args: string[]) => Promise<unknown[]>;
    memberPages.set(shape, run);
  }
  const args = [...(byRole ? [filters.role as string] : []), ...(filters.search !== undefined ? [containsPattern(filters.search)] : [])];
  return (await run(db, page, organizationId, ...args)) as Array<MemberFields & { [TOTAL_COUNT]?: string }>;
}

export async function countMembers(db: DbOrTx, organizationId: string, filters: MemberFilters): Promise<number> {
  const { n } = await filtered(db as Kysely<Database>, organizationId, filters, filters.role ?? '', containsPattern(filters.search ?? ''))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .modifyEnd(customPlan)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Runs a change to a member's role or membership that must leave the
 * organization an admin. The organization's admins are locked first, so two
 * admins demoting each other at once cannot both succeed.
 */
export async function keepingAnAdmin<T>(db: DbOrTx, organizationId: string, userId: string, change: (tx: DbOrTx) => Promise<T>): Promise<T> {
  const run = async (tx: DbOrTx) => {
    const admins = await tx
      .selectFrom('organization_members')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'admin')
      .where('disabled', '=', false)
      .forUpdate()
      .execute();
    const result = await change(tx);
    const remaining = await tx
      .selectFrom('organization_members')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'admin')
      .where('disabled', '=', false)
      .executeTakeFirstOrThrow();
    if (Number(remaining.n) === 0 && admins.some((admin) => admin.user_id === userId)) {
      throw new ConflictError('The organization must keep at least one admin');
    }
    return result;
  };
  return 'isTransaction' in db && db.isTransaction ? run(db) : (db as Kysely<Database>).transaction().execute(run);
}

/** Members of the organization among `userIds`, in one query. */
export async function findMembers(db: DbOrTx, organizationId: string, userIds: readonly string[]): Promise<MemberFields[]> {
  if (userIds.length === 0) return [];
  const rows = await selectMember(membersOf(db as Kysely<Database>, organizationId))
    .where('organization_members.user_id', 'in', [...userIds])
    .execute();
  return rows as MemberFields[];
}

/** The organization's members among user ids or e-mails, keyed by what was given. */
export async function resolveMembers(db: DbOrTx, organizationId: string, idsOrEmails: readonly string[]): Promise<Map<string, string>> {
  const resolved = new Map<string, string>();
  if (idsOrEmails.length === 0) return resolved;
  const emails = idsOrEmails.map((value) => value.toLowerCase());
  const rows = await (db as Kysely<Database>)
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
