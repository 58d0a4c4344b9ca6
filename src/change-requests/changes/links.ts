import { joinPath } from '../../core/relative-path.js';
import { isRelativeUrl, isUnresolvedPageUrl } from '../../document/links.js';
import { spliceUrlsKeeping } from '../../document/rewrite-urls.js';
import type { ContentTree } from '../../content/tree.js';
import type { NewContent } from './page-input.js';

/** What the batch's refs stand for: pages inserted and files uploaded in it. */
export interface BatchRefs {
  pages: Map<string, string>;
  files: Map<string, string>;
}

/**
 * How a link reads once the batch is applied: its canonical URL, or the page
 * path it names that no page answers to yet (the link stays as written), or
 * neither (an external URL, an anchor: kept as written, nothing to wait for).
 */
export type LinkResolution = { url: string } | { missing: string } | undefined;

/** A link left as written because the page it names is missing: where it is in the stored markdown, and that page's path. */
export interface UnresolvedLink {
  url: string;
  target: string;
  start: number;
  end: number;
}

/** The pages of a tree by path, the pages with subpages, and the first page (the space's `README.md`). */
interface TreeLayout {
  paths: Map<string, string>;
  parents: Set<string>;
  first: string | undefined;
}

/** A README page's file: `README.md`, `a/b/README.md`, or the same without `.md`. */
const README_FILE = /(?:^|\/)README(?:\.md)?$/i;

/**
 * Whether a ref is the Git Sync file its page was written from: a `.md` path,
 * a README, or a path with folders (`a/b`, as a migration that drops `.md`
 * gives them); other refs are names (`guide`), which a link gives whole.
 */
function isGitSyncPath(ref: string): boolean {
  return /\.md$/i.test(ref) || README_FILE.test(ref) || ref.includes('/');
}

