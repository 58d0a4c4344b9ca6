import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ChangeRequestsTable, VariableValues } from '../db/types.js';

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

/**
 * What the merge rules of a change request are judged on: the rules of its
 * organization and space, its subject and author, its revision, and whether
 * the space moved on since its base.
 */
export async function mergeRuleFacts(
  db: Db,
  target: { organizationId: string; spaceId: string; changeRequestId: string },
) {
  return db
    .selectFrom('change_requests as cr')
    .innerJoin('spaces as s', 's.id', 'cr.space_id')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .innerJoin('revisions as r', 'r.id', 'cr.revision_id')
    .innerJoin('revisions as head', 'head.id', 's.revision_id')
    .select([
      'o.merge_rules as organization_rules',
      's.merge_rules as space_rules',
      'cr.subject',
      'cr.created_by',
      'cr.revision_id',
      sql<boolean>`coalesce(r.base_seq, r.seq) < head.seq`.as('outdated'),
    ])
    .where('cr.organization_id', '=', target.organizationId)
    .where('cr.space_id', '=', target.spaceId)
    .where('cr.id', '=', target.changeRequestId)
    .executeTakeFirstOrThrow();
}
