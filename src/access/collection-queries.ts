import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { CollectionRow, Database, DefaultLevel, Role } from '../db/types.js';
import { walkUp } from '../hierarchy/walk.js';
import { grantRolesOnChain } from './grants.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
export const COLLECTION_FIELDS = [
  'id',
  'organization_id',
  'parent_id',
  'title',
  'description',
  'default_level',
  'created_at',
] as const;
export const COLLECTION_COLUMNS = COLLECTION_FIELDS.map((field) => `c.${field}` as const);
/** The columns a Collection response is made from. */
export type CollectionFields = Pick<CollectionRow, (typeof COLLECTION_FIELDS)[number]>;
/**
 * A collection with what the caller is to its organization, the default
 * levels of its chain of collections, and the roles of the grants that reach
 * the caller on them.
 */
export interface CollectionWithAccess extends CollectionFields {
  member_role: Role | null;
  is_member: boolean;
  chain_levels: DefaultLevel[];
  grant_roles: Role[] | null;
}
export async function findCollectionWithAccess(
  db: Db,
  collectionId: string,
  userId: string,
): Promise<CollectionWithAccess | undefined> {
  return (await collectionWithAccess(db, collectionId, userId))[0];
}
const withAccess = (db: Kysely<Database>, collectionId: string, userId: string) =>
  walkUp(db, sql<string[]>`array[${collectionId}]::text[]`)
    .selectFrom('collections as c')
    .leftJoin('organization_members as m', (join) =>
      join
        .onRef('m.organization_id', '=', 'c.organization_id')
        .on('m.user_id', '=', userId)
        .on('m.disabled', '=', false),
    )
    .select(COLLECTION_COLUMNS)
    .select(['m.role as member_role', sql<boolean>`m.user_id is not null`.as('is_member')])
    .select(sql<DefaultLevel[]>`(select array_agg(chain.default_level) from chain)`.as('chain_levels'))
    .select(grantRolesOnChain(userId).as('grant_roles'))
    .where('c.id', '=', collectionId);
const collectionWithAccess = precompiled(withAccess);
