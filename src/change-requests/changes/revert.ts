import { sql } from 'kysely';
import { BadRequestError, ConflictError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { findRevision, type RevisionPoint } from '../../content/state.js';
import type { ContentTree, PageState } from '../../content/tree.js';
import type { Context } from '../../context.js';
import type { ContentChange } from '../schemas.js';

/** The trees `revert_page` changes go back to, read before the batch is applied. */
export interface RevertSources {
  /** The tree of the revision each `revert_page` change names (its base by default), by the change's index. */
  trees: Map<number, ContentTree>;
  /**
   * The change request's base, where a change goes back to it on a line of
   * the change request's own: a page back in its base state is no longer a
   * change of the change request (its entry ends, none replaces it), so a
   * merge leaves the space's version of it alone.
   */
  base: ContentTree | undefined;
  /** Pages a change brought back to the base, filled in as the batch is applied. */
  revertedToBase: Set<string>;
}

/** The revision a change request's line starts from: the space's at its base seq (`point` itself on the space's line). */
async function baseRevisionId(tx: Db, point: RevisionPoint): Promise<string> {
  if (point.changeRequestId === null) return point.id;
  const row = await tx
    .selectFrom('revisions')
    .select('id')
    .where('organization_id', '=', point.organizationId)
    .where('space_id', '=', point.spaceId)
    .where(sql<boolean>`change_request_id is null`)
    .where('seq', '=', point.baseSeq)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Reads the tree of every revision the batch's `revert_page` changes go back
 * to, inside the write's transaction: the base is the one of the line being
 * written. A revision must be one of this space's, on its line or a change
 * request's.
 */
export async function loadRevertSources(
  context: Context,
  tx: Db,
  point: RevisionPoint,
  changes: readonly ContentChange[],
): Promise<RevertSources> {
  const sources: RevertSources = { trees: new Map(), base: undefined, revertedToBase: new Set() };
  const reverts = [...changes.entries()].filter(([, change]) => change.operation === 'revert_page');
  if (reverts.length === 0) return sources;
  const baseId = await baseRevisionId(tx, point);
  const points = new Map<string, RevisionPoint>();
  for (const [index, change] of reverts) {
    if (change.operation !== 'revert_page') continue;
    if (change.block !== undefined)
      throw new BadRequestError(
        `body/changes/${index}/block: single blocks cannot be reverted here; leave out block to revert the whole page`,
      );
    const revisionId = change.revision ?? baseId;
    let target = points.get(revisionId);
    if (!target) {
      const found = await findRevision(tx, point.spaceId, revisionId);
      if (!found) throw new BadRequestError(`body/changes/${index}/revision: no revision ${revisionId} in this space`);
      target = { ...found, organizationId: point.organizationId };
      points.set(revisionId, target);
    }
    const tree = await context.content.tree(target, tx);
    sources.trees.set(index, tree);
    // On the space's line, or a change request with no revision of its own yet, the base is the tree itself.
    if (revisionId === baseId && point.changeRequestId !== null) sources.base = tree;
  }
  return sources;
}

/** One page a revert changed: back in the tree with the state it had, or removed. */
export interface RevertedPage {
  pageId: string;
  removed: boolean;
}

/**
 * Brings `pageId` back to its state in `source` (GitBook's revert_page
 * without `block`), in `tree`: a page absent from it is removed with the
 * pages under it; a page absent from `tree` is restored with the pages under
 * it that went with it; any other page gets back its content, metadata and
 * place. A page already as it was there is left alone. What the revert would
 * break is a conflict, and nothing is changed: a parent that is not there,
 * a page under itself, a slug a sibling has taken, a page removed with one
 * that was there in that revision.
 */
export function revertPage(
  tree: ContentTree,
  start: ContentTree,
  pageId: string,
  source: ContentTree,
  field: string,
): RevertedPage[] {
  const wanted = source.pages.get(pageId);
  const current = tree.pages.get(pageId);
  if (!wanted && !current)
    throw new BadRequestError(`${field}/page: no page ${pageId} in this change request or in the revision`);

  if (!wanted) {
    const removed = tree.subtreeOf(pageId);
    const kept = removed.find((page) => page.pageId !== pageId && source.pages.has(page.pageId));
    if (kept)
      throw new ConflictError(
        `${field}/page: page ${kept.pageId} under it was there in the revision; move or revert it first`,
      );
    for (const page of removed) tree.deletePage(page.pageId);
    return removed.map((page) => ({ pageId: page.pageId, removed: true }));
  }

  // Unchanged in this batch and already holding that version: nothing to do.
  if (current && current === start.pages.get(pageId) && current.versionId === wanted.versionId) return [];

  const restored = current
    ? [wanted]
    : source.subtreeOf(pageId).filter((page) => page.pageId === pageId || !tree.pages.has(page.pageId));
  for (const page of restored) {
    checkPlace(tree, page, field);
    tree.setPage(page);
  }
  return restored.map((page) => ({ pageId: page.pageId, removed: false }));
}

/** Whether `page` can go back where it was: its parent is there, it does not go under itself, its slug is free. */
function checkPlace(tree: ContentTree, page: PageState, field: string): void {
  const { parentId } = page;
  if (parentId !== null) {
    const parent = tree.pages.get(parentId);
    if (!parent)
      throw new ConflictError(
        `${field}/page: page ${page.pageId} was under page ${parentId}, which is not in this change request; revert that page first`,
      );
    if (tree.isWithin(parentId, page.pageId))
      throw new ConflictError(`${field}/page: page ${page.pageId} would go under one of its own subpages`);
  }
  const clash = tree
    .childrenOf(parentId)
    .find((sibling) => sibling.pageId !== page.pageId && sibling.slug === page.slug);
  if (clash) throw new ConflictError(`${field}/page: "${page.slug}" is now the slug of page ${clash.pageId} beside it`);
}

/**
 * Whether a page the batch touched ends it as its base has it, brought back
 * there by a revert: then the change request's line holds no entry of its own
 * for it.
 */
export function isBackToBase(sources: RevertSources, pageId: string, page: PageState | undefined): boolean {
  if (!sources.base || !sources.revertedToBase.has(pageId)) return false;
  return page ? sources.base.pages.get(pageId) === page : !sources.base.pages.has(pageId);
}
