import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, DefaultLevel } from '../db/types.js';

/**
 * Deepest chain of parent collections walked. Moves and creations keep trees
 * far shallower; the bound only stops a walk that a corrupted tree could loop.
 */
const MAX_WALK = 100;
/** A collection on a chain up the tree: its id and default level. */
export interface ChainLink {
  id: string;
  level: DefaultLevel;
}
/** The collections `collectionIds` and all their ancestors (self first, then up), keyed by the starting collection. */
export async function chainsOf(db: Db, collectionIds: readonly string[]): Promise<Map<string, ChainLink[]>> {
  const chains = new Map<string, ChainLink[]>(collectionIds.map((id) => [id, []]));
  if (collectionIds.length === 0) return chains;
  const rows = await walkUp(db, sql<string[]>`${sql.val(collectionIds)}::text[]`)
    .selectFrom('chain')
    .select(['start_id', 'id', 'default_level'])
    .orderBy('start_id')
    .orderBy('depth')
    .execute();
  for (const row of rows) chains.get(row.start_id)?.push({ id: row.id, level: row.default_level });
  return chains;
}
/** The collection and all its ancestors' ids. */
export async function collectionAndAncestors(db: Db, collectionId: string): Promise<string[]> {
  const rows = await walkUp(db, sql<string[]>`array[${collectionId}]::text[]`)
    .selectFrom('chain')
    .select('id')
    .execute();
  return rows.map((row) => row.id);
}
/**
 * A recursive walk from each of `startIds` (a text[] expression) up to its
 * root: the CTE `chain` holds one row per (start, ancestor-or-self).
 */
export function walkUp(db: Kysely<Database>, startIds: RawBuilder<string[]>) {
  return db.withRecursive('chain(start_id, id, parent_id, default_level, depth)', (qb) =>
    qb
      .selectFrom('collections')
      .select(['id as start_id', 'id', 'parent_id', 'default_level', sql<number>`0`.as('depth')])
      .where('id', '=', sql<string>`any(${startIds})`)
      .unionAll(
        qb
          .selectFrom('collections as c')
          .innerJoin('chain', 'chain.parent_id', 'c.id')
          .select([
            'chain.start_id',
            'c.id',
            'c.parent_id',
            'c.default_level',
            sql<number>`chain.depth + 1`.as('depth'),
          ])
          .where('chain.depth', '<', MAX_WALK),
      ),
  );
}
