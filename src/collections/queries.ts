import { sql, type Kysely, type UpdateObject } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, Visibility } from '../db/types.js';
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { nextPosition } from '../hierarchy/positions.js';
import { reachableCollectionIds } from '../access/grants.js';
import { type CollectionFields, COLLECTION_FIELDS, COLLECTION_COLUMNS } from '../access/collection-queries.js';

export interface NewCollectionInput {
  organizationId: string;
  parentId: string | null;
  title: string;
}

export async function createCollection(db: Db, clock: Clock, input: NewCollectionInput): Promise<CollectionFields> {
  const now = clock.now();
  return db
    .insertInto('collections')
    .values({
      id: newId(),
      organization_id: input.organizationId,
      parent_id: input.parentId,
      title: input.title,
      description: null,
      default_level: 'inherit',
      position: nextPosition(input.organizationId, input.parentId),
      created_at: now,
      updated_at: now,
    })
    .returning(COLLECTION_FIELDS)
    .executeTakeFirstOrThrow();
}

/** `organizationId`: the organization the collection is in before the change (a transfer changes it). */
export async function updateCollection(
  db: Db,
  organizationId: string,
  collectionId: string,
  changes: UpdateObject<Database, 'collections'>,
): Promise<CollectionFields> {
  return db
    .updateTable('collections')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', collectionId)
    .returning(COLLECTION_FIELDS)
    .executeTakeFirstOrThrow();
}

function collectionsOf(db: Kysely<Database>, organizationId: string, topLevelOnly: boolean) {
  const query = db.selectFrom('collections as c').where('c.organization_id', '=', organizationId);
  return topLevelOnly ? query.where('c.parent_id', 'is', null) : query;
}

function collectionsPage(topLevelOnly: boolean) {
  return pageQuery({ createdAt: 'c.created_at', id: 'c.id' }, (db, organizationId: string) =>
    collectionsOf(db, organizationId, topLevelOnly)
      .select(COLLECTION_COLUMNS)
      .select(() =>
        collectionsOf(db, organizationId, topLevelOnly)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .as(TOTAL_COUNT),
      ),
  );
}

/** Pages of an organization's collections, newest first: all of them, or the top-level ones only. */
export const listCollections = { all: collectionsPage(false), topLevel: collectionsPage(true) };

/**
 * The collections a guest reaches: granted to them or their teams, and those
 * inside. The top level of what they see: those whose parent they do not reach.
 */
function reachableCollectionsOf(db: Kysely<Database>, organizationId: string, userId: string, topLevelOnly: boolean) {
  const reached = reachableCollectionIds(organizationId, userId);
  const query = db
    .selectFrom('collections as c')
    .where('c.organization_id', '=', organizationId)
    .where(sql<boolean>`c.id in ${reached}`);
  return topLevelOnly ? query.where(sql<boolean>`(c.parent_id is null or c.parent_id not in ${reached})`) : query;
}

function reachableCollectionsPage(topLevelOnly: boolean) {
  return pageQuery({ createdAt: 'c.created_at', id: 'c.id' }, (db, organizationId: string, userId: string) =>
    reachableCollectionsOf(db, organizationId, userId, topLevelOnly)
      .select(COLLECTION_COLUMNS)
      .select(() =>
        reachableCollectionsOf(db, organizationId, userId, topLevelOnly)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .as(TOTAL_COUNT),
      ),
  );
}

export async function countReachableCollections(
  db: Db,
  organizationId: string,
  userId: string,
  topLevelOnly: boolean,
): Promise<number> {
  const { n } = await reachableCollectionsOf(db, organizationId, userId, topLevelOnly)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Pages of the collections a guest reaches, newest first: all, or the top of what they see. */
export const listReachableCollections = {
  all: reachableCollectionsPage(false),
  topLevel: reachableCollectionsPage(true),
};

export async function countCollections(db: Db, organizationId: string, topLevelOnly: boolean): Promise<number> {
  const { n } = await collectionsOf(db, organizationId, topLevelOnly)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Deletes a collection and the collections under it, and soft-deletes the
 * spaces they hold, as GitBook does. Those spaces stay restorable for the
 * retention window and come back at the top level; `in-collection`, which no
 * longer means anything there, becomes `private`. Run inside a transaction.
 */
export async function deleteCollectionTree(tx: Db, collectionId: string, now: Date): Promise<{ spaces: number }> {
  const subtree = (db: Kysely<Database>) =>
    db.withRecursive('subtree(id, depth)', (qb) =>
      qb
        .selectFrom('collections')
        .select(['id', sql<number>`0`.as('depth')])
        .where('id', '=', collectionId)
        .unionAll(
          qb
            .selectFrom('collections as child')
            .innerJoin('subtree', 'subtree.id', 'child.parent_id')
            .select(['child.id', sql<number>`subtree.depth + 1`.as('depth')])
            .where('subtree.depth', '<', 100),
        ),
    );
  const spaces = await subtree(tx)
    .updateTable('spaces')
    .set({
      deleted_at: sql<Date>`coalesce(deleted_at, ${now}::timestamptz)`,
      visibility: sql<Visibility>`case when visibility = 'in-collection' then 'private' else visibility end`,
      updated_at: now,
    })
    .where('parent_id', 'in', (qb) => qb.selectFrom('subtree').select('id'))
    .executeTakeFirst();
  // Child collections go with their parent (ON DELETE CASCADE); spaces are detached (SET NULL).
  await tx.deleteFrom('collections').where('id', '=', collectionId).execute();
  return { spaces: Number(spaces.numUpdatedRows) };
}
