import { newId } from '../../core/ids.js';
import { NotFoundError } from '../../core/errors.js';
import { findSpaceAsMember } from '../../access/spaces.js';
import type { SpaceWithAccess } from '../../access/space-queries.js';
import { changeRequestIn } from '../../content/change-request-access.js';
import { presentChangeRequest } from '../../content/change-request-present.js';
import { findChangeRequest } from '../../content/change-request-queries.js';
import { loadDocuments, storeMissingDocument, type RevisionPoint } from '../../content/state.js';
import { perContext, type Context } from '../../context.js';
import { emailVisibilityFor } from '../../users/user-queries.js';
import { diffOffThread } from './pool.js';
import { presentPageDiff, presentSemanticChanges } from './present.js';
import { findPageDiff, findRevisionDiff, insertRevisionDiff, spaceRevisionIdAt, type RevisionPair } from './queries.js';
import { MAX_PAGE_DIFF_CHARACTERS, type PageDiff } from './revision-diff.js';
import type { RevisionSide, StoredChange, StoredFile } from './semantic.js';

/**
 * Characters of documents one diff sends to its worker at most: a change
 * request rewriting thousands of long pages is still diffed, its pages past
 * this bound named as changed with their block diffs too large to show.
 */
const MAX_DIFF_CHARACTERS = 64 * 1024 * 1024;

/** Two revisions to compare, once the caller may read the space's unpublished side. */
interface Comparison {
  space: SpaceWithAccess;
  pair: RevisionPair;
  before: RevisionPoint | null;
  after: RevisionPoint;
}

async function revisionIn(context: Context, space: SpaceWithAccess, revisionId: string): Promise<RevisionPoint> {
  const point = await context.content.revision(space.id, space.organization_id, revisionId);
  if (!point) throw new NotFoundError('No revision with this id in the space');
  return point;
}

/**
 * A change request's changes: from its base (the space's revision its
 * current one builds on: where it was opened, or where it was last updated
 * from the space) to its current revision. Members only, as its content is.
 */
async function changeRequestComparison(
  context: Context,
  userId: string,
  target: { spaceId: string; changeRequestId: string },
): Promise<Comparison> {
  const { space } = await findSpaceAsMember(context, target.spaceId, userId);
  const changeRequest = await changeRequestIn(context, space.id, target.changeRequestId);
  return comparisonOfChangeRequest(context, space, changeRequest);
}

/** A change request's base and current revision, for a caller already allowed to read it. */
async function comparisonOfChangeRequest(
  context: Context,
  space: SpaceWithAccess,
  changeRequest: { id: string; revision_id: string },
): Promise<Comparison> {
  const after = await revisionIn(context, space, changeRequest.revision_id);
  const baseId = await spaceRevisionIdAt(context.db, space.organization_id, space.id, after.baseSeq);
  if (!baseId) throw new Error(`Change request ${changeRequest.id} builds on a missing revision`);
  const before = await revisionIn(context, space, baseId);
  return { space, before, after, pair: pairOf(space, before, after) };
}

/**
 * A revision's changes: from its parent (the revision it was made from) to
 * it. Members only: they show what older revisions held, which visitors of
 * the published side never see.
 */
async function revisionComparison(
  context: Context,
  userId: string,
  target: { spaceId: string; revisionId: string },
): Promise<Comparison> {
  const { space } = await findSpaceAsMember(context, target.spaceId, userId);
  const after = await revisionIn(context, space, target.revisionId);
  const parent = after.parents[0];
  const before = parent === undefined ? null : await revisionIn(context, space, parent);
  return { space, before, after, pair: pairOf(space, before, after) };
}

const pairOf = (space: SpaceWithAccess, before: RevisionPoint | null, after: RevisionPoint): RevisionPair => ({
  organizationId: space.organization_id,
  spaceId: space.id,
  from: before?.id ?? null,
  to: after.id,
});

const EMPTY_SIDE: RevisionSide = { pages: [], files: [], variables: {}, reusableContents: [] };

async function sideOf(context: Context, point: RevisionPoint | null): Promise<RevisionSide> {
  if (!point) return EMPTY_SIDE;
  const [tree, reusableContents] = await Promise.all([
    context.content.tree(point),
    context.content.reusableContents(point),
  ]);
  return {
    pages: [...tree.pages.values()],
    files: [...tree.files.values()],
    variables: point.variables,
    reusableContents: [...reusableContents.values()],
  };
}

/** The documents of pages whose content differs between the sides: those the worker diffs. */
function changedDocuments(before: RevisionSide, after: RevisionSide): string[] {
  const old = new Map(before.pages.map((page) => [page.pageId, page.documentId]));
  const ids = new Set<string>();
  for (const page of after.pages) {
    const was = old.get(page.pageId) ?? null;
    if (was === page.documentId) continue;
    if (was) ids.add(was);
    if (page.documentId) ids.add(page.documentId);
  }
  const kept = new Set(after.pages.map((page) => page.pageId));
  for (const page of before.pages) if (!kept.has(page.pageId) && page.documentId) ids.add(page.documentId);
  return [...ids];
}

/** The JSON text of each document, within the diff's bound; those past it are left out, to be named too large. */
async function documentTexts(context: Context, organizationId: string, ids: readonly string[]) {
  const texts: Record<string, string> = {};
  const tooLarge: string[] = [];
  let characters = 0;
  for (const [id, stored] of await loadDocuments(context.db, organizationId, ids)) {
    let json = stored.documentJson;
    if (json === null) {
      json = await context.conversions.toDocumentJson(stored.markdown ?? '', `the markdown of document ${id}`);
      await storeMissingDocument(context.db, organizationId, id, json);
    }
    if (json.length > MAX_PAGE_DIFF_CHARACTERS || characters + json.length > MAX_DIFF_CHARACTERS) {
      tooLarge.push(id);
      continue;
    }
    characters += json.length;
    texts[id] = json;
  }
  return { texts, tooLarge, characters };
}

