import type { ContentRef, ImageRef } from './types.js';

const PAGES = '/pages/';
const FILES = '/files/';

/** The id in `/pages/<id>` or `/files/<id>`: one non-empty path segment. */
function singleSegment(rest: string): string | null {
  return rest !== '' && !rest.includes('/') && !rest.includes('?') && !rest.includes('#') ? rest : null;
}

/** `/pages/<id>`, `/pages/<id>#<anchor>` and `#<anchor>` point into the space; `/files/<id>` at an upload. */
export function refFromUrl(url: string): ContentRef {
  if (url.startsWith(PAGES)) {
    const hash = url.indexOf('#');
    const page = singleSegment(url.slice(PAGES.length, hash === -1 ? undefined : hash));
    const anchor = hash === -1 ? '' : url.slice(hash + 1);
    if (page) return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
  }
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return imageRefFromUrl(url);
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Whether a URL is relative to the page: no scheme, no `//host`, no `#anchor` of the page itself. */
export function isRelativeUrl(url: string): boolean {
  return url !== '' && !SCHEME.test(url) && !url.startsWith('#') && !url.startsWith('//');
}

/**
 * Whether a link left as written names a page: a relative URL whose path is a
 * `.md` file or a page path (`guides/`, `../setup`, `/pages/a/b`), not a file
 * with another extension (`diagram.png`). Such a link was not resolved when
 * written (`/pages/<id>` is what a resolved one reads), so its page is missing.
 */
export function isUnresolvedPageUrl(url: string): boolean {
  if (!isRelativeUrl(url)) return false;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (path === '') return false;
  if (/\.md$/i.test(path)) return true;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.') || last === '.' || last === '..';
}

export function imageRefFromUrl(url: string): ImageRef {
  const file = url.startsWith(FILES) ? singleSegment(url.slice(FILES.length)) : null;
  return file ? { kind: 'file', file } : { kind: 'url', url };
}

/**
 * The markdown URL of a reference, or null for references a URL cannot name
 * (a page of another space, users, collections...): those links lose their target.
 */
export function urlFromRef(ref: Record<string, unknown>): string | null {
  const text = (name: string) => (typeof ref[name] === 'string' && ref[name] !== '' ? ref[name] : null);
  if (ref.space !== undefined) return null;
  const page = text('page');
  const file = text('file');
  const anchor = text('anchor');
  switch (ref.kind) {
    case 'url':
      // `[text]()` is a link to nowhere, and stays one.
      return typeof ref.url === 'string' ? ref.url : null;
    case 'file':
      return file && FILES + file;
    case 'page':
      return page && PAGES + page;
    case 'anchor':
      if (!anchor) return null;
      return page ? `${PAGES}${page}#${anchor}` : `#${anchor}`;
    default:
      return null;
  }
}
