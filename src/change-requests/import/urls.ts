/**
 * How the crawler names a site's pages. A page is its path on the site's
 * origin: the query and the fragment are dropped, `index.html` is the folder,
 * and a trailing slash is the same page as none (`/guide/` is `/guide`).
 */
export function pageKey(url: URL): string {
  const path = url.pathname.replace(/\/index\.html?$/i, '/').replace(/(?<!\/)\/+$/, '');
  return path === '' ? '/' : path;
}

/** The URL `raw` reads as on a page whose base is `base`, when it is an http or https URL. */
export function resolveWebUrl(raw: string, base: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/** The segments of a page key, decoded where they can be: `/guide/get%20started` is `guide`, `get started`. */
export function keySegments(key: string): string[] {
  return key
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** The key of the page above `key` on the site, or null for a top-level page (`/` is no page's parent). */
export function parentKey(key: string): string | null {
  const at = key.lastIndexOf('/');
  return at <= 0 ? null : key.slice(0, at);
}

/** A title made from a path segment, for pages that have none of their own: `getting-started` is `Getting started`. */
export function titleFromSegment(segment: string): string {
  const words = segment
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_\s]+/g, ' ')
    .trim();
  return words === '' ? '' : words[0]!.toUpperCase() + words.slice(1);
}
