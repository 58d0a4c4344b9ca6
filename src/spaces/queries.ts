import { type Kysely, type UpdateObject } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { type SpaceFields, SPACE_FIELDS, SPACE_COLUMNS } from '../model/access/space-queries.js';

export async function updateSpace(
  db: Db,
  spaceId: string,
  changes: UpdateObject<Database, 'spaces'>,
): Promise<SpaceFields> {
  return db
    .updateTable('spaces')
    .set(changes)
    .where('id', '=', spaceId)
    .returning(SPACE_FIELDS)
    .executeTakeFirstOrThrow();
}

function liveSpacesOf(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom('spaces as s').where('s.organization_id', '=', organizationId).where('s.deleted_at', 'is', null);
}

const liveSpacesInOrganizationCount = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('organizations').select('live_spaces_count').where('id', '=', organizationId);

/** A page of an organization's spaces that are not deleted, newest first, each row carrying the total count. */
export const listSpacesInOrganization = pageQuery(
  { createdAt: 's.created_at', id: 's.id' },
  (db, organizationId: string) =>
    liveSpacesOf(db, organizationId)
      .select(SPACE_COLUMNS)
      .select(() => liveSpacesInOrganizationCount(db, organizationId).as(TOTAL_COUNT)),
);

export async function countSpacesInOrganization(db: Db, organizationId: string): Promise<number> {
  const row = await liveSpacesInOrganizationCount(db, organizationId).executeTakeFirst();
  return row?.live_spaces_count ?? 0;
}

function liveSpacesIn(db: Kysely<Database>, collectionId: string) {
  return db.selectFrom('spaces as s').where('s.parent_id', '=', collectionId).where('s.deleted_at', 'is', null);
}

const liveSpacesInCollectionCount = (db: Kysely<Database>, collectionId: string) =>
  db.selectFrom('collections').select('live_spaces_count').where('id', '=', collectionId);

/** A page of a collection's spaces that are not deleted, newest first, each row carrying the total count. */
export const listSpacesInCollection = pageQuery({ createdAt: 's.created_at', id: 's.id' }, (db, collectionId: string) =>
  liveSpacesIn(db, collectionId)
    .select(SPACE_COLUMNS)
    .select(() => liveSpacesInCollectionCount(db, collectionId).as(TOTAL_COUNT)),
);

export async function countSpacesInCollection(db: Db, collectionId: string): Promise<number> {
  const row = await liveSpacesInCollectionCount(db, collectionId).executeTakeFirst();
  return row?.live_spaces_count ?? 0;
}
