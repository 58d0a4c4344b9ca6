import { slugify, uniqueSlug } from '../../core/slug.js';
import { keySegments, parentKey, titleFromSegment } from './urls.js';

/** A page of the imported tree: a page of the site, or a group standing for a folder of it that has no page. */
export interface SiteNode<P> {
  key: string;
  title: string;
  slug: string;
  /** The site's page; undefined for a group. */
  page: P | undefined;
  children: Array<SiteNode<P>>;
}

/**
 * The site's pages as a page tree, following their paths: `/guide/install`
 * goes under `/guide`. A folder without a page of its own (`/api` when only
 * `/api/reference` was imported) becomes an empty group page titled after
 * it, so the site's structure stays whole. The home page `/` is no page's
 * parent: it is the first top-level page, beside the site's sections.
 * Siblings keep the order their first page was found in. Slugs are the
 * pages' last path segments, made unique among siblings; top-level ones also
 * against `topSlugs`, those already used at the top of the tree.
 */
export function buildSiteTree<P extends { key: string; title: string }>(
  pages: readonly P[],
  topSlugs: ReadonlySet<string>,
): Array<SiteNode<P>> {
  const nodes = new Map<string, SiteNode<P>>();
  const top: Array<SiteNode<P>> = [];
  const nodeFor = (key: string): SiteNode<P> => {
    const known = nodes.get(key);
    if (known) return known;
    const node: SiteNode<P> = {
      key,
      title: titleFromSegment(keySegments(key).pop() ?? ''),
      slug: '',
      page: undefined,
      children: [],
    };
    nodes.set(key, node);
    const parent = parentKey(key);
    (parent === null ? top : nodeFor(parent).children).push(node);
    return node;
  };
  for (const page of pages) {
    const node = nodeFor(page.key);
    node.page = page;
    node.title = page.title || node.title || 'Home';
  }
  assignSlugs(top, new Set(topSlugs));
  return top;
}

function assignSlugs<P>(siblings: Array<SiteNode<P>>, taken: Set<string>): void {
  for (const node of siblings) {
    node.slug = uniqueSlug(slugify(keySegments(node.key).pop() ?? node.title), taken);
    taken.add(node.slug);
    assignSlugs(node.children, new Set());
  }
}