function splitHash(url: string): [string, string] {
  const at = url.indexOf('#');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/** The `#anchor` of a URL, or nothing. */
export function hashOf(url: string): string {
  return splitHash(url)[1];
}

/** A page path as Git Sync writes it: `a/b.md`, `a/b/README.md`, `README.md`, or just `a/b`. */
export function pagePathOf(gitPath: string): string {
  let path = gitPath.replace(/^\/+|(?<!\/)\/+$/g, '');
  if (path === 'README.md' || path === 'README') return '';
  path = path.replace(/\/README(\.md)?$/i, '').replace(/\.md$/i, '');
  return path;
}

function folderOfPath(path: string): string {
  const at = path.lastIndexOf('/');
  return at === -1 ? '' : path.slice(0, at);
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Reads the links of a batch's pages against the tree as the batch leaves it,
 * and the batch's refs. The canonical form of a link in a page is
 * `/pages/<id>` or `/files/<id>`: refs of the batch, page paths
 * (`/pages/guides/intro`, Git Sync's `.md` paths, `guides/`) and relative
 * markdown links are turned into it; anything else is kept as written.
 */
export class LinkResolver {
  /** The page each Git Sync file of the batch answers to as a path: `a/b.md` and `a/b/README.md` name `a/b`. */
  private readonly refPaths = new Map<string, string>();
  /** The Git Sync file a page was written as in this batch (`isGitSyncPath`). */
  private readonly gitFiles = new Map<string, string>();
  private layout: TreeLayout | undefined;

  constructor(
    private readonly tree: ContentTree,
    private readonly refs: BatchRefs,
  ) {
    // Names are no paths to resolve a relative link to.
    for (const [ref, pageId] of refs.pages) {
      if (!isGitSyncPath(ref)) continue;
      const path = pagePathOf(ref);
      if (!this.refPaths.has(path)) this.refPaths.set(path, pageId);
      this.gitFiles.set(pageId, ref.replace(/^\/+/, ''));
    }
  }

  /**
   * The folder a page's relative links start from. In Git Sync, `a/b.md` is
   * the page `a/b` and its links are relative to `a/`; `a/b/README.md` is the
   * page `a/b` too, with subpages beside it in `a/b/`, and its links are
   * relative to `a/b/`. A page written under such a file name in this batch
   * is read by it, whatever its subpages (they may come in a later write); a
   * page written into the tree (by `into` and a slug) is a README exactly
   * when it has subpages, as Git Sync would write it out.
   */
  folderOf(pageId: string): string {
    const gitFile = this.gitFiles.get(pageId);
    if (gitFile !== undefined) {
      const path = pagePathOf(gitFile);
      return README_FILE.test(gitFile) ? path : folderOfPath(path);
    }
    const page = this.tree.pages.get(pageId);
    if (!page) return '';
    if (this.laidOut().parents.has(pageId)) return this.tree.pathOf(pageId);
    return page.parentId && this.tree.pages.has(page.parentId) ? this.tree.pathOf(page.parentId) : '';
  }

  /** The page at a path: a page of the batch written under it, else the tree's (the space's first page for ''). */
  pageAt(path: string): string | undefined {
    const ref = this.refPaths.get(path);
    if (ref !== undefined) return ref;
    const layout = this.laidOut();
    return path === '' ? layout.first : layout.paths.get(path);
  }

  /** The paths a page of the batch answers to: its place in the tree, and the Git Sync file it was written as. */
  pathsOf(pageId: string): string[] {
    const paths = new Set<string>();
    if (this.tree.pages.has(pageId)) paths.add(this.tree.pathOf(pageId));
    if (this.laidOut().first === pageId) paths.add('');
    const gitFile = this.gitFiles.get(pageId);
    if (gitFile !== undefined) paths.add(pagePathOf(gitFile));
    return [...paths];
  }

  /**
   * The tree's layout, read once: the batch then sets its pages' new versions,
   * which move none of them, and a tree laid out again for every link of every
   * page would cost a pass over the space each.
   */
  private laidOut(): TreeLayout {
    if (!this.layout) {
      const paths = new Map<string, string>();
      const parents = new Set<string>();
      for (const page of this.tree.pages.values()) {
        // Link pages have no path (ContentTree.pageAtPath).
        if (page.type !== 'link') paths.set(this.tree.pathOf(page.pageId), page.pageId);
        if (page.parentId !== null) parents.add(page.parentId);
      }
      this.layout = { paths, parents, first: this.tree.childrenOf(null)[0]?.pageId };
    }
    return this.layout;
  }

  resolve(url: string, pageId: string): LinkResolution {
    if (!isRelativeUrl(url)) return undefined;
    const [target, hash] = splitHash(url);
    const bare = decode(target.replace(/^\.\//, ''));
    const refName = bare.replace(/\.md$/i, '');
    if (this.refs.files.has(bare)) return { url: `/files/${this.refs.files.get(bare)}${hash}` };
    if (this.refs.pages.has(refName)) return { url: `/pages/${this.refs.pages.get(refName)}${hash}` };

    let path: string | undefined;
    if (target.startsWith('/pages/')) {
      const rest = decode(target.slice('/pages/'.length));
      if (this.tree.pages.has(rest)) return undefined;
      path = pagePathOf(rest);
    } else if (!target.startsWith('/') && isUnresolvedPageUrl(target)) {
      const joined = joinPath(this.folderOf(pageId), decode(target));
      path = joined === undefined ? undefined : pagePathOf(joined);
    }
    if (path === undefined) return undefined;
    const found = this.pageAt(path);
    return found ? { url: `/pages/${found}${hash}` } : { missing: path };
  }
}

/** A link's canonical form against the tree and refs (see `LinkResolver`), or undefined to keep it as written. */
export function resolveLink(url: string, tree: ContentTree, refs: BatchRefs, pageId: string): string | undefined {
  const resolution = new LinkResolver(tree, refs).resolve(url, pageId);
  return resolution && 'url' in resolution ? resolution.url : undefined;
}

/**
 * The markdown with its links put in canonical form, and the links that name
 * a page no path answers to yet, where they are in that markdown: a later
 * write that adds the page resolves them (relink.ts).
 */
export function resolveLinks(
  content: NewContent,
  resolver: LinkResolver,
  pageId: string,
): { markdown: string; unresolved: UnresolvedLink[] } {
  const missing = new Map<string, string>();
  const { markdown, kept } = spliceUrlsKeeping(content.markdown, content.destinations, (url) => {
    const resolution = resolver.resolve(url, pageId);
    if (resolution && 'missing' in resolution) missing.set(url, resolution.missing);
    return resolution && 'url' in resolution ? resolution.url : undefined;
  });
  const unresolved = kept.flatMap(({ url, start, end }) => {
    const target = missing.get(url);
    return target === undefined ? [] : [{ url, target, start, end }];
  });
  return { markdown, unresolved };
}
