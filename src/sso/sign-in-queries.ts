import type { Db } from '../db/database.js';

/**
 * The user's standing for signing in through one organization's provider:
 * whether they are a member there and not disabled, and in how many other
 * organizations they are (a session bound to one organization holds only
 * while there are none).
 */
export async function membershipStanding(db: Db, organizationId: string, userId: string) {
  const rows = await db
    .selectFrom('organization_members')
    .select(['organization_id', 'disabled'])
    .where('user_id', '=', userId)
    .execute();
  const own = rows.find((row) => row.organization_id === organizationId);
  return {
    member: own !== undefined && !own.disabled,
    disabled: own?.disabled ?? false,
    elsewhere: rows.filter((row) => row.organization_id !== organizationId).length,
  };
}
