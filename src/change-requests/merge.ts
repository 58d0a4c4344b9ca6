import { newId } from '../core/ids.js';
import type { Db } from '../db/database.js';
import type { ChangeRequestStatus, VariableValues } from '../db/types.js';
import { lockSpaceThenChangeRequest } from '../content/write-locks.js';
import { moveStatusCounters } from '../content/change-request-queries.js';
import { findRevision, type RevisionPoint } from '../content/state.js';
import type { ContentTree } from '../content/tree.js';
import { keepOldAddresses } from '../content/path-history/record.js';
import type { Context } from '../context.js';
import { advanceSpaceLine, insertRevision, type EntryChange } from './changes/persist.js';
import type { MergeOrigin } from './merge-hooks.js';
import { refuseUnmetRules, unmetRulesFor } from './merge-check.js';
import { requireWorkable } from './changes/write.js';
import {
  changeRequestEntries,
  itemsChangedInSpaceSince,
  markChangeRequestMerged,
  setSpaceRevision,
  spaceRevisionVariablesAt,
} from './queries.js';

export type MergeOutcome = { result: 'merge'; revision: string } | { result: 'conflicts'; revision: string };

/** The change request's own entries: what it changed over its base. */
export async function ownEntries(tx: Db, changeRequestId: string): Promise<EntryChange[]> {
  const rows = await changeRequestEntries(tx, changeRequestId);
  return rows.map((row) => ({ kind: row.kind, itemId: row.item_id, versionId: row.version_id }));
}

/** Of `entries`, the items the space's line changed after `baseSeq`. */
export async function changedInSpaceSince(
  tx: Db,
  spaceId: string,
  baseSeq: number,
  entries: readonly EntryChange[],
): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const items = { kinds: entries.map((e) => e.kind), itemIds: entries.map((e) => e.itemId) };
  const rows = await itemsChangedInSpaceSince(tx, spaceId, baseSeq, items);
  return new Set(rows.map((row) => `${row.kind}:${row.item_id}`));
}

/**
 * Whether a merged tree is whole: every page's parent is in it, no page is
 * its own ancestor, and no two siblings share a slug. Changes to different
 * pages can still clash like this (one side deletes a page, the other adds a
 * child to it).
 */
export function treeIsWhole(tree: ContentTree): boolean {
  for (const page of tree.pages.values()) {
    if (page.parentId !== null && !tree.pages.has(page.parentId)) return false;
    const seen = new Set<string>();
    for (
      let current: string | null = page.parentId;
      current !== null;
      current = tree.pages.get(current)?.parentId ?? null
    ) {
      if (current === page.pageId || seen.has(current)) return false;
      seen.add(current);
    }
  }
  const slugs = new Set<string>();
  for (const page of tree.pages.values()) {
    const key = `${page.parentId ?? ''}/${page.slug}`;
    if (slugs.has(key)) return false;
    slugs.add(key);
  }
  return true;
}

/** The head's tree with the change request's entries laid over it: what a merge (or an update) makes. */
export function mergedTree(
  head: ContentTree,
  changeRequest: ContentTree,
  entries: readonly EntryChange[],
): ContentTree {
  const merged = head.copy();
  for (const entry of entries) {
    if (entry.kind === 'page') {
      const page = changeRequest.pages.get(entry.itemId);
      if (page) merged.setPage(page);
      else merged.deletePage(entry.itemId);
    } else if (entry.kind === 'file') {
      const file = changeRequest.files.get(entry.itemId);
      if (file) merged.setFile(file);
    }
    // Reusable contents are not in the tree: the merged revision's are read from its entries.
  }
  return merged;
}

/**
 * The space's variables where a change request's changes land on a newer
 * revision of the space (a merge, an update): per name, the side that changed it
 * since the base wins; changed on both sides to different values (or removed
 * on one side and changed on the other) is a conflict, and then null.
 */
