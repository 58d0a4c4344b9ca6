import { LRUCache } from 'lru-cache';
import { perContext, type Context } from '../../context.js';
import type { SiteRow } from '../queries.js';
import { loadStructure } from '../structure/queries.js';
import type { StoredStructure } from '../structure/tree.js';
import { looksLikeId } from '../../core/ids.js';
import { findSiteByName } from './site-lookup.js';

/** A site as the reader serves it: its row and stored structure, read together. */
export interface ReaderSite {
  site: SiteRow;
  stored: StoredStructure;
  /** The site's generation in the structure cache when it was read: what pages made from it are keyed by. */
  generation: number;
}

const MAX_SITES = 2_000;
const cachedSites = perContext(
  (app) => new LRUCache<string, ReaderSite>({ max: MAX_SITES, ttl: app.config.siteCacheTtlMs }),
);

/**
 * The site an address names, with its structure: read from the database, then
 * kept SITE_CACHE_TTL_MS as the published structure of the API is. A change
 * made on this instance drops it at once (the site's scope in the structure
 * cache moves on); one made on another shows within the TTL. The content of
 * its spaces is not kept here: their current revisions are read per request.
 */
export async function readerSite(context: Context, name: string): Promise<ReaderSite | undefined> {
  const ttlMs = context.config.siteCacheTtlMs;
  const sites = cachedSites(context);
  // Basenames are one name in any case; ids are not.
  const key = looksLikeId(name) ? name : name.toLowerCase();
  const hit = sites.get(key);
  if (hit && hit.generation === context.siteStructures.generationOf(hit.site.id)) return hit;

  const site = await findSiteByName(context.db, name);
  if (!site) return undefined;
  const generation = context.siteStructures.generationOf(site.id);
  const read = { site, stored: await loadStructure(context.db, site), generation };
  if (ttlMs > 0) sites.set(key, read);
  return read;
}
