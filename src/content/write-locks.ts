import type { Db } from '../db/database.js';
import type { SpacesTable } from '../db/types.js';
import { lockChangeRequest } from './change-request-queries.js';

/**
 * How the space's row is locked: `update` serialises the writers of the whole
 * space (merges, status changes); `key-share` only keeps the space from
 * changing under rows that reference it, and leaves the space's other change
 * requests free.
 */
export type SpaceLock = 'update' | 'key-share';

type SpaceColumn = Extract<keyof SpacesTable, string>;

/**
 * Locks the space's row (in `spaceLock` mode, reading `columns` of it), then
 * the change request's row for update, and gives both as they are now.
 *
 * Every transaction that locks both rows takes them through here, in this
 * order: a merge locks the space to build on its head, then the change
 * request; a writer that took the change request first and then needed the
 * space (a new revision's reference to the space takes a key-share lock on it)
 * would wait for the merge while the merge waits for it, a deadlock. In one
 * order, one simply waits for the other.
 */
export async function lockSpaceThenChangeRequest<C extends SpaceColumn = 'id'>(
  db: Db,
  spaceId: string,
  changeRequestId: string,
  spaceLock: SpaceLock,
  columns: readonly C[] = ['id' as C],
) {
  const query = db.selectFrom('spaces').select(columns).where('id', '=', spaceId);
  const space = await (spaceLock === 'update' ? query.forUpdate() : query.forKeyShare()).executeTakeFirstOrThrow();
  const changeRequest = await lockChangeRequest(db, changeRequestId);
  return { space, changeRequest };
}

/** Locks the space's row for update: the writers of its own line (merges, imports) go one at a time. */
export async function lockSpaceLine(db: Db, spaceId: string) {
  return db
    .selectFrom('spaces')
    .select(['id', 'revision_id'])
    .where('id', '=', spaceId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}
