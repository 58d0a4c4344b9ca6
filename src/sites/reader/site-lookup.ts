import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { SITE_FIELDS, type SiteRow } from '../queries.js';

/** The longest name a reader's address may carry: a basename (100) or a site id (20). */
const MAX_SITE_NAME = 100;

/**
 * The site an address names, `/s/{name}`: by basename (any case, as they are
 * unique), else by id, in one statement. Undefined for no such site.
 */
export async function findSiteByName(db: Db, name: string): Promise<SiteRow | undefined> {
  if (name.length === 0 || name.length > MAX_SITE_NAME) return undefined;
  return (
    db
      .selectFrom('sites')
      .select(SITE_FIELDS)
      .where((eb) => eb.or([eb(eb.fn('lower', ['basename']), '=', name.toLowerCase()), eb('id', '=', name)]))
      // A basename that happens to be another site's id names the site with that basename.
      .orderBy(sql`basename is not null and lower(basename) = ${name.toLowerCase()}`, 'desc')
      .limit(1)
      .executeTakeFirst()
  );
}
