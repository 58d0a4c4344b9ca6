import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { StoredChange } from './semantic.js';

/** Two revisions of a space compared: `from` null is the space's first revision, compared with nothing. */
export interface RevisionPair {
  organizationId: string;
  spaceId: string;
  from: string | null;
  to: string;
}

/** Page diffs inserted per statement: a change request touching thousands of pages stays within the bind limit. */
const PAGE_DIFF_ROWS = 500;

const fromIs = (from: string | null) =>
  from === null ? sql<boolean>`from_revision_id is null` : sql<boolean>`from_revision_id = ${from}`;

/** The stored diff of the pair: its id and every change, or undefined when it was never computed. */
export async function findRevisionDiff(
  db: Db,
  pair: RevisionPair,
): Promise<{ id: string; changes: StoredChange[] } | undefined> {
  const row = await db
    .selectFrom('revision_diffs')
    .select(['id', 'changes'])
    .where('organization_id', '=', pair.organizationId)
    .where('space_id', '=', pair.spaceId)
    .where('to_revision_id', '=', pair.to)
    .where(fromIs(pair.from))
    .executeTakeFirst();
  return row && { id: row.id, changes: row.changes as unknown as StoredChange[] };
}

/**
 * Stores the pair's diff and its pages' block diffs, unless another request
 * stored it first (then nothing is written): true when this one was stored.
 */
export async function insertRevisionDiff(
  tx: Db,
  pair: RevisionPair,
  diff: { id: string; changes: StoredChange[]; pages: ReadonlyArray<{ pageId: string; diff: string }> },
): Promise<boolean> {
  const inserted = await tx
    .insertInto('revision_diffs')
    .values({
      id: diff.id,
      organization_id: pair.organizationId,
      space_id: pair.spaceId,
      from_revision_id: pair.from,
      to_revision_id: pair.to,
      changes: JSON.stringify(diff.changes),
    })
    .onConflict((conflict) => conflict.constraint('revision_diffs_pair_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  const rows = diff.pages.map((page) => ({
    organization_id: pair.organizationId,
    diff_id: diff.id,
    page_id: page.pageId,
    diff: page.diff,
  }));
  for (let i = 0; i < rows.length; i += PAGE_DIFF_ROWS)
    await tx
      .insertInto('revision_page_diffs')
      .values(rows.slice(i, i + PAGE_DIFF_ROWS))
      .execute();
  return true;
}

/** One page's block diff in a stored diff, as JSON text; undefined when the pair did not change the page's document. */
export async function findPageDiff(
  db: Db,
  organizationId: string,
  diffId: string,
  pageId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('revision_page_diffs')
    .select(sql<string>`diff::text`.as('diff'))
    .where('organization_id', '=', organizationId)
    .where('diff_id', '=', diffId)
    .where('page_id', '=', pageId)
    .executeTakeFirst();
  return row?.diff;
}

/** The id of the space's own revision at `seq` (a change request's base). */
export async function spaceRevisionIdAt(db: Db, organizationId: string, spaceId: string, seq: number) {
  const row = await db
    .selectFrom('revisions')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where(sql<boolean>`change_request_id is null`)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.id;
}
