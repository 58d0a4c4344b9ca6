import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { BadRequestError } from '../core/errors.js';

/** A space or collection named in a move's `position`. */
export type Pointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

/**
 * Spaces and collections under one parent share one order: `position`, a
 * fractional key as pages have (compared byte by byte: COLLATE "C"), ties
 * broken by id.
 */
interface Sibling {
  type: 'space' | 'collection';
  id: string;
  position: string;
}

const pointerId = (pointer: Pointer) => (pointer.type === 'space' ? pointer.space : pointer.collection);

/**
 * The position after every sibling under `parentId` (null: the organization's
 * top level), worked out in the statement that writes it: `position_after` is
 * generateKeyBetween(last, null) in SQL (migrations/1764720000000_fractional_positions.sql).
 */
export function nextPosition(organizationId: string, parentId: string | null): RawBuilder<string> {
  return sql<string>`(
    select position_after(max(p)) from (
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

/** Gives the siblings fresh keys in their order: only siblings that share a key (two created at once) need it. */
async function renumber(tx: Db, siblings: Sibling[]): Promise<void> {
  const keys = generateNKeysBetween(null, null, siblings.length);
  for (const [index, sibling] of siblings.entries()) {
    sibling.position = keys[index]!;
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
): Promise<string> {
  const siblings = (await siblingsOf(tx, organizationId, parentId)).filter(
    (s) => !(s.type === item.type && s.id === item.id),
  );
  const indexOf = (name: 'before' | 'after', pointer: Pointer | undefined) => {
    if (!pointer) return undefined;
    const index = siblings.findIndex((s) => s.type === pointer.type && s.id === pointerId(pointer));
    if (index < 0)
      throw new BadRequestError(
        `body/position/${name}: no ${pointer.type} "${pointerId(pointer)}" beside it at its destination`,
      );
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
    const low = siblings[lowIndex]?.position ?? null;
    const high = siblings[highIndex]?.position ?? null;
    // Neighbours that share a key leave no key between them.
    return low !== null && high !== null && low >= high ? undefined : generateKeyBetween(low, high);
  };
  let result = between();
  if (result === undefined) {
    await renumber(tx, siblings);
    result = between()!;
  }
  return result;
}
