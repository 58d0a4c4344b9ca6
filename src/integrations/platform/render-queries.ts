import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** The organization of a site, by its id alone (a render's context names no organization). */
export async function siteOrganization(db: Db, siteId: string): Promise<string | undefined> {
  const row = await db.selectFrom('sites').select('organization_id').where('id', '=', siteId).executeTakeFirst();
  return row?.organization_id;
}

/**
 * The integration's installation on the organization, when it is also on the
 * space or site named (for a render there).
 */
export async function findRenderInstallation(
  db: Db,
  integrationId: string,
  where: { organizationId: string; spaceId?: string | undefined; siteId?: string | undefined },
): Promise<{ id: string; status: string } | undefined> {
  let query = db
    .selectFrom('integration_installations as ii')
    .select(['ii.id', 'ii.status'])
    .where('ii.organization_id', '=', where.organizationId)
    .where('ii.integration_id', '=', integrationId);
  if (where.spaceId !== undefined) {
    const spaceId = where.spaceId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('integration_space_installations as ci')
          .select(sql`1`.as('one'))
          .whereRef('ci.installation_id', '=', 'ii.id')
          .whereRef('ci.organization_id', '=', 'ii.organization_id')
          .where('ci.space_id', '=', spaceId),
      ),
    );
  }
  if (where.siteId !== undefined) {
    const siteId = where.siteId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('integration_site_installations as ci')
          .select(sql`1`.as('one'))
          .whereRef('ci.installation_id', '=', 'ii.id')
          .whereRef('ci.organization_id', '=', 'ii.organization_id')
          .where('ci.site_id', '=', siteId),
      ),
    );
  }
  return query.executeTakeFirst();
}
