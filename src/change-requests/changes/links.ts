import { spliceUrls } from '../../document/index.js';
import type { ContentTree } from '../../content/tree.js';
import type { NewContent } from './page-input.js';

/** What the batch's refs stand for: pages inserted and files uploaded in it. */
export interface BatchRefs {
  pages: Map<string, string>;
  files: Map<string, string>;
}

function splitHash(url: string): [string, string] {
  const at = url.indexOf('#');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/** A page path as Git Sync writes it: `a/b.md`, `a/b/README.md`, `README.md`, or just `a/b`. */
function pagePathOf(gitPath: string): string {
  let path = gitPath.replace(/^\/+|(?<!\/)\/+$/g, '');
  if (path === 'README.md' || path === 'README') return '';
  path = path.replace(/\/README(\.md)?$/i, '').replace(/\.md$/i, '');
  return path;
}

/** Resolves `.` and `..` segments of `relative` against the folder `base`. */
function joinPath(base: string, relative: string): string | undefined {
  const segments = base ? base.split('/') : [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join('/');
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The canonical form of a link in a page: `/pages/<id>` and `/files/<id>`.
 * Refs of the batch, page paths (`/pages/guides/intro`, Git Sync's `.md`
 * paths) and relative markdown links are turned into it; anything else,
 * external URLs included, is kept as written.
 */
export function resolveLink(url: string, tree: ContentTree, refs: BatchRefs, pageId: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url.startsWith('//')) return undefined;
  const [target, hash] = splitHash(url);
  const bare = decode(target.replace(/^\.\//, ''));
  const refName = bare.replace(/\.md$/i, '');
  if (refs.files.has(bare)) return `/files/${refs.files.get(bare)}${hash}`;
  if (refs.pages.has(refName)) return `/pages/${refs.pages.get(refName)}${hash}`;

  let path: string | undefined;
  if (target.startsWith('/pages/')) {
    const rest = decode(target.slice('/pages/'.length));
    if (tree.pages.has(rest)) return undefined;
    path = pagePathOf(rest);
  } else if (target.startsWith('/files/')) {
    return undefined;
  } else if (target.startsWith('./') || target.startsWith('../') || /\.md$/i.test(target)) {
    const page = tree.pages.get(pageId);
    const folder = page?.parentId ? tree.pathOf(page.parentId) : '';
    const joined = joinPath(folder, decode(target));
    path = joined === undefined ? undefined : pagePathOf(joined);
  }
  if (path === undefined) return undefined;
  const found = path === '' ? tree.childrenOf(null)[0] : tree.pageAtPath(path);
  return found ? `/pages/${found.pageId}${hash}` : undefined;
}

/** The markdown with its links put in canonical form against the tree as the batch leaves it. */
export function resolveLinks(content: NewContent, tree: ContentTree, refs: BatchRefs, pageId: string): string {
  return spliceUrls(content.markdown, content.destinations, (url) => resolveLink(url, tree, refs, pageId));
}
