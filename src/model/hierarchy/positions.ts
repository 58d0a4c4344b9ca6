import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import { BadRequestError } from '../../core/errors.js';

/** A space or collection named in a move's `position`. */
export type Pointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

interface Sibling {
  type: 'space' | 'collection';
  id: string;
  position: number;
}

/** Below this gap between neighbours, the siblings are renumbered before an item is put between them. */
const MIN_GAP = 1e-6;

const pointerId = (pointer: Pointer) => (pointer.type === 'space' ? pointer.space : pointer.collection);

/** The position after every sibling under `parentId` (null: the organization's top level). */
export function nextPosition(organizationId: string, parentId: string | null): RawBuilder<number> {
  return sql<number>`(
    select coalesce(max(p), 0) + 1 from (
      select position as p from spaces
        where organization_id = ${organizationId} and parent_id is not distinct from ${parentId} and deleted_at is null
      union all
      select position from collections
        where organization_id = ${organizationId} and parent_id is not distinct from ${parentId}
    ) as siblings
  )`;
}

async function siblingsOf(tx: Db, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const { rows } = await sql<Sibling>`
    select 'space' as type, id, position from spaces
      where organization_id = ${organizationId} and parent_id is not distinct from ${parentId} and deleted_at is null
    union all
    select 'collection', id, position from collections
      where organization_id = ${organizationId} and parent_id is not distinct from ${parentId}
    order by position, id`.execute(tx);
  return rows;
}

async function renumber(tx: Db, siblings: Sibling[]): Promise<void> {
  for (const [index, sibling] of siblings.entries()) {
    sibling.position = index + 1;
    const table = sibling.type === 'space' ? 'spaces' : 'collections';
    await tx.updateTable(table).set({ position: sibling.position }).where('id', '=', sibling.id).execute();
  }
}

/**
 * The position of an item moved under `parentId`, relative to `before` and
 * `after` (siblings there), or at the end when neither is given. Both given:
 * `after` must come before `before`, and the item lands between them. Run
 * inside the move's transaction.
 */
export async function positionAmongSiblings(
  tx: Db,
  item: { type: 'space' | 'collection'; id: string },
  organizationId: string,
  parentId: string | null,
  position: { before?: Pointer; after?: Pointer } | undefined,
): Promise<number> {
  const siblings = (await siblingsOf(tx, organizationId, parentId)).filter((s) => !(s.type === item.type && s.id === item.id));
  const indexOf = (name: 'before' | 'after', pointer: Pointer | undefined) => {
    if (!pointer) return undefined;
    const index = siblings.findIndex((s) => s.type === pointer.type && s.id === pointerId(pointer));
    if (index < 0) throw new BadRequestError(`body/position/${name}: no ${pointer.type} "${pointerId(pointer)}" beside it at its destination`);
    return index;
  };
  const before = indexOf('before', position?.before);
  const after = indexOf('after', position?.after);
  if (before !== undefined && after !== undefined && after >= before) {
    throw new BadRequestError('body/position: `after` must come before `before` for the item to land between them');
  }

  // The neighbours the item goes between; undefined at either end.
  const lowIndex = after ?? (before !== undefined ? before - 1 : siblings.length - 1);
  const highIndex = before ?? (after !== undefined ? after + 1 : siblings.length);
  const between = () => {
    const low = siblings[lowIndex]?.position;
    const high = siblings[highIndex]?.position;
    if (low === undefined && high === undefined) return 1;
    if (low === undefined) return high! - 1;
    if (high === undefined) return low + 1;
    return high - low < MIN_GAP ? undefined : (low + high) / 2;
  };
  let result = between();
  if (result === undefined) {
    await renumber(tx, siblings);
    result = between()!;
  }
  return result;
}
