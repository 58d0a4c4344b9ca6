import type { Role } from '../db/types.js';
import { roleAtLeast } from '../access/roles.js';
import type { Urls } from '../core/urls.js';
import type { Collection } from './schemas.js';
import { type CollectionFields } from '../access/collection-queries.js';

export function collectionPermissions(role: Role | null): Collection['permissions'] {
  return {
    view: roleAtLeast(role, 'read'),
    admin: role === 'admin',
    viewInviteLinks: role === 'admin',
    create: roleAtLeast(role, 'create'),
  };
}

/** A collection as a caller with `role` on it sees it. */
export function presentCollection(row: CollectionFields, role: Role | null, urls: Urls): Collection {
  const collection: Collection = {
    object: 'collection',
    id: row.id,
    title: row.title,
    organization: row.organization_id,
    defaultLevel: row.default_level,
    urls: { location: urls.api('collections', row.id), app: urls.app('o', row.organization_id, 'c', row.id) },
    permissions: collectionPermissions(role),
  };
  if (row.description) collection.description = row.description;
  if (row.parent_id) collection.parent = row.parent_id;
  return collection;
}
