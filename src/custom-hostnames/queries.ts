import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { lockName } from '../db/name-locks.js';
import type { HostnameStatus } from '../db/types.js';

/** A site's claim of a hostname, with what proves it. */
export interface HostnameClaim {
  organization_id: string;
  site_id: string;
  hostname: string;
  token: string;
  status: HostnameStatus;
  checked_at: Date | null;
  verified_at: Date | null;
}

/** A claim's columns as a site row holds them (its hostname columns are nullable; a claim's are set). */
const CLAIM_COLUMNS = [
  'organization_id',
  'id as site_id',
  sql<string>`hostname`.as('hostname'),
  sql<string>`hostname_token`.as('token'),
  sql<HostnameStatus>`hostname_status`.as('status'),
  'hostname_checked_at as checked_at',
  'hostname_verified_at as verified_at',
] as const;

function claims(db: Db) {
  return db.selectFrom('sites').select(CLAIM_COLUMNS);
}

/**
 * The claim of the hostname by a site of an organization `userId` administers
 * (an active admin member): the live one first, else the latest. Claims of
 * other organizations are not the caller's to see.
 */
export async function findAdministeredClaim(
  db: Db,
  hostname: string,
  userId: string,
): Promise<HostnameClaim | undefined> {
  return claims(db)
    .where('hostname', '=', hostname)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('organization_members as m')
          .select(sql`1`.as('one'))
          .whereRef('m.organization_id', '=', 'sites.organization_id')
          .where('m.user_id', '=', userId)
          .where('m.role', '=', 'admin')
          .where('m.disabled', '=', false),
      ),
    )
    .orderBy(sql`hostname_verified_at IS NULL`)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .executeTakeFirst();
}

/** The site's claim, locked for the rest of the transaction; undefined when it no longer claims this hostname. */
export async function lockClaim(
  tx: Db,
  organizationId: string,
  siteId: string,
  hostname: string,
): Promise<HostnameClaim | undefined> {
  return claims(tx)
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .where('hostname', '=', hostname)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** The claim that holds the hostname live, if another site's, locked. */
export async function lockLiveHolder(tx: Db, hostname: string, siteId: string): Promise<HostnameClaim | undefined> {
  return claims(tx)
    .where('hostname', '=', hostname)
    .where('hostname_verified_at', 'is not', null)
    .where('id', '<>', siteId)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/**
 * One claim of a hostname at a time is proven or taken: the lock lasts to
 * the end of the transaction, whichever instance holds it.
 */
export async function lockHostname(tx: Db, hostname: string): Promise<void> {
  await lockName(tx, 'custom-hostname', hostname);
}

/** Records what a look-up found: `live` sets when it was proven (unless it already was), any other status clears it. */
export async function setClaimStatus(
  tx: Db,
  claim: Pick<HostnameClaim, 'organization_id' | 'site_id' | 'hostname'>,
  status: HostnameStatus,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('sites')
    .set({
      hostname_status: status,
      hostname_checked_at: now,
      hostname_verified_at: status === 'live' ? sql<Date>`coalesce(hostname_verified_at, ${now}::timestamptz)` : null,
    })
    .where('organization_id', '=', claim.organization_id)
    .where('id', '=', claim.site_id)
    .where('hostname', '=', claim.hostname)
    .execute();
}

/** Takes the hostname off the site: nothing of the claim is kept. */
export async function removeClaim(
  tx: Db,
  claim: Pick<HostnameClaim, 'organization_id' | 'site_id' | 'hostname'>,
  now: Date,
) {
  const result = await tx
    .updateTable('sites')
    .set({
      hostname: null,
      hostname_token: null,
      hostname_status: null,
      hostname_checked_at: null,
      hostname_verified_at: null,
      updated_at: now,
    })
    .where('organization_id', '=', claim.organization_id)
    .where('id', '=', claim.site_id)
    .where('hostname', '=', claim.hostname)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Takes the `limit` claims checked longest ago (never checked first) and
 * marks them checked now, in one statement; rows another instance is taking
 * at the same moment are skipped, so that several instances share the work.
 * The claims' locks here and below are FOR NO KEY UPDATE, as an update of
 * their columns takes: a row written beside the site (a reader's page view,
 * whose foreign key holds the site FOR KEY SHARE) neither hides a site from
 * the check nor makes it wait.
 */
export async function takeClaimsToCheck(db: Db, limit: number, now: Date): Promise<HostnameClaim[]> {
  const due = db
    .selectFrom('sites')
    .select('id')
    .where('hostname', 'is not', null)
    .orderBy(sql`hostname_checked_at NULLS FIRST`)
    .limit(limit)
    .forNoKeyUpdate()
    .skipLocked();
  const rows = await db
    .updateTable('sites')
    .set({ hostname_checked_at: now })
    .where('id', 'in', due)
    .where('hostname', 'is not', null)
    .returning(CLAIM_COLUMNS)
    .execute();
  return rows;
}
