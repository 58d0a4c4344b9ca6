import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ChangeRequestStatus, ChangeRequestsTable, VariableValues } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { changeRequestsWithContext } from '../content/change-request-queries.js';

/** A page of a space's change requests with one status, newest first, each row carrying the total count. */
export const listChangeRequests = pageQuery(
  { createdAt: 'cr.created_at', id: 'cr.id' },
  (db, spaceId: string, status: ChangeRequestStatus) =>
    changeRequestsWithContext(db)
      .where('cr.space_id', '=', spaceId)
      .where('cr.status', '=', status)
      .select(() =>
        db
          .selectFrom('change_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('space_id', '=', spaceId)
          .where('status', '=', status)
          .as(TOTAL_COUNT),
      ),
);

/** The same list narrowed to one author. */
export const listChangeRequestsByCreator = pageQuery(
  { createdAt: 'cr.created_at', id: 'cr.id' },
  (db, spaceId: string, status: ChangeRequestStatus, creator: string) =>
    changeRequestsWithContext(db)
      .where('cr.space_id', '=', spaceId)
      .where('cr.status', '=', status)
      .where('cr.created_by', '=', creator)
      .select(() =>
        db
          .selectFrom('change_requests')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('space_id', '=', spaceId)
          .where('status', '=', status)
          .where('created_by', '=', creator)
          .as(TOTAL_COUNT),
      ),
);

/** How many of a space's change requests have the status (and author), for pages that carry no rows. */
export async function countChangeRequests(
  db: Db,
  spaceId: string,
  status: ChangeRequestStatus,
  creator: string | undefined,
): Promise<number> {
  let query = db
    .selectFrom('change_requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('space_id', '=', spaceId)
    .where('status', '=', status);
  if (creator) query = query.where('created_by', '=', creator);
  const { n } = await query.executeTakeFirstOrThrow();
  return Number(n);
}

/** Locks the space's row for update, and gives its head revision and how many change requests it has had. */
export async function lockSpaceForNumbering(db: Db, spaceId: string) {
  return db
    .selectFrom('spaces')
    .select(['revision_id', 'change_requests_count'])
    .where('id', '=', spaceId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function insertChangeRequest(db: Db, row: Insertable<ChangeRequestsTable>): Promise<void> {
  await db.insertInto('change_requests').values(row).execute();
}

// Merging.

/** The change request's own entries: what it changed over its base. */
export async function changeRequestEntries(db: Db, changeRequestId: string) {
  return db
    .selectFrom('tree_entries')
    .select(['kind', 'item_id', 'version_id'])
    .where('change_request_id', '=', changeRequestId)
    .where('to_seq', 'is', null)
    .execute();
}

/** Of the items (`kinds[i]`, `itemIds[i]`), those the space's line changed after `baseSeq`. */
export async function itemsChangedInSpaceSince(
  db: Db,
  spaceId: string,
  baseSeq: number,
  items: { kinds: readonly string[]; itemIds: readonly string[] },
) {
  return db
    .selectFrom('tree_entries')
    .select(['kind', 'item_id'])
    .distinct()
    .where('space_id', '=', spaceId)
    .where(sql<boolean>`change_request_id is null`)
    .where(sql<boolean>`(kind, item_id) in (select * from unnest(${items.kinds}::text[], ${items.itemIds}::text[]))`)
    .where((eb) => eb.or([eb('from_seq', '>', baseSeq), eb('to_seq', '>', baseSeq)]))
    .execute();
}

/** The revision's id when it is one of the space's own line (a merge or the first), else undefined. */
export async function spaceLineRevision(db: Db, spaceId: string, revisionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('revisions')
    .select('id')
    .where('space_id', '=', spaceId)
    .where('id', '=', revisionId)
    .where(sql<boolean>`change_request_id is null`)
    .executeTakeFirst();
  return row?.id;
}

/** The variables of the space's revision at `seq` on its own line (a change request's base). */
export async function spaceRevisionVariablesAt(db: Db, spaceId: string, seq: number): Promise<VariableValues> {
  const row = await db
    .selectFrom('revisions')
    .select('variables')
    .where('space_id', '=', spaceId)
    .where(sql<boolean>`change_request_id is null`)
    .where('seq', '=', seq)
    .executeTakeFirstOrThrow();
  return row.variables;
}

/** Moves the space's head to the revision a merge made. */
export async function setSpaceRevision(db: Db, spaceId: string, revisionId: string, now: Date): Promise<void> {
  await db.updateTable('spaces').set({ revision_id: revisionId, updated_at: now }).where('id', '=', spaceId).execute();
}

export async function markChangeRequestMerged(
  db: Db,
  changeRequestId: string,
  revisionId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('change_requests')
    .set({ status: 'merged', revision_merged_id: revisionId, merged_at: now, updated_at: now })
    .where('id', '=', changeRequestId)
    .execute();
}
