import type { Db } from '../db/database.js';
import type { Role } from '../db/types.js';
import { contentRole } from './grants.js';
import { NotFoundError } from '../core/errors.js';
import { roleAtLeast } from './roles.js';
import { findCollectionWithAccess, type CollectionWithAccess } from './collection-queries.js';

/** The caller's role on a collection found with its access: from their membership, default levels and grants up the tree. */
export function collectionRole(collection: CollectionWithAccess): Role | null {
  return contentRole({
    isMember: collection.is_member,
    memberRole: collection.member_role,
    levels: collection.chain_levels,
    grants: collection.grant_roles ?? [],
  });
}

/** The collection and the caller's role on it, or 404 when the caller may not see it. */
export async function findVisibleCollection(db: Db, collectionId: string, userId: string) {
  return visible(await findCollectionWithAccess(db, collectionId, userId));
}

function visible(collection: CollectionWithAccess | undefined) {
  const role = collection ? collectionRole(collection) : null;
  if (!collection || !roleAtLeast(role, 'read'))
    throw new NotFoundError('No collection with this id is visible to you');
  return { collection, role };
}
