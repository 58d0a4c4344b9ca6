import type { Db } from '../db/database.js';

/** The id of the space's own revision at `seq`: the one a change request's line is based on. */
export async function findSpaceRevisionIdAt(
  db: Db,
  organizationId: string,
  spaceId: string,
  seq: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('revisions')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where('change_request_id', 'is', null)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.id;
}
