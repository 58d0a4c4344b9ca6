import type { Db } from '../../db/database.js';
import type { Role } from '../../db/types.js';
import { effectiveRole } from './membership.js';
import { NotFoundError } from '../../core/errors.js';
import { roleAtLeast } from './roles.js';
import { findCollectionWithAccess, type CollectionWithAccess } from './collection-queries.js';

/** The caller's role on a collection found with its access: from their membership and the default levels up the tree. */
export function collectionRole(collection: CollectionWithAccess): Role | null {
  return collection.is_member ? effectiveRole(collection.member_role, collection.chain_levels) : null;
}

/** The collection and the caller's role on it, or 404 when the caller may not see it. */
export async function findVisibleCollection(db: Db, collectionId: string, userId: string) {
  const collection = await findCollectionWithAccess(db, collectionId, userId);
  const role = collection ? collectionRole(collection) : null;
  if (!collection || !roleAtLeast(role, 'read'))
    throw new NotFoundError('No collection with this id is visible to you');
  return { collection, role };
}
