import type { Db } from '../db/database.js';
import { SPACE_FIELDS, type SpaceFields } from '../model/access/space-queries.js';

/** How many spaces an organization's or collection's page lists: the newest ones. */
export const LISTED_SPACES = 200;

/** The organization's live spaces, newest first, within `parentId` when given (a collection). */
export async function listedSpaces(
  db: Db,
  organizationId: string,
  parentId: string | undefined,
): Promise<SpaceFields[]> {
  let query = db
    .selectFrom('spaces')
    .select(SPACE_FIELDS)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  if (parentId !== undefined) query = query.where('parent_id', '=', parentId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(LISTED_SPACES).execute();
}

export async function findOrganizationTitle(db: Db, organizationId: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('title').where('id', '=', organizationId).executeTakeFirst();
  return row?.title;
}

export async function findSiteSummary(db: Db, organizationId: string, siteId: string) {
  return db
    .selectFrom('sites')
    .select(['id', 'title', 'basename', 'published', 'visibility'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
}

export async function listSites(db: Db, organizationId: string) {
  return db
    .selectFrom('sites')
    .select(['id', 'title', 'basename', 'published', 'visibility'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .limit(LISTED_SPACES)
    .execute();
}

export async function findSpec(db: Db, organizationId: string, slug: string) {
  return db
    .selectFrom('openapi_specs')
    .select(['slug', 'source_url', 'processing_state', 'last_processed_at'])
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** An integration by name: a public one, or one of an organization the caller belongs to. */
export async function findIntegration(db: Db, name: string) {
  return db
    .selectFrom('integrations')
    .select(['name', 'title', 'description', 'summary', 'visibility', 'organization_id'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** The organizations a user is an active member of, by title: the app's home lists them. */
export async function listMemberOrganizations(db: Db, userId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['o.id', 'o.title'])
    .where('m.user_id', '=', userId)
    .where('m.disabled', '=', false)
    .orderBy('o.title')
    .limit(500)
    .execute();
}
