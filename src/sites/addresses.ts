import type { Urls } from '../core/urls.js';

/**
 * Where a site is read: `/s/{basename or site id}/{section path}/{site space
 * path}` under PUBLIC_URL, or `{section path}/{site space path}` at its
 * custom hostname once that is proven (with PUBLIC_URL's scheme): a pending
 * claim is nobody's address yet.
 */
export function siteAddress(
  urls: Urls,
  site: { id: string; basename: string | null; hostname: string | null; hostname_status: string | null },
  ...paths: string[]
): string {
  if (site.hostname === null || site.hostname_status !== 'live') return serviceSiteAddress(urls, site, ...paths);
  const scheme = new URL(urls.service()).protocol;
  const path = paths.map(encodeURIComponent).join('/');
  return path === '' ? `${scheme}//${site.hostname}` : `${scheme}//${site.hostname}/${path}`;
}

/** The site's address under PUBLIC_URL, whatever its hostname: what a proxy in front of the service forwards to. */
export function serviceSiteAddress(
  urls: Urls,
  site: { id: string; basename: string | null },
  ...paths: string[]
): string {
  return urls.site(site.basename ?? site.id, ...paths);
}

/** A share-link site's address opens only with a key: it is carried in `?share=`. */
export function withShareKey(address: string, key: string | undefined): string {
  return key === undefined ? address : `${address}?share=${encodeURIComponent(key)}`;
}
