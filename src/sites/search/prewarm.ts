import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { perContext, type Context } from '../../context.js';
import type { Db } from '../../db/database.js';
import { findSiteForAudience } from '../published-actions.js';
import { readerSite } from '../reader/site-cache.js';
import { loadStructure } from '../structure/queries.js';
import { allSiteSpaces, publishedStructure } from '../structure/tree.js';

/** A site warmed on this instance is not warmed again for this long: a search box opened twice costs one warm-up. */
const WARM_FOR_MS = 60_000;
/** The most whole-page rows a warm-up reads: enough to bring a site's index into memory, bounded for a large one. */
const MAX_WARMED_ROWS = 5_000;
const MAX_SITES = 10_000;

const recentlyWarmed = perContext(() => new LRUCache<string, true>({ max: MAX_SITES, ttl: WARM_FOR_MS }));

/**
 * The local stand-in for GitBook's search backend hint: for the site's
 * audience (as searchSiteContent), it reads the site into this instance's
 * reader cache and reads the search rows of its published spaces once, so
 * that PostgreSQL holds their pages in memory when the searches come. Cheap
 * (one indexed, bounded read) and idempotent: a site warmed in the last
 * minute on this instance is left as it is.
 */
export async function prewarmSiteSearch(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
): Promise<void> {
  const { site } = await findSiteForAudience(context, userId, organizationId, siteId, shareKey);
  const recent = recentlyWarmed(context);
  if (recent.has(site.id)) return;
  const structure = publishedStructure(await loadStructure(context.db, site));
  const spaceIds = [...new Set(allSiteSpaces(structure).map((siteSpace) => siteSpace.space.id))];
  await Promise.all([
    site.published ? readerSite(context, site.basename ?? site.id) : undefined,
    spaceIds.length > 0 ? readSearchRows(context.db, site.organization_id, spaceIds) : undefined,
  ]);
  recent.set(site.id, true);
}

async function readSearchRows(db: Db, organizationId: string, spaceIds: readonly string[]): Promise<void> {
  await db
    .selectFrom((inner) =>
      inner
        .selectFrom('search_sections')
        .select(sql<number>`length(title)`.as('size'))
        .where('organization_id', '=', organizationId)
        .where('space_id', 'in', spaceIds)
        .where('ord', '=', 0)
        .limit(MAX_WARMED_ROWS)
        .as('rows'),
    )
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
}
