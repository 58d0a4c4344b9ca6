import type { Urls } from '../core/urls.js';

/**
 * Where a site is read: `/s/{basename or site id}/{section path}/{site space
 * path}` under PUBLIC_URL. The reader that serves these comes later; the
 * addresses are fixed now so that links made today keep working.
 */
export function siteAddress(urls: Urls, site: { id: string; basename: string | null }, ...paths: string[]): string {
  return urls.site(site.basename ?? site.id, ...paths);
}

/** A share-link site's address opens only with a key: it is carried in `?share=`. */
export function withShareKey(address: string, key: string | undefined): string {
  return key === undefined ? address : `${address}?share=${encodeURIComponent(key)}`;
}
