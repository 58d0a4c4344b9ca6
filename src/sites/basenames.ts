import { sql } from 'kysely';
import { BadRequestError, ConflictError } from '../core/errors.js';
import { looksLikeId } from '../core/ids.js';
import type { Db } from '../db/database.js';
import { lockName } from '../db/name-locks.js';

/**
 * Gives `site` the basename `wanted` inside the caller's transaction, or
 * refuses it: a name in the id format (400), one another site goes by, or
 * one another organization's site went by once (409: a published address
 * never changes owner). A name the organization retired comes back to it.
 * The name the site goes by until now is retired to its organization.
 */
export async function claimBasename(
  tx: Db,
  site: { id: string; organization_id: string; basename: string | null },
  wanted: string,
  now: Date,
): Promise<void> {
  if (looksLikeId(wanted)) {
    throw new BadRequestError(
      `body/basename: "${wanted}" looks like a site id (20 letters and digits); add a hyphen or change its length`,
    );
  }
  const name = wanted.toLowerCase();
  if (site.basename !== null && site.basename.toLowerCase() === name) return;
  // Claims and retirements of one name wait for each other, so that two transactions never both see it free.
  // In one order, so that two sites swapping names wait rather than deadlock.
  for (const held of [name, site.basename?.toLowerCase()].filter((one) => one !== undefined).sort()) {
    await lockName(tx, 'site-basename', held);
  }
  const taken = await tx
    .selectFrom('sites')
    .select('id')
    .where(sql<string>`lower(basename)`, '=', name)
    .where('id', '<>', site.id)
    .executeTakeFirst();
  if (taken) throw new ConflictError(`body/basename: another site already goes by "${wanted}"`);
  const retired = await tx
    .selectFrom('retired_site_addresses')
    .select('organization_id')
    .where('basename', '=', name)
    .executeTakeFirst();
  if (retired && retired.organization_id !== site.organization_id) {
    throw new ConflictError(`body/basename: "${wanted}" was another organization’s published address`);
  }
  if (retired) await unretire(tx, site.organization_id, name);
  if (site.basename !== null) await retireBasename(tx, site, site.id, now);
}

/**
 * Keeps the basename `site` goes by (if any) as its organization's retired
 * address, leading to `leadsTo` (the site, or null when it is deleted).
 */
export async function retireBasename(
  tx: Db,
  site: { organization_id: string; basename: string | null },
  leadsTo: string | null,
  now: Date,
): Promise<void> {
  if (site.basename === null) return;
  const name = site.basename.toLowerCase();
  await lockName(tx, 'site-basename', name);
  await tx
    .insertInto('retired_site_addresses')
    .values({ organization_id: site.organization_id, basename: name, site_id: leadsTo, retired_at: now })
    .onConflict((oc) =>
      oc
        .column('basename')
        .doUpdateSet({ site_id: leadsTo, retired_at: now })
        // Only ever the organization's own row: a name is retired by the organization that held it.
        .where('retired_site_addresses.organization_id', '=', site.organization_id),
    )
    .execute();
}

async function unretire(tx: Db, organizationId: string, name: string): Promise<void> {
  await tx
    .deleteFrom('retired_site_addresses')
    .where('organization_id', '=', organizationId)
    .where('basename', '=', name)
    .execute();
}

/**
 * The site a retired address leads to, by that name, in any case: the
 * organization's site that last went by it, if it still exists.
 */
export async function findRetiredAddress(
  db: Db,
  name: string,
): Promise<{ organization_id: string; site_id: string } | undefined> {
  const row = await db
    .selectFrom('retired_site_addresses')
    .select(['organization_id', 'site_id'])
    .where('basename', '=', name.toLowerCase())
    .where('site_id', 'is not', null)
    .executeTakeFirst();
  return row && row.site_id !== null ? { organization_id: row.organization_id, site_id: row.site_id } : undefined;
}
