import { newId } from '../core/ids.js';
import type { Db } from '../db/database.js';
import type { VariableValues } from '../db/types.js';
import type { RevisionPoint } from '../content/state.js';
import type { Context } from '../context.js';
import { insertRevision, nextChangeRequestSeq, setChangeRequestRevision } from './changes/persist.js';
import { changedInSpaceSince, lockBothSides, mergedTree, ownEntries, rebasedVariables, treeIsWhole } from './merge.js';
import { spaceRevisionVariablesAt } from './queries.js';

/**
 * GitBook's answer to updateChangeRequest: `update` with the change request's
 * new revision, or `conflicts` with its revision unchanged.
 */
export type UpdateOutcome = { result: 'update'; revision: string } | { result: 'conflicts'; revision: string };

/**
 * Brings a change request up to date with its space: a new revision of it
 * whose base is the space's current revision, with the change request's own
 * changes on top. The conflict rules are the merge's, seen from the other
 * side: an item changed both by the change request and by the space since its
 * base, or a tree the two sides leave broken, is a conflict, and then nothing
 * is written. A change request already on the space's current revision is
 * left as it is (no empty revision).
 */
export async function updateFromSpace(
  context: Context,
  target: { organizationId: string; spaceId: string; changeRequestId: string; userId: string },
): Promise<UpdateOutcome> {
  const outcome = await context.db.transaction().execute(async (tx) => {
    // The space's row key-share: a merge or an import into the space takes it for
    // update, so the space's head cannot move while the update builds on it (nor
    // an entry of its line end under the conflict check), while other change
    // requests' edits and updates go on. Then the change request's row for update:
    // a merge or a batch of edits of this change request waits, or is waited for,
    // in the one order every writer of both rows follows.
    const { head, ours } = await lockBothSides(tx, target, 'key-share');
    if (ours.baseSeq >= head.seq) return { result: 'update' as const, revision: ours.id };

    const entries = ours.changeRequestId === null ? [] : await ownEntries(tx, target.changeRequestId);
    const conflicting = await changedInSpaceSince(tx, target.spaceId, ours.baseSeq, entries);
    const [headTree, ourTree, baseVariables] = await Promise.all([
      context.content.tree(head, tx),
      context.content.tree(ours, tx),
      spaceRevisionVariablesAt(tx, target.spaceId, ours.baseSeq),
    ]);
    const rebased = mergedTree(headTree, ourTree, entries);
    const variables = rebasedVariables(baseVariables, ours.variables, head.variables);
    if (conflicting.size > 0 || variables === null || !treeIsWhole(rebased))
      return { result: 'conflicts' as const, revision: ours.id };

    const now = context.clock.now();
    const revision = await writeUpdateRevision(tx, { head, ours, variables }, target, now);
    // The change request's own entries stay in force at the new seq: read over the new
    // base, they are its changes on top of the space's current content.
    await setChangeRequestRevision(tx, target.changeRequestId, revision, now);
    return { result: 'update' as const, revision, rebased };
  });
  if ('rebased' in outcome && outcome.rebased) context.content.remember(outcome.revision, outcome.rebased);
  return { result: outcome.result, revision: outcome.revision };
}

async function writeUpdateRevision(
  tx: Db,
  sides: { head: RevisionPoint; ours: RevisionPoint; variables: VariableValues },
  target: { organizationId: string; spaceId: string; changeRequestId: string; userId: string },
  now: Date,
): Promise<string> {
  const id = newId();
  await insertRevision(tx, {
    id,
    organization_id: target.organizationId,
    space_id: target.spaceId,
    change_request_id: target.changeRequestId,
    seq: nextChangeRequestSeq(sides.ours),
    base_seq: sides.head.seq,
    type: 'update',
    parents: [sides.ours.id, sides.head.id],
    variables: JSON.stringify(sides.variables),
    created_by: target.userId,
    created_at: now,
  });
  return id;
}
