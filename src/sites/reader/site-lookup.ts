import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { looksLikeId } from '../../core/ids.js';
import { findRetiredAddress } from '../basenames.js';
import { SITE_FIELDS, type SiteRow } from '../queries.js';

/** The longest name a reader's address may carry: a basename (100) or a site id (20). */
const MAX_SITE_NAME = 100;

/**
 * The site an address names, `/s/{name}`: a name in the id format by id
 * only (no basename may take that form), any other by basename, in any case
 * as they are unique. Undefined for no such site.
 */
export async function findSiteByName(db: Db, name: string): Promise<SiteRow | undefined> {
  if (name.length === 0 || name.length > MAX_SITE_NAME) return undefined;
  const named = db.selectFrom('sites').select(SITE_FIELDS);
  return looksLikeId(name)
    ? named.where('id', '=', name).executeTakeFirst()
    : named.where(sql<string>`lower(basename)`, '=', name.toLowerCase()).executeTakeFirst();
}

/**
 * The site a retired address leads to, `/s/{name}` where no site goes by
 * `name` any longer: the site of the same organization that last went by it,
 * while it exists and is published (an unpublished one is nobody's to find).
 */
export async function findSiteRetiredAt(db: Db, name: string): Promise<SiteRow | undefined> {
  if (name.length === 0 || name.length > MAX_SITE_NAME) return undefined;
  const retired = await findRetiredAddress(db, name);
  if (!retired) return undefined;
  return db
    .selectFrom('sites')
    .select(SITE_FIELDS)
    .where('organization_id', '=', retired.organization_id)
    .where('id', '=', retired.site_id)
    .where('published', '=', true)
    .executeTakeFirst();
}
