import type { Urls } from '../core/urls.js';
import type { Context } from '../context.js';
import { pageAppUrl } from '../content/page-present.js';
import type { ContentTree } from '../content/tree.js';
import type { PageHit, SpaceHit } from './search.js';

/** A matching section as the spec's SearchSectionResult. */
export interface SearchSectionResult {
  id: string;
  title: string;
  path: string;
  body: string;
  urls: { app: string };
}

/** A matching page as the spec's SearchPageResult. */
export interface SearchPageResult {
  id: string;
  title: string;
  path: string;
  sections: SearchSectionResult[];
  urls: { app: string };
}

/** A space with matching pages as the spec's SearchSpaceResult. */
export interface SearchSpaceResult {
  id: string;
  title: string;
  pages: SearchPageResult[];
}

/**
 * A page hit with its path in the space's current tree. The text before a
 * page's first heading is a section without an anchor: it takes the page's
 * id, title and address.
 */
export function presentPageHit(
  hit: PageHit,
  tree: ContentTree | undefined,
  organizationId: string,
  urls: Urls,
): SearchPageResult {
  const path = tree?.pathOf(hit.pageId) ?? '';
  const app = pageAppUrl(urls, { organizationId, spaceId: hit.spaceId, changeRequestId: null }, path);
  const at = (anchor: string | null, base: string) => (anchor ? `${base}#${anchor}` : base);
  return {
    id: hit.pageId,
    title: hit.title,
    path,
    sections: hit.sections.map((section) => ({
      id: section.anchor ?? hit.pageId,
      title: section.title || hit.title,
      path: at(section.anchor, path),
      body: section.excerpt,
      urls: { app: at(section.anchor, app) },
    })),
    urls: { app },
  };
}

/**
 * The current trees of the hits' spaces, read through the content cache (a
 * search that finds the same spaces again reads none), by space id.
 */
export async function treesOf(
  context: Context,
  organizationId: string,
  hits: readonly PageHit[],
): Promise<Map<string, ContentTree>> {
  const revisions = new Map(hits.map((hit) => [hit.spaceId, hit.revisionId]));
  const trees = new Map<string, ContentTree>();
  await Promise.all(
    [...revisions].map(async ([spaceId, revisionId]) => {
      const point = await context.content.revision(spaceId, organizationId, revisionId);
      if (point) trees.set(spaceId, await context.content.tree(point));
    }),
  );
  return trees;
}

/** Page hits presented, with their paths. */
export async function presentPageHits(
  context: Context,
  organizationId: string,
  hits: readonly PageHit[],
): Promise<SearchPageResult[]> {
  const trees = await treesOf(context, organizationId, hits);
  return hits.map((hit) => presentPageHit(hit, trees.get(hit.spaceId), organizationId, context.urls));
}

/** Space hits presented, each with its pages. */
export async function presentSpaceHits(
  context: Context,
  organizationId: string,
  hits: readonly SpaceHit[],
): Promise<SearchSpaceResult[]> {
  const trees = await treesOf(
    context,
    organizationId,
    hits.flatMap((hit) => hit.pages),
  );
  return hits.map((hit) => ({
    id: hit.spaceId,
    title: hit.title,
    pages: hit.pages.map((page) => presentPageHit(page, trees.get(page.spaceId), organizationId, context.urls)),
  }));
}
