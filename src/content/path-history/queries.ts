import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PathMoves } from './moves.js';

/** Old paths a page keeps: enough for a page renamed now and then, bounded for one renamed in a loop. */
export const OLD_PATHS_PER_PAGE = 20;
/** As the table's check: a longer path is no address a reader is sent (the reader's own bound is 2048). */
const MAX_PATH_LENGTH = 2048;
const BATCH_ROWS = 500;

export interface SpacePlace {
  organizationId: string;
  spaceId: string;
}

/**
 * Records what a write of the space's line did to its addresses, in its
 * transaction: the paths pages left lead to them, paths now held and paths of
 * deleted pages lead nowhere, and each moved page keeps its newest old paths.
 */
export async function recordPathMoves(tx: Db, place: SpacePlace, seq: number, moves: PathMoves): Promise<void> {
  const inPlace = tx
    .deleteFrom('page_path_history')
    .where('organization_id', '=', place.organizationId)
    .where('space_id', '=', place.spaceId);
  for (let i = 0; i < moves.deleted.length; i += BATCH_ROWS)
    await inPlace.where('page_id', '=', sql<string>`any(${moves.deleted.slice(i, i + BATCH_ROWS)}::text[])`).execute();
  for (let i = 0; i < moves.taken.length; i += BATCH_ROWS)
    await inPlace.where('path', '=', sql<string>`any(${moves.taken.slice(i, i + BATCH_ROWS)}::text[])`).execute();
  const rows = moves.left
    .filter(({ path }) => path.length > 0 && path.length <= MAX_PATH_LENGTH)
    .map(({ path, pageId }) => ({
      organization_id: place.organizationId,
      space_id: place.spaceId,
      path,
      page_id: pageId,
      revision_seq: seq,
    }));
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = rows.slice(i, i + BATCH_ROWS);
    await tx
      .insertInto('page_path_history')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['organization_id', 'space_id', 'path']).doUpdateSet({
          page_id: (eb) => eb.ref('excluded.page_id'),
          revision_seq: (eb) => eb.ref('excluded.revision_seq'),
        }),
      )
      .execute();
    await pruneOldPaths(
      tx,
      place,
      batch.map((row) => row.page_id),
    );
  }
}

/** Keeps each page's newest OLD_PATHS_PER_PAGE old paths (ties by path, so that the choice is stable). */
async function pruneOldPaths(tx: Db, place: SpacePlace, pageIds: string[]): Promise<void> {
  await sql`
    delete from page_path_history h
    using (
      select path from (
        select path, row_number() over (partition by page_id order by revision_seq desc, path) as n
        from page_path_history
        where organization_id = ${place.organizationId} and space_id = ${place.spaceId}
          and page_id = any(${[...new Set(pageIds)]}::text[])
      ) ranked
      where n > ${OLD_PATHS_PER_PAGE}
    ) old
    where h.organization_id = ${place.organizationId} and h.space_id = ${place.spaceId} and h.path = old.path`.execute(
    tx,
  );
}

/** The page that last left `path` in the space, if any still has it as an old path. */
export async function pageThatLeft(db: Db, place: SpacePlace, path: string): Promise<string | undefined> {
  if (path.length === 0 || path.length > MAX_PATH_LENGTH) return undefined;
  const row = await db
    .selectFrom('page_path_history')
    .select('page_id')
    .where('organization_id', '=', place.organizationId)
    .where('space_id', '=', place.spaceId)
    .where('path', '=', path)
    .executeTakeFirst();
  return row?.page_id;
}

/** `pageThatLeft` of each of `paths`, by path, in one query. */
export async function pagesThatLeft(db: Db, place: SpacePlace, paths: readonly string[]): Promise<Map<string, string>> {
  const asked = paths.filter((path) => path.length > 0 && path.length <= MAX_PATH_LENGTH);
  if (asked.length === 0) return new Map();
  const rows = await db
    .selectFrom('page_path_history')
    .select(['path', 'page_id'])
    .where('organization_id', '=', place.organizationId)
    .where('space_id', '=', place.spaceId)
    .where('path', '=', sql<string>`any(${asked}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.path, row.page_id]));
}