export function rebasedVariables(
  base: VariableValues,
  ours: VariableValues,
  head: VariableValues,
): VariableValues | null {
  const result: VariableValues = {};
  for (const name of new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(head)])) {
    const [was, mine, theirs] = [base[name], ours[name], head[name]];
    let value: VariableValues[string] | undefined;
    if (mine === was) value = theirs;
    else if (theirs === was || theirs === mine) value = mine;
    else return null;
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/**
 * Merges a change request into its space: a new space revision holding the
 * change request's changes. A page or file changed on both sides since the
 * change request's base, or a tree the two sides leave broken, is a conflict,
 * and then nothing is written.
 */
/**
 * Locks the space's row (`spaceLock`), then the change request's for update,
 * in the one order every writer of both follows, and reads the revisions both
 * point at: the space's head and the change request's own. A merged or
 * archived change request is refused.
 */
export async function lockBothSides(
  tx: Db,
  target: { spaceId: string; changeRequestId: string },
  spaceLock: 'update' | 'key-share',
): Promise<{ head: RevisionPoint; ours: RevisionPoint; status: ChangeRequestStatus }> {
  const { space, changeRequest } = await lockSpaceThenChangeRequest(
    tx,
    target.spaceId,
    target.changeRequestId,
    spaceLock,
    ['revision_id'],
  );
  requireWorkable(changeRequest.status);
  const [head, ours] = await Promise.all([
    findRevision(tx, target.spaceId, space.revision_id),
    findRevision(tx, target.spaceId, changeRequest.revision_id),
  ]);
  if (!head || !ours) throw new Error(`Space ${target.spaceId} or its change request points at a missing revision`);
  return { head, ours, status: changeRequest.status };
}

export async function mergeIntoSpace(
  context: Context,
  target: { organizationId: string; spaceId: string; changeRequestId: string; userId: string; origin?: MergeOrigin },
): Promise<MergeOutcome> {
  const place = { organizationId: target.organizationId, spaceId: target.spaceId };
  const outcome = await context.db.transaction().execute(async (tx) => {
    // Merges into one space go one at a time: each builds on the revision the previous one made.
    const { head, ours, status } = await lockBothSides(tx, target, 'update');
    // Read under the locks, so that no write or review lands between the check and the merge. Git
    // Sync's merges bring in what was merged in Git, where the repository's own rules applied.
    if (target.origin !== 'git-sync') refuseUnmetRules(await unmetRulesFor(context, tx, target));

    const entries = ours.changeRequestId === null ? [] : await ownEntries(tx, target.changeRequestId);
    const conflicting =
      ours.baseSeq < head.seq
        ? await changedInSpaceSince(tx, target.spaceId, ours.baseSeq, entries)
        : new Set<string>();
    const [headTree, ourTree, baseVariables] = await Promise.all([
      context.content.tree(head, tx),
      context.content.tree(ours, tx),
      ours.baseSeq < head.seq ? spaceRevisionVariablesAt(tx, target.spaceId, ours.baseSeq) : head.variables,
    ]);
    const merged = mergedTree(headTree, ourTree, entries);
    // Space variables changed since the base are kept, as the space's newer pages are.
    const variables = rebasedVariables(baseVariables, ours.variables, head.variables);
    if (conflicting.size > 0 || variables === null || !treeIsWhole(merged))
      return { result: 'conflicts' as const, revision: head.id };

    const now = context.clock.now();
    const revision = await writeMergeRevision(tx, place, { head, ours, variables }, target, now);
    await advanceSpaceLine(tx, place, head.seq + 1, entries);
    await keepOldAddresses(tx, place, head.seq + 1, { before: headTree, after: merged }, entries);
    await setSpaceRevision(tx, target.spaceId, revision, now);
    await markChangeRequestMerged(tx, target.changeRequestId, revision, now);
    await moveStatusCounters(tx, target.spaceId, status, 'merged');
    const merge = { ...place, changeRequestId: target.changeRequestId, revisionId: revision, userId: target.userId };
    for (const hook of context.mergeHooks ?? []) await hook(tx, { ...merge, origin: target.origin ?? 'user' });
    return { result: 'merge' as const, revision, merged };
  });
  if (outcome.result === 'merge') context.content.remember(outcome.revision, outcome.merged);
  return { result: outcome.result, revision: outcome.revision };
}

async function writeMergeRevision(
  tx: Db,
  place: { organizationId: string; spaceId: string },
  { head, ours, variables }: { head: RevisionPoint; ours: RevisionPoint; variables: VariableValues },
  target: { changeRequestId: string; userId: string },
  now: Date,
): Promise<string> {
  const id = newId();
  await insertRevision(tx, {
    id,
    organization_id: place.organizationId,
    space_id: place.spaceId,
    change_request_id: null,
    seq: head.seq + 1,
    base_seq: null,
    type: 'merge',
    parents: ours.id === head.id ? [head.id] : [head.id, ours.id],
    variables: JSON.stringify(variables),
    merged_from: target.changeRequestId,
    created_by: target.userId,
    created_at: now,
  });
  return id;
}
