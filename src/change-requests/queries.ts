import type { Db } from '../db/database.js';
import type { ChangeRequestStatus } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { changeRequestsWithContext } from '../model/change-requests/queries.js';

/** A page of a space's change requests with one status, newest first, each row carrying the total count. */
export const listChangeRequests = pageQuery({ createdAt: 'cr.created_at', id: 'cr.id' }, (db, spaceId: string, status: ChangeRequestStatus) =>
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
export async function countChangeRequests(db: Db, spaceId: string, status: ChangeRequestStatus, creator: string | undefined): Promise<number> {
  let query = db
    .selectFrom('change_requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('space_id', '=', spaceId)
    .where('status', '=', status);
  if (creator) query = query.where('created_by', '=', creator);
  const { n } = await query.executeTakeFirstOrThrow();
  return Number(n);
}
