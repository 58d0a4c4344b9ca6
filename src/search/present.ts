import type { Urls } from '../core/urls.js';
import type { Context } from '../context.js';
import { pageAppUrl } from '../content/page-present.js';
import type { ContentTree } from '../content/tree.js';
import type { Static } from '@sinclair/typebox';
import type {
  SearchPageResult as SearchPageResultSchema,
  SearchSpaceResult as SearchSpaceResultSchema,
} from './result-schemas.js';
import type { PageHit, SpaceHit } from './search.js';

export type SearchPageResult = Static<typeof SearchPageResultSchema>;
export type SearchSpaceResult = Static<typeof SearchSpaceResultSchema>;

/** The titles of the pages above `pageId`, from the top level down to its parent. */
function ancestorsOf(tree: ContentTree | undefined, pageId: string): Array<{ title: string }> {
  const ancestors: Array<{ title: string }> = [];
  const parentOf = (id: string) => {
    const parentId = tree?.pages.get(id)?.parentId;
    return parentId ? tree?.pages.get(parentId) : undefined;
  };
  for (let parent = parentOf(pageId); parent; parent = parentOf(parent.pageId)) {
    ancestors.unshift({ title: parent.title });
  }
  return ancestors;
}

/**
 * A page hit with its path in the space's current tree, at `rank` among the
 * results. The text before a page's first heading is a section without an
 * anchor: it takes the page's id, title and address.
 */
export function presentPageHit(
  hit: PageHit,
  rank: number,
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
    description: tree?.pages.get(hit.pageId)?.description ?? '',
    path,
    score: Number(hit.score),
    rank,
    ancestors: ancestorsOf(tree, hit.pageId),
    sections: hit.sections.map((section) => ({
      id: section.anchor ?? hit.pageId,
      title: section.title || hit.title,
      path: at(section.anchor, path),
      score: section.score,
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

/** Page hits presented, with their paths, ranked from `ranked + 1` (the pages earlier pages of results showed). */
export async function presentPageHits(
  context: Context,
  organizationId: string,
  hits: readonly PageHit[],
  ranked: number,
): Promise<SearchPageResult[]> {
  const trees = await treesOf(context, organizationId, hits);
  return hits.map((hit, index) =>
    presentPageHit(hit, ranked + index + 1, trees.get(hit.spaceId), organizationId, context.urls),
  );
}

/** Space hits presented, each with its pages, which are ranked in the order shown from `ranked + 1`. */
export async function presentSpaceHits(
  context: Context,
  organizationId: string,
  hits: readonly SpaceHit[],
  ranked: number,
): Promise<SearchSpaceResult[]> {
  const trees = await treesOf(
    context,
    organizationId,
    hits.flatMap((hit) => hit.pages),
  );
  let rank = ranked;
  return hits.map((hit) => ({
    type: 'space' as const,
    id: hit.spaceId,
    title: hit.title,
    score: Number(hit.score),
    pages: hit.pages.map((page) => presentPageHit(page, ++rank, trees.get(page.spaceId), organizationId, context.urls)),
  }));
}
