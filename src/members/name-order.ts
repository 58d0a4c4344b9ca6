import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { DEFAULT_PAGE_SIZE, type Order, type Page } from '../core/pagination.js';
import type { Context } from '../context.js';
import type { Role } from '../db/types.js';
import { selectMember, type MemberFields } from './member-queries.js';
import type { Member } from './member-schemas.js';
import { presentMember } from './members.js';
import { containsPattern } from '../core/text.js';
import { countMembers, filtered as filteredMembers, type MemberFilters } from './queries.js';

/** The sort key of `sort=name`: display names compared without case, ties broken by user id. */
const nameKey = sql<string>`lower(users.display_name)`;

/**
 * A page of members by name. Names are not unique, so the cursor holds the
 * last member's key and id, and the next page starts strictly after both.
 * The organization's members are sorted in the statement: a name lives on
 * the user, not on the membership an index of the organization could hold.
 */
async function membersByName(
  db: Db,
  organizationId: string,
  filters: MemberFilters,
  page: { order: Order; limit: number; after: readonly [string, string] | undefined },
) {
  const role = (filters.role ?? '') as Role;
  let query = selectMember(filteredMembers(db, organizationId, filters, role, containsPattern(filters.search ?? '')))
    .select(nameKey.as('name_key'))
    .orderBy(nameKey, page.order)
    .orderBy('organization_members.user_id', page.order)
    .limit(page.limit + 1);
  if (page.after) {
    const position = sql`(${page.after[0]}::text, ${page.after[1]}::text)`;
    const key = sql`(${nameKey}, organization_members.user_id)`;
    query = query.where(page.order === 'asc' ? sql<boolean>`${key} > ${position}` : sql<boolean>`${key} < ${position}`);
  }
  return (await query.execute()) as Array<MemberFields & { name_key: string }>;
}

export async function listMembersByName(
  context: Context,
  organizationId: string,
  filters: MemberFilters,
  query: { page?: string; limit?: number; order?: Order },
): Promise<Page<Member>> {
  const order = query.order ?? 'desc';
  // The cursor names the list, its order and filters: one made for another is refused.
  const list = `members:${organizationId}:name:${order}:${filters.role ?? ''}:${filters.search ?? ''}`;
  const cursor = query.page ? context.cursors.decodePosition(query.page, list, 2) : undefined;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const after = cursor ? ([cursor[0]!, cursor[1]!] as const) : undefined;
  const rows = limit === 0 ? [] : await membersByName(context.db, organizationId, filters, { order, limit, after });
  const items = rows.slice(0, limit);
  const count =
    after === undefined && rows.length <= limit && limit > 0
      ? rows.length
      : await countMembers(context.db, organizationId, filters);
  const page: Page<Member> = { count, items: items.map((row) => presentMember(row, context.urls)) };
  const last = items.at(-1);
  if (rows.length > limit && last)
    page.next = { page: context.cursors.encodePosition(list, [last.name_key, last.user_id]) };
  return page;
}
