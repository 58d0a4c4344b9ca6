import { loaded, loadingCache } from '../core/loading-cache.js';
import { generatePages, type ComputedView, type GeneratedPage } from '../content/computed.js';
import type { ContentTree, PageState } from '../content/tree.js';
import { perContext, type Context } from '../context.js';
import type { RevisionPoint } from '../content/state.js';

/** Views by revision and spec versions: what a computed page shows changes only with one of them. */
const MAX_VIEWS = 1_000;
const views = perContext(() => loadingCache<ComputedView>(MAX_VIEWS, () => 1));

/**
 * What the space's computed pages show (an OpenAPI spec's pages), made from
 * their specs' latest versions: one query for those versions, then the pages
 * made once per revision and versions. Undefined for a space without any.
 */
export async function computedView(
  context: Context,
  content: { point: RevisionPoint; tree: ContentTree },
): Promise<ComputedView | undefined> {
  const computed = content.tree.computedPages();
  if (computed.length === 0) return undefined;
  const { organizationId } = content.point;
  const slugs = [...new Set(computed.map((page) => page.computed.dependencies.spec.ref.spec))];
  const specs = await context.specOutlines(organizationId, slugs);
  const stamps = computed
    .map((page) => `${page.versionId}@${specs.get(page.computed.dependencies.spec.ref.spec)?.spec.lastVersion ?? ''}`)
    .sort()
    .join(',');
  return loaded(views(context), `${content.point.id}|${stamps}`, () => {
    const expansions = new Map<string, GeneratedPage>();
    for (const page of computed) {
      const spec = specs.get(page.computed.dependencies.spec.ref.spec);
      if (spec) expansions.set(page.pageId, generatePages(page, page.computed, spec));
    }
    return Promise.resolve({ key: stamps, expansions });
  });
}

/** A page the reader shows: one of the revision's, or one a computed page made (the computed page's own included). */
export type ShownPage =
  | { kind: 'page'; page: PageState }
  | { kind: 'generated'; origin: PageState; generated: GeneratedPage; path: string };

/**
 * The page at a path: the revision's page there, shown as what it makes when
 * it is a computed page, or a page a computed page made, one segment below it.
 */
export function shownPageAt(tree: ContentTree, view: ComputedView | undefined, path: string): ShownPage | undefined {
  const page = tree.pageAtPath(path);
  if (page) return shownPage(page, view, tree);
  const cut = path.lastIndexOf('/');
  if (cut < 0 || !view) return undefined;
  const origin = tree.pageAtPath(path.slice(0, cut));
  const root = origin && view.expansions.get(origin.pageId);
  const generated = root?.children.find((child) => child.slug === path.slice(cut + 1));
  return origin && generated ? { kind: 'generated', origin, generated, path } : undefined;
}

/** A revision's page as shown: what it makes when it is a computed page with a processed spec. */
export function shownPage(page: PageState, view: ComputedView | undefined, tree: ContentTree): ShownPage {
  const root = view?.expansions.get(page.pageId);
  return root
    ? { kind: 'generated', origin: page, generated: root, path: tree.pathOf(page.pageId) }
    : { kind: 'page', page };
}

/** The pages a computed page made below itself, with their paths, for the navigation. */
export function generatedChildren(
  view: ComputedView | undefined,
  tree: ContentTree,
  page: PageState,
): Array<{ generated: GeneratedPage; path: string }> {
  const root = view?.expansions.get(page.pageId);
  if (!root) return [];
  const base = tree.pathOf(page.pageId);
  return root.children.map((generated) => ({ generated, path: `${base}/${generated.slug}` }));
}
