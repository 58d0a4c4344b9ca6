import type { Db } from '../../db/database.js';
import type { ContentTree } from '../tree.js';
import { pathMoves } from './moves.js';
import { recordPathMoves, type SpacePlace } from './queries.js';

/**
 * Keeps the old addresses of the pages a write of the space's line (a merge,
 * an import) moved, in its transaction: `before` is the head it built on,
 * `after` the tree its new revision (at `seq`) holds, `entries` what it changed.
 */
export async function keepOldAddresses(
  tx: Db,
  place: SpacePlace,
  seq: number,
  trees: { before: ContentTree; after: ContentTree },
  entries: ReadonlyArray<{ kind: string; itemId: string }>,
): Promise<void> {
  const changed = entries.flatMap((entry) => (entry.kind === 'page' ? [entry.itemId] : []));
  if (changed.length === 0) return;
  const moves = pathMoves(trees.before, trees.after, changed);
  if (moves.left.length + moves.taken.length + moves.deleted.length === 0) return;
  await recordPathMoves(tx, place, seq, moves);
}
