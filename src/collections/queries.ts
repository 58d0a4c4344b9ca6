import { sql, type Kysely, type UpdateObject } from 'kysely';
import type { DbOrTx } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { CollectionRow, Database, DefaultLevel, Role, Visibility } from '../db/types.js';
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { walkUp } from '../core/access.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { nextPosition } from './positions.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
const COLLECTION_FIELDS = ['id', 'organization_id', 'parent_id', 'title', 'description', 'default_level', 'created_at'] as const;
const COLLECTION_COLUMNS = COLLECTION_FIELDS.map((field) => `c.${field}` as const);

/** The columns a Collection response is made from. */
export type CollectionFields = Pick<CollectionRow, (typeof COLLECTION_FIELDS)[number]>;

/** A collection with what the caller is to its organization and the default levels of its chain of collections. */
export interface CollectionWithAccess extends CollectionFields {
  member_role: Role | null;
  is_member: boolean;
  chain_levels: DefaultLevel[];
}

export async function findCollectionWithAccess(db: DbOrTx, collectionId: string, userId: string): Promise<CollectionWithAccess | undefined> {
  return (await collectionWithAccess(db, collectionId, userId))[0];
}

const collectionWithAccess = precompiled((db, collectionId: string, userId: string) =>
  walkUp(db, sql<string[]>`array[${collectionId}]::text[]`)
    .selectFrom('collections as c')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'c.organization_id').on('m.user_id', '=', userId).on('m.disabled', '=', false),
    )
    .select(COLLECTION_COLUMNS)
    .select(['m.role as member_role', sql<boolean>`m.user_id is not null`.as('is_member')])
    .select(sql<DefaultLevel[]>`(select array_agg(chain.default_level) from chain)`.as('chain_levels'))
    .where('c.id', '=', collectionId),
);

export interface NewCollectionInput {
  organizationId: string;
  parentId: string | null;
  title: string;
}

export async function createCollection(db: DbOrTx, clock: Clock, input: NewCollectionInput): Promise<CollectionFields> {
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

export async function updateCollection(
  db: DbOrTx,
  collectionId: string,
  changes: UpdateObject<Database, 'collections'>,
): Promise<CollectionFields> {
  return db.updateTable('collections').set(changes).where('id', '=', collectionId).returning(COLLECTION_FIELDS).executeTakeFirstOrThrow();
}

function collectionsOf(db: Kysely<Database>, organizationId: string, topLevelOnly: boolean) {
  const query = db.selectFrom('collections as c').where('c.organization_id', '=', organizationId);
  return topLevelOnly ? query.where('c.parent_id', 'is', null) : query;
}

function collectionsPage(topLevelOnly: boolean) {
  return pageQuery({ createdAt: 'c.created_at', id: 'c.id' }, (db, organizationId: string) =>
    collectionsOf(db, organizationId, topLevelOnly)
      .select(COLLECTION_COLUMNS)
      .select(() => collectionsOf(db, organizationId, topLevelOnly).select((eb) => eb.fn.countAll<string>().as('n')).as(TOTAL_COUNT)),
  );
}

/** Pages of an organization's collections, newest first: all of them, or the top-level ones only. */
export const listCollections = { all: collectionsPage(false), topLevel: collectionsPage(true) };

export async function countCollections(db: DbOrTx, organizationId: string, topLevelOnly: boolean): Promise<number> {
  const { n } = await collectionsOf(db as Kysely<Database>, organizationId, topLevelOnly)
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
export async function deleteCollectionTree(tx: DbOrTx, collectionId: string, now: Date): Promise<{ spaces: number }> {
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
  const spaces = await subtree(tx as Kysely<Database>)
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