type StoredDiff = { id: string; changes: StoredChange[] };

/**
 * First computations under way in an instance, by pair, so that readers of a
 * pair at once wait for one computation. Keyed by the app's context: each app
 * built has its own.
 */
const computing = perContext(() => new Map<string, Promise<StoredDiff>>());

/**
 * The pair's diff as stored: read back when it was computed before, else
 * computed on the diff pool and stored. Readers in one instance share one
 * computation; two instances computing a pair at once both may, and the first
 * to store it wins while the other reads it back.
 */
async function storedDiff(context: Context, comparison: Comparison): Promise<StoredDiff> {
  const found = await findRevisionDiff(context.db, comparison.pair);
  if (found) return found;
  const { organizationId, spaceId, from, to } = comparison.pair;
  const key = `${organizationId}|${spaceId}|${from ?? ''}|${to}`;
  const running = computing(context);
  const underway = running.get(key);
  if (underway) return underway;
  const computation = computeAndStore(context, comparison).finally(() => running.delete(key));
  running.set(key, computation);
  return computation;
}

async function computeAndStore(context: Context, comparison: Comparison): Promise<StoredDiff> {
  const { pair } = comparison;
  const [before, after] = await Promise.all([sideOf(context, comparison.before), sideOf(context, comparison.after)]);
  const documents = await documentTexts(context, pair.organizationId, changedDocuments(before, after));
  const diff = await diffOffThread(
    context.revisionDiffs,
    { before, after, documents: documents.texts, tooLarge: documents.tooLarge },
    documents.characters,
  );
  const id = newId();
  const stored = await context.db
    .transaction()
    .execute((tx) => insertRevisionDiff(tx, pair, { id, changes: diff.changes, pages: diff.pages }));
  if (stored) return { id, changes: diff.changes };
  const theirs = await findRevisionDiff(context.db, pair);
  if (!theirs) throw new Error('A revision diff stored by another request is gone');
  return theirs;
}

async function semanticChangesOf(context: Context, userId: string, comparison: Comparison, limit: number) {
  const { changes } = await storedDiff(context, comparison);
  const now = context.clock.now();
  const downloadUrl = (file: StoredFile) => context.fileUrls.sign(file.versionId, file.name, now);
  let mergedFrom: object | undefined;
  const { after, space } = comparison;
  if (after.type === 'merge' && after.mergedFrom && after.changeRequestId === null) {
    const changeRequest = await findChangeRequest(context.db, space.id, after.mergedFrom);
    if (changeRequest) {
      const emails = await emailVisibilityFor(context.db, userId, [changeRequest.author_id], space.organization_id);
      mergedFrom = presentChangeRequest(changeRequest, context.urls, emails);
    }
  }
  return presentSemanticChanges(changes, limit, downloadUrl, mergedFrom);
}

/** getChangeRequestChanges: what a change request changes over its base. */
export async function readChangeRequestChanges(
  context: Context,
  userId: string,
  target: { spaceId: string; changeRequestId: string },
  limit: number,
) {
  return semanticChangesOf(context, userId, await changeRequestComparison(context, userId, target), limit);
}

/** getRevisionSemanticChanges: what a revision changed over its parent. */
export async function readRevisionChanges(
  context: Context,
  userId: string,
  target: { spaceId: string; revisionId: string },
  limit: number,
) {
  return semanticChangesOf(context, userId, await revisionComparison(context, userId, target), limit);
}

/** A page's block diff in a comparison; 404 for a page on neither side. */
async function pageDiffOf(context: Context, comparison: Comparison, pageId: string) {
  const { id } = await storedDiff(context, comparison);
  const [before, after] = await Promise.all([
    comparison.before ? context.content.tree(comparison.before) : undefined,
    context.content.tree(comparison.after),
  ]);
  if (!before?.pages.has(pageId) && !after.pages.has(pageId))
    throw new NotFoundError('No page with this id in either revision compared');
  const diff = await findPageDiff(context.db, comparison.pair.organizationId, id, pageId);
  return presentPageDiff(pageId, comparison.pair, diff);
}

/** A page of a change request diffed block by block against the change request's base. */
export async function readChangeRequestPageDiff(
  context: Context,
  userId: string,
  target: { spaceId: string; changeRequestId: string; pageId: string },
) {
  return pageDiffOf(context, await changeRequestComparison(context, userId, target), target.pageId);
}

/** A page of a revision diffed block by block against the revision's parent. */
export async function readRevisionPageDiff(
  context: Context,
  userId: string,
  target: { spaceId: string; revisionId: string; pageId: string },
) {
  return pageDiffOf(context, await revisionComparison(context, userId, target), target.pageId);
}

/**
 * A page of a change request diffed block by block against its base, for the
 * app reader, whose caller already may read the change request; undefined
 * when the change request did not change the page's document.
 */
export async function changeRequestPageChanges(
  context: Context,
  space: SpaceWithAccess,
  changeRequest: { id: string; revision_id: string },
  pageId: string,
): Promise<PageDiff | undefined> {
  const comparison = await comparisonOfChangeRequest(context, space, changeRequest);
  const { id } = await storedDiff(context, comparison);
  const stored = await findPageDiff(context.db, space.organization_id, id, pageId);
  // One page's diff, bounded by MAX_PAGE_DIFF_CHARACTERS.
  return stored === undefined ? undefined : (JSON.parse(stored) as PageDiff);
}
