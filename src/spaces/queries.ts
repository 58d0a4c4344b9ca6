import { sql, type Kysely, type UpdateObject } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { type SpaceFields, SPACE_FIELDS, SPACE_COLUMNS } from '../access/space-queries.js';
import { reachableSpacesByCreation, spacesReachedByUserCount } from '../access/grants.js';

/** `organizationId`: the organization the space is in before the change (a transfer changes it). */
export async function updateSpace(
  db: Db,
  organizationId: string,
  spaceId: string,
  changes: UpdateObject<Database, 'spaces'>,
): Promise<SpaceFields> {
  return db
    .updateTable('spaces')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', spaceId)
    .returning(SPACE_FIELDS)
    .executeTakeFirstOrThrow();
}

function liveSpacesOf(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom('spaces as s').where('s.organization_id', '=', organizationId).where('s.deleted_at', 'is', null);
}

const liveSpacesInOrganizationCount = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('organizations').select('live_spaces_count').where('id', '=', organizationId);

/** An organization's spaces that are not deleted, each row carrying the total count. */
const liveSpacesWithCount = (db: Kysely<Database>, organizationId: string) =>
  liveSpacesOf(db, organizationId)
    .select(SPACE_COLUMNS)
    .select(() => liveSpacesInOrganizationCount(db, organizationId).as(TOTAL_COUNT));

// spaces_organization_live_idx and spaces_parent_live_idx each filter and
// order their page, whatever the organization or collection: one plan fits all.
const ONE_PLAN = { fixedFetch: true };

/** A page of an organization's spaces that are not deleted, newest first, each row carrying the total count. */
export const listSpacesInOrganization = pageQuery(
  { createdAt: 's.created_at', id: 's.id' },
  liveSpacesWithCount,
  1,
  ONE_PLAN,
);

export async function countSpacesInOrganization(db: Db, organizationId: string): Promise<number> {
  const row = await liveSpacesInOrganizationCount(db, organizationId).executeTakeFirst();
  return row?.live_spaces_count ?? 0;
}

/**
 * A page of the live spaces a guest reaches (granted one by one, or inside a
 * collection they reach), newest first, each row carrying the total count.
 * The reached spaces and their creation times are found once (`reached`,
 * materialized: the page and the count both read it) and the page is cut
 * from them; only then are its rows read from spaces, one lookup each. Sorted
 * after a join, the whole reach's rows were read (0.8 ms for 400 spaces).
 */
export const listReachableSpacesInOrganization = pageQuery<
  [organizationId: string, userId: string],
  { space_id: string; created_at: Date; [TOTAL_COUNT]: number },
  SpaceFields & { [TOTAL_COUNT]: number }
>(
  { createdAt: 'r.created_at', id: 'r.space_id' },
  (db, organizationId: string, userId: string) =>
    db
      .with(
        (cte) => cte('reached').materialized(),
        (qb) =>
          qb
            .selectFrom(
              sql<{ space_id: string; created_at: Date }>`${reachableSpacesByCreation(organizationId, userId)}`.as('x'),
            )
            .select(['x.space_id', 'x.created_at']),
      )
      .selectFrom('reached as r')
      .select(['r.space_id', 'r.created_at', sql<number>`(select count(*)::int from reached)`.as(TOTAL_COUNT)]),
  2,
  {
    // One plan whoever asks (sort the reach, then look up 50 rows): planned for each call's values,
    // the statement cost more to plan (1 ms) than to run.
    fixedFetch: true,
    rowsOf: (db, keys, order, organizationId: string) =>
      db
        .selectFrom(keys.as('p'))
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('spaces as s')
              .select(SPACE_COLUMNS)
              .whereRef('s.id', '=', sql.ref('p.space_id'))
              .where('s.organization_id', '=', organizationId)
              .where('s.deleted_at', 'is', null)
              .as('s'),
          (join) => join.onTrue(),
        )
        .select(SPACE_COLUMNS)
        .select(sql<number>`${sql.ref(`p.${TOTAL_COUNT}`)}`.as(TOTAL_COUNT))
        .orderBy(sql.ref('p.created_at'), order)
        .orderBy(sql.ref('p.space_id'), order),
  },
);

export async function countReachableSpacesInOrganization(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<number> {
  const row = await db.selectNoFrom(spacesReachedByUserCount(organizationId, userId).as('n')).executeTakeFirstOrThrow();
  return row.n;
}

function liveSpacesIn(db: Kysely<Database>, collectionId: string) {
  return db.selectFrom('spaces as s').where('s.parent_id', '=', collectionId).where('s.deleted_at', 'is', null);
}

const liveSpacesInCollectionCount = (db: Kysely<Database>, collectionId: string) =>
  db.selectFrom('collections').select('live_spaces_count').where('id', '=', collectionId);

/** A page of a collection's spaces that are not deleted, newest first, each row carrying the total count. */
export const listSpacesInCollection = pageQuery(
  { createdAt: 's.created_at', id: 's.id' },
  (db, collectionId: string) =>
    liveSpacesIn(db, collectionId)
      .select(SPACE_COLUMNS)
      .select(() => liveSpacesInCollectionCount(db, collectionId).as(TOTAL_COUNT)),
  1,
  ONE_PLAN,
);

export async function countSpacesInCollection(db: Db, collectionId: string): Promise<number> {
  const row = await liveSpacesInCollectionCount(db, collectionId).executeTakeFirst();
  return row?.live_spaces_count ?? 0;
}

/** A space's fields as they are now: read again after a write that moved its revision on. */
export async function findSpaceFields(db: Db, organizationId: string, spaceId: string): Promise<SpaceFields> {
  return db
    .selectFrom('spaces')
    .select(SPACE_FIELDS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
}
