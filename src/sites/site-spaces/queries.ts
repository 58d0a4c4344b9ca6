import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SiteSpacesTable } from '../../db/types.js';
import { newId } from '../../core/ids.js';
import { SPACE_FIELDS, type SpaceFields } from '../../access/space-queries.js';
import { slugify, uniqueSlug } from '../../core/slug.js';

/**
 * The named spaces that are in the organization and not in the trash, by id.
 * Held (FOR SHARE) until the transaction ends: a delete of one under way is
 * waited for and the space left out, and a later one waits, so a space is
 * never put on a site as it goes to the trash.
 */
export async function liveSpacesIn(
  db: Db,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, SpaceFields>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('spaces')
    .select(SPACE_FIELDS)
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .forShare()
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Adds spaces to a list of the site (a section, or the root: null) from
 * `position` on, each with a path made from its title that no other site
 * space of the list has (`taken`, updated as paths are given out), drafts
 * when `draft`. Returns the new site spaces' ids.
 */
export async function insertSiteSpaces(
  db: Db,
  site: { id: string; organization_id: string },
  sectionId: string | null,
  spaces: readonly SpaceFields[],
  taken: Set<string>,
  position: number,
  options: { draft?: boolean } = {},
): Promise<string[]> {
  if (spaces.length === 0) return [];
  const rows = spaces.map((space, index) => {
    const path = uniqueSlug(slugify(space.title, 'space'), taken);
    taken.add(path);
    return {
      id: newId(),
      organization_id: site.organization_id,
      site_id: site.id,
      section_id: sectionId,
      space_id: space.id,
      path,
      position: position + index,
      draft: options.draft ?? false,
    };
  });
  await db.insertInto('site_spaces').values(rows).execute();
  return rows.map((row) => row.id);
}

export async function updateSiteSpace(
  db: Db,
  organizationId: string,
  siteSpaceId: string,
  changes: Updateable<SiteSpacesTable>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('site_spaces')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteSpaceId)
    .execute();
}

export async function deleteSiteSpace(db: Db, organizationId: string, siteSpaceId: string): Promise<void> {
  await db
    .deleteFrom('site_spaces')
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteSpaceId)
    .execute();
}

/** The section no longer names the site space as its default, if it did. */
export async function forgetSectionDefault(
  db: Db,
  organizationId: string,
  sectionId: string,
  siteSpaceId: string,
): Promise<void> {
  await db
    .updateTable('site_sections')
    .set({ default_site_space_id: null })
    .where('organization_id', '=', organizationId)
    .where('id', '=', sectionId)
    .where('default_site_space_id', '=', siteSpaceId)
    .execute();
}
