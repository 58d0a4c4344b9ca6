import { BadRequestError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { findRevision } from '../../content/state.js';
import type { ContentTree, PageState } from '../../content/tree.js';
import type { Context } from '../../context.js';
import type { ContentChange, InsertPage, LinkTarget, UpdatePage } from '../schemas.js';
import type { BatchRefs } from './links.js';

// Group and link pages, as GitBook's RevisionPageGroup and RevisionPageLink
// have them. A group gathers pages at the top level of the tree: it has a
// title, a slug and subpages, no content of its own, and no group above it.
// A link page is an entry of the navigation that leads somewhere (its target,
// a ContentRef): no content, no subpages, and no slug or path to be found by.

/** The fields each kind of page is written without, beside a document with content. */
const FIELDS_NOT_OF = {
  group: ['description'],
  link: ['slug', 'description', 'noIndex', 'noRobotsIndex'],
} as const;

type PageChange = InsertPage | UpdatePage;

const hasContent = (document: PageChange['document']) => document !== undefined && Object.keys(document).length > 0;

function refuseFieldsNotOf(kind: 'group' | 'link', change: PageChange, field: string): void {
  for (const name of FIELDS_NOT_OF[kind]) {
    if (change[name] !== undefined) throw new BadRequestError(`${field}/${name}: a ${kind} page has none`);
  }
  if (hasContent(change.document))
    throw new BadRequestError(
      `${field}/document: a ${kind} page has no document; its content is its subpages or target`,
    );
}

/** A target as stored: refs of the batch turned into the ids they stand for. */
function resolvedTarget(target: LinkTarget, refs: BatchRefs): LinkTarget {
  if (target.kind === 'page' || target.kind === 'anchor') {
    return target.space === undefined ? { ...target, page: refs.pages.get(target.page) ?? target.page } : target;
  }
  if (target.kind === 'file') {
    return target.space === undefined ? { ...target, file: refs.files.get(target.file) ?? target.file } : target;
  }
  return target;
}

/** Checks a target in this space against the tree (as the batch has left it so far, and its refs). */
function checkTargetInTree(tree: ContentTree, refs: BatchRefs, pageId: string, target: LinkTarget, field: string) {
  if ((target.kind === 'page' || target.kind === 'anchor') && target.space === undefined) {
    if (target.page === pageId) throw new BadRequestError(`${field}/target/page: a link page cannot lead to itself`);
    const inBatch = [...refs.pages.values()].includes(target.page);
    if (!tree.pages.has(target.page) && !inBatch)
      throw new BadRequestError(`${field}/target/page: no page ${target.page} in this change request`);
  }
  if (target.kind === 'file' && target.space === undefined) {
    const inBatch = [...refs.files.values()].includes(target.file);
    if (!tree.files.has(target.file) && !inBatch)
      throw new BadRequestError(`${field}/target/file: no file ${target.file} in this change request`);
  }
}

/**
 * The kind an `insert_page` makes where it is a group or a link (undefined
 * for a document or computed page), with the link's target; refuses what
 * that kind of page cannot have or where it cannot go.
 */
export function insertedKind(
  tree: ContentTree,
  refs: BatchRefs,
  pageId: string,
  change: InsertPage,
  parentId: string | null,
  field: string,
): { type: 'group' | 'link'; target: LinkTarget | null } | undefined {
  if (change.type !== 'group' && change.type !== 'link') {
    if (change.target !== undefined) throw new BadRequestError(`${field}/target goes with type link`);
    return undefined;
  }
  refuseFieldsNotOf(change.type, change, field);
  if (change.type === 'group') {
    if (change.target !== undefined) throw new BadRequestError(`${field}/target goes with type link`);
    if (parentId !== null) throw new BadRequestError(`${field}/into: a group page goes at the top level`);
    return { type: 'group', target: null };
  }
  if (change.target === undefined) throw new BadRequestError(`${field}/target is required for a page of type link`);
  const target = resolvedTarget(change.target, refs);
  checkTargetInTree(tree, refs, pageId, target, field);
  return { type: 'link', target };
}

/**
 * What an `update_page` may do to a group or link page (and that only a link
 * has a target): the page as changed so far, with the new target if any.
 */
export function updatedKind(
  tree: ContentTree,
  refs: BatchRefs,
  page: PageState,
  change: UpdatePage,
  into: string | null | undefined,
  field: string,
): PageState {
  if (page.type !== 'link' && change.target !== undefined)
    throw new BadRequestError(`${field}/target: only a link page has a target; page ${change.page} is not one`);
  if (page.type !== 'group' && page.type !== 'link') return page;
  refuseFieldsNotOf(page.type, change, field);
  if (page.type === 'group' && into !== undefined && into !== null)
    throw new BadRequestError(`${field}/into: a group page stays at the top level`);
  if (change.target === undefined) return page;
  const target = resolvedTarget(change.target, refs);
  checkTargetInTree(tree, refs, page.pageId, target, field);
  return { ...page, target };
}

/** Refuses a parent that cannot have subpages. */
export function checkParentKind(parent: PageState, field: string): void {
  if (parent.type === 'link')
    throw new BadRequestError(`${field}/into: page ${parent.pageId} is a link page; it has no subpages`);
}

/**
 * Checks, once the whole batch is applied, that the link pages it wrote (or
 * brought back with a revert) lead to pages and files of this space that are
 * there: a later change of the batch may have deleted them. Links written
 * before keep their targets as they are, broken or not, as links in documents do.
 */
export function checkLinkPages(tree: ContentTree, touched: Iterable<string>): void {
  for (const pageId of touched) {
    const page = tree.pages.get(pageId);
    const target = page?.type === 'link' ? (page.target as LinkTarget | null) : null;
    if (!page || !target) continue;
    if ((target.kind === 'page' || target.kind === 'anchor') && !target.space && !tree.pages.has(target.page))
      throw new BadRequestError(`body/changes: link page ${pageId} leads to page ${target.page}, which is not there`);
    if (target.kind === 'file' && !target.space && !tree.files.has(target.file))
      throw new BadRequestError(`body/changes: link page ${pageId} leads to file ${target.file}, which is not there`);
  }
}

/** A link target's own space named as another one: the same space said plainly (a duplicate then keeps it inside itself). */
function withoutOwnSpace(target: LinkTarget, spaceId: string): LinkTarget {
  if (target.kind === 'space' || target.kind === 'collection' || target.kind === 'url') return target;
  if (target.space !== spaceId) return target;
  const { space: _own, ...rest } = target;
  return rest;
}

/** The batch with link targets that name this space as their space written without it. */
export function normalizeLinkTargets(changes: readonly ContentChange[], spaceId: string): ContentChange[] {
  return changes.map((change) =>
    (change.operation === 'insert_page' || change.operation === 'update_page') && change.target
      ? { ...change, target: withoutOwnSpace(change.target, spaceId) }
      : change,
  );
}

/**
 * Checks the targets of the batch's link pages that lie outside this space:
 * a space or collection of the organization (not deleted), and a page, file
 * or anchor's page in the current content of that space. One query per kind,
 * and one tree per other space named (read through the content cache).
 */
export async function checkOutsideTargets(
  context: Context,
  tx: Db,
  organizationId: string,
  changes: readonly ContentChange[],
): Promise<void> {
  const targets = changes.flatMap((change, index) =>
    (change.operation === 'insert_page' || change.operation === 'update_page') && change.target
      ? [{ target: change.target, field: `body/changes/${index}/target` }]
      : [],
  );
  const spaceIds = [
    ...new Set(targets.flatMap(({ target }) => ('space' in target && target.space ? [target.space] : []))),
  ];
  const collectionIds = [
    ...new Set(targets.flatMap(({ target }) => (target.kind === 'collection' ? [target.collection] : []))),
  ];
  const spaces =
    spaceIds.length === 0
      ? []
      : await tx
          .selectFrom('spaces')
          .select(['id', 'revision_id'])
          .where('organization_id', '=', organizationId)
          .where('id', 'in', spaceIds)
          .where('deleted_at', 'is', null)
          .execute();
  const collections =
    collectionIds.length === 0
      ? []
      : await tx
          .selectFrom('collections')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('id', 'in', collectionIds)
          .execute();
  const revisionOf = new Map(spaces.map((space) => [space.id, space.revision_id]));
  const knownCollections = new Set(collections.map((collection) => collection.id));
  const trees = new Map<string, ContentTree>();
  const treeOf = async (spaceId: string) => {
    let tree = trees.get(spaceId);
    if (!tree) {
      // Read in the write's transaction: it holds its connection, and must not wait for a second one.
      const point = await findRevision(tx, spaceId, revisionOf.get(spaceId)!);
      if (!point) throw new Error(`Space ${spaceId} points at a missing revision`);
      tree = await context.content.tree({ ...point, organizationId }, tx);
      trees.set(spaceId, tree);
    }
    return tree;
  };

  for (const { target, field } of targets) {
    if (target.kind === 'collection') {
      if (!knownCollections.has(target.collection))
        throw new BadRequestError(`${field}/collection: no collection ${target.collection} in this organization`);
      continue;
    }
    if (target.kind === 'url' || target.space === undefined) continue;
    if (!revisionOf.has(target.space))
      throw new BadRequestError(`${field}/space: no space ${target.space} in this organization`);
    if (target.kind === 'page' || target.kind === 'anchor') {
      if (!(await treeOf(target.space)).pages.has(target.page))
        throw new BadRequestError(`${field}/page: no page ${target.page} in space ${target.space}`);
    } else if (target.kind === 'file') {
      if (!(await treeOf(target.space)).files.has(target.file))
        throw new BadRequestError(`${field}/file: no file ${target.file} in space ${target.space}`);
    }
  }
}
