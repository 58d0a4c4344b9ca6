import { DEFAULT_PAGE_SIZE, type Page } from '../../core/pagination.js';
import { containsPattern } from '../../core/text.js';
import type { Context } from '../../context.js';
import { findTargetToRead } from '../../permissions/target.js';
import { presentSiteReach } from './present.js';
import { countSiteReach, listSiteReach, type SiteReachFilters } from './queries.js';
import type { ListSiteReachQuery, UserSitePermission } from './schemas.js';

/**
 * Everyone who reaches the site, with their role on it and where it comes
 * from: every active member with a role (members read the organization's
 * sites), and guests given a role on the site. For members with a role on
 * the site; guests are refused, as for spaces.
 */
export async function listSiteReachingUsers(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  query: ListSiteReachQuery,
): Promise<Page<UserSitePermission>> {
  const sort = query.sort ?? 'joinedAt';
  const order = query.order ?? 'desc';
  const filters: SiteReachFilters = {
    sort,
    role: query.role,
    pattern: query.search === undefined ? undefined : containsPattern(query.search),
    team: query.team,
  };
  // The cursor names the list, its order and filters: one made for another is refused.
  const list = `site-reach:${siteId}:${sort}:${order}:${query.role ?? ''}:${query.search ?? ''}:${query.team ?? ''}`;
  const cursor = query.page ? context.cursors.decodePosition(query.page, list, 2) : undefined;
  await findTargetToRead(context, { kind: 'site', id: siteId, organizationId }, callerId);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const after = cursor ? ([cursor[0]!, cursor[1]!] as const) : undefined;
  const rows =
    limit === 0 ? [] : await listSiteReach(context.db, organizationId, siteId, filters, { order, limit, after });
  const items = rows.slice(0, limit);
  const count =
    after === undefined && rows.length <= limit && limit > 0
      ? rows.length
      : await countSiteReach(context.db, organizationId, siteId, filters);
  const page: Page<UserSitePermission> = {
    count,
    items: items.map((row) => presentSiteReach(row, organizationId, siteId, context.urls)),
  };
  const last = items.at(-1);
  if (rows.length > limit && last)
    page.next = { page: context.cursors.encodePosition(list, [last.sort_key, last.user_id]) };
  return page;
}
