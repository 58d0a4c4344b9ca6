import type { ContentTree } from '../tree.js';

/** What a write of the space's line did to its pages' addresses. */
export interface PathMoves {
  /** Each path a page left, with the page: only paths no page of the new tree holds. */
  left: Array<{ path: string; pageId: string }>;
  /** Paths pages now hold that they did not before: whatever history they had is over. */
  taken: string[];
  /** Pages the write removed: their old paths lead nowhere any more. */
  deleted: string[];
}

/** Link pages have no address (ContentTree.pageAtPath). */
const addressed = (tree: ContentTree, pageId: string) => {
  const page = tree.pages.get(pageId);
  return page !== undefined && page.type !== 'link';
};

/**
 * The addresses a write moved, from the trees before and after it and the
 * pages it changed: a page's path changes only with its own slug or parent or
 * an ancestor's, so only the changed pages and what lies under them are walked.
 */
export function pathMoves(before: ContentTree, after: ContentTree, changedPageIds: Iterable<string>): PathMoves {
  const left = new Map<string, string>();
  const taken = new Set<string>();
  const deleted: string[] = [];
  const walked = new Set<string>();
  for (const changedId of changedPageIds) {
    if (!after.pages.has(changedId)) {
      if (before.pages.has(changedId)) deleted.push(changedId);
      continue;
    }
    // Walked under a changed ancestor already, with everything under it.
    if (walked.has(changedId)) continue;
    for (const page of after.subtreeOf(changedId)) {
      if (walked.has(page.pageId)) continue;
      walked.add(page.pageId);
      if (!addressed(after, page.pageId)) continue;
      const now = after.pathOf(page.pageId);
      const was = addressed(before, page.pageId) ? before.pathOf(page.pageId) : undefined;
      if (was === now) continue;
      taken.add(now);
      if (was !== undefined) left.set(was, page.pageId);
    }
  }
  for (const path of left.keys()) if (taken.has(path) || after.pageAtPath(path)) left.delete(path);
  return { left: [...left].map(([path, pageId]) => ({ path, pageId })), taken: [...taken], deleted };
}
