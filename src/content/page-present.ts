import type { Urls } from '../core/urls.js';
import type { GeneratedPage } from './computed.js';
import { gitSyncFrontmatter } from './page-frontmatter.js';
import { DEFAULT_LAYOUT } from './page-layout.js';
import type { ContentTree, FileState, PageState } from './tree.js';

/** Where a revision's pages live in the app: the space's, or its change request's. */
export interface ContentPlace {
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
}

export function pageAppUrl(urls: Urls, place: ContentPlace, path: string): string {
  const base = place.changeRequestId
    ? urls.app('o', place.organizationId, 's', place.spaceId, 'change-requests', place.changeRequestId)
    : urls.app('o', place.organizationId, 's', place.spaceId);
  return path ? `${base}/${path.split('/').map(encodeURIComponent).join('/')}` : base;
}

/**
 * A page's own fields as the spec's RevisionPageDocument, without its
 * subpages. The spec requires each document page to carry its content, hence
 * `markdown`.
 */
export function pageFields(
  tree: ContentTree,
  page: PageState,
  markdown: string,
  urls: Urls,
  place: ContentPlace,
): Record<string, unknown> {
  const path = tree.pathOf(page.pageId);
  if (page.type === 'computed') return computedPageFields(page, path, urls, place);
  if (page.type === 'group') return groupPageFields(page, path);
  if (page.type === 'link') return linkPageFields(page);
  return {
    id: page.pageId,
    title: page.title,
    kind: 'sheet',
    type: 'document',
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    createdAt: page.pageCreatedAt,
    updatedAt: page.updatedAt,
    urls: { app: pageAppUrl(urls, place, path) },
    slug: page.slug,
    path,
    ...(page.description ? { description: page.description } : {}),
    ...(page.documentId ? { documentId: page.documentId } : {}),
    layout: { ...DEFAULT_LAYOUT, ...(page.layout ?? {}) },
    ...(page.cover ? { cover: page.cover } : {}),
    variables: page.variables,
    hidden: page.hidden,
    noIndex: page.noIndex,
    noRobotsIndex: page.noRobotsIndex,
    // Page tags are not kept here; the newest spec requires the list.
    tags: [],
    markdown: gitSyncFrontmatter(tree, page) + markdown,
  };
}

/** A computed page as written, without what its source makes: the spec's RevisionPageComputed. */
function computedPageFields(page: PageState, path: string, urls: Urls, place: ContentPlace): Record<string, unknown> {
  return {
    id: page.pageId,
    title: page.title,
    type: 'computed',
    computed: page.computed,
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    createdAt: page.pageCreatedAt,
    updatedAt: page.updatedAt,
    urls: { app: pageAppUrl(urls, place, path) },
    slug: page.slug,
    path,
    hidden: page.hidden,
  };
}

/** A group page without its subpages: the spec's RevisionPageGroup, which has no content or URL of its own. */
function groupPageFields(page: PageState, path: string): Record<string, unknown> {
  return {
    id: page.pageId,
    title: page.title,
    kind: 'group',
    type: 'group',
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    createdAt: page.pageCreatedAt,
    updatedAt: page.updatedAt,
    slug: page.slug,
    path,
    hidden: page.hidden,
    noIndex: page.noIndex,
    noRobotsIndex: page.noRobotsIndex,
  };
}

/**
 * A link page: the spec's RevisionPageLink, its target as written. It has no
 * slug, path or subpages; `href` is given where the target is a URL, the only
 * kind whose address does not depend on where other content is now.
 */
function linkPageFields(page: PageState): Record<string, unknown> {
  const target = page.target as { kind: string; url?: string };
  return {
    id: page.pageId,
    title: page.title,
    kind: 'link',
    type: 'link',
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    createdAt: page.pageCreatedAt,
    updatedAt: page.updatedAt,
    target,
    ...(target.kind === 'url' && target.url ? { href: target.url } : {}),
    hidden: page.hidden,
  };
}

/**
 * A page a computed page made, and the pages under it, as the spec's
 * RevisionPageDocument with its `computed` source in place of a stored
 * document. `origin` is the computed page, whose dates and
 * visibility they share.
 */
export function presentGeneratedPage(
  page: GeneratedPage,
  origin: PageState,
  path: string,
  urls: Urls,
  place: ContentPlace,
): Record<string, unknown> {
  const own = page.id === origin.pageId;
  return {
    id: page.id,
    title: page.title,
    kind: 'sheet',
    type: 'document',
    ...(own && origin.emoji ? { emoji: origin.emoji } : {}),
    ...(own && origin.icon ? { icon: origin.icon } : {}),
    createdAt: origin.pageCreatedAt,
    updatedAt: origin.updatedAt,
    urls: { app: pageAppUrl(urls, place, path) },
    slug: page.slug,
    path,
    layout: { ...DEFAULT_LAYOUT, ...(own ? (origin.layout ?? {}) : {}) },
    variables: {},
    tags: [],
    hidden: origin.hidden,
    noIndex: origin.noIndex,
    noRobotsIndex: origin.noRobotsIndex,
    // Not `computedSeed` beside it: the spec's RevisionPageDocument would then match both of its oneOf
    // branches (the other one requires nothing), and so neither; the id is made from the seed.
    computed: page.source,
    markdown: page.markdown,
    pages: page.children.map((child) => presentGeneratedPage(child, origin, `${path}/${child.slug}`, urls, place)),
  };
}

/**
 * A page and the pages under it, as the spec's RevisionPage. Where `expanded`
 * holds what a computed page makes, that is shown in its place.
 */
export function presentPage(
  tree: ContentTree,
  page: PageState,
  markdownOf: (page: PageState) => string,
  urls: Urls,
  place: ContentPlace,
  expanded: ReadonlyMap<string, GeneratedPage> = new Map(),
): Record<string, unknown> {
  const generated = expanded.get(page.pageId);
  if (generated) return presentGeneratedPage(generated, page, tree.pathOf(page.pageId), urls, place);
  if (page.type === 'link') return pageFields(tree, page, '', urls, place);
  return {
    ...pageFields(tree, page, markdownOf(page), urls, place),
    pages: tree.childrenOf(page.pageId).map((child) => presentPage(tree, child, markdownOf, urls, place, expanded)),
  };
}

export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
}

/** A file as the spec's RevisionFile, with a signed download URL. */
export function presentFile(file: FileState, downloadUrl: string): RevisionFile {
  return {
    id: file.fileId,
    name: file.name,
    contentType: file.contentType,
    downloadURL: downloadUrl,
    size: file.size,
    ...(file.width !== null && file.height !== null ? { dimensions: { width: file.width, height: file.height } } : {}),
  };
}
