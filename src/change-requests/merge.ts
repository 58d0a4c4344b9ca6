import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { newId } from '../core/ids.js';
import type { Db } from '../db/database.js';
import { findRevision, type RevisionPoint } from '../model/content/state.js';
import type { ContentTree } from '../model/content/tree.js';
import { advanceLine, type EntryChange } from './changes/persist.js';
import { requireWorkable } from './changes/write.js';
import { lockChangeRequest, moveStatusCounters } from '../model/change-requests/queries.js';

export type MergeOutcome = { result: 'merge'; revision: string } | { result: 'conflicts'; revision: string };

/** The change request's own entries: what it changed over its base. */
async function changeRequestEntries(tx: Db, changeRequestId: string): Promise<EntryChange[]> {
  const rows = await tx
    .selectFrom('tree_entries')
    .select(['kind', 'item_id', 'version_id'])
    .where('change_request_id', '=', changeRequestId)
    .where('to_seq', 'is', null)
    .execute();
  return rows.map((row) => ({ kind: row.kind, itemId: row.item_id, versionId: row.version_id }));
}

/** Of `entries`, the items the space's line changed after `baseSeq`. */
async function changedInSpaceSince(tx: Db, spaceId: string, baseSeq: number, entries: readonly EntryChange[]): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const rows = await tx
    .selectFrom('tree_entries')
    .select(['kind', 'item_id'])
    .distinct()
    .where('space_id', '=', spaceId)
    .where(sql<boolean>`change_request_id is null`)
    .where(sql<boolean>`(kind, item_id) in (select * from unnest(${entries.map((e) => e.kind)}::text[], ${entries.map((e) => e.itemId)}::text[]))`)
    .where((eb) => eb.or([eb('from_seq', '>', baseSeq), eb('to_seq', '>', baseSeq)]))
    .execute();
  return new Set(rows.map((row) => `${row.kind}:${row.item_id}`));
}

/**
 * Whether a merged tree is whole: every page's parent is in it, no page is
 * its own ancestor, and no two siblings share a slug. Changes to different
 * pages can still clash like this (one side deletes a page, the other adds a
 * child to it).
 */
function treeIsWhole(tree: ContentTree): boolean {
  for (const page of tree.pages.values()) {
    if (page.parentId !== null && !tree.pages.has(page.parentId)) return false;
    const seen = new Set<string>();
    for (let current: string | null = page.parentId; current !== null; current = tree.pages.get(current)?.parentId ?? null) {
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

function mergedTree(head: ContentTree, changeRequest: ContentTree, entries: readonly EntryChange[]): ContentTree {
  const merged = head.copy();
  for (const entry of entries) {
    if (entry.kind === 'page') {
      const page = changeRequest.pages.get(entry.itemId);
      if (page) merged.setPage(page);
      else merged.deletePage(entry.itemId);
    } else {
      const file = changeRequest.files.get(entry.itemId);
      if (file) merged.setFile(file);
    }
  }
  return merged;
}

/**
 * Merges a change request into its space: a new space revision holding the
 * change request's changes. A page or file changed on both sides since the
 * change request's base, or a tree the two sides leave broken, is a conflict,
 * and then nothing is written.
 */
export async function mergeChangeRequest(
  app: FastifyInstance,
  target: { organizationId: string; spaceId: string; changeRequestId: string; userId: string },
): Promise<MergeOutcome> {
  const place = { organizationId: target.organizationId, spaceId: target.spaceId };
  const outcome = await app.db.transaction().execute(async (tx) => {
    // Merges into one space go one at a time: each builds on the revision the previous one made.
    const space = await tx.selectFrom('spaces').select(['revision_id']).where('id', '=', target.spaceId).forUpdate().executeTakeFirstOrThrow();
    const locked = await lockChangeRequest(tx, target.changeRequestId);
    requireWorkable(locked.status);
    const [head, ours] = await Promise.all([findRevision(tx, target.spaceId, space.revision_id), findRevision(tx, target.spaceId, locked.revision_id)]);
    if (!head || !ours) throw new Error(`Space ${target.spaceId} or its change request points at a missing revision`);

    const entries = ours.changeRequestId === null ? [] : await changeRequestEntries(tx, target.changeRequestId);
    const conflicting = ours.baseSeq < head.seq ? await changedInSpaceSince(tx, target.spaceId, ours.baseSeq, entries) : new Set<string>();
    const [headTree, ourTree] = await Promise.all([app.content.tree(head, tx), app.content.tree(ours, tx)]);
    const merged = mergedTree(headTree, ourTree, entries);
    if (conflicting.size > 0 || !treeIsWhole(merged)) return { result: 'conflicts' as const, revision: head.id };

    const now = app.clock.now();
    const revision = await writeMergeRevision(tx, place, head, ours, target, now);
    await advanceLine(tx, place, null, head.seq + 1, entries);
    await tx.updateTable('spaces').set({ revision_id: revision, updated_at: now }).where('id', '=', target.spaceId).execute();
    await tx
      .updateTable('change_requests')
      .set({ status: 'merged', revision_merged_id: revision, merged_at: now, updated_at: now })
      .where('id', '=', target.changeRequestId)
      .execute();
    await moveStatusCounters(tx, target.spaceId, locked.status, 'merged');
    return { result: 'merge' as const, revision, merged };
  });
  if (outcome.result === 'merge') app.content.remember(outcome.revision, outcome.merged);
  return { result: outcome.result, revision: outcome.revision };
}

async function writeMergeRevision(
  tx: Db,
  place: { organizationId: string; spaceId: string },
  head: RevisionPoint,
  ours: RevisionPoint,
  target: { changeRequestId: string; userId: string },
  now: Date,
): Promise<string> {
  const id = newId();
  await tx
    .insertInto('revisions')
    .values({
      id,
      organization_id: place.organizationId,
      space_id: place.spaceId,
      change_request_id: null,
      seq: head.seq + 1,
      base_seq: null,
      type: 'merge',
      parents: ours.id === head.id ? [head.id] : [head.id, ours.id],
      variables: JSON.stringify(ours.variables),
      merged_from: target.changeRequestId,
      created_by: target.userId,
      created_at: now,
    })
    .execute();
  return id;
}
