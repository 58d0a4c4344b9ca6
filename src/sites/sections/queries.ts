import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SiteSectionsTable } from '../../db/types.js';

export interface NewSection {
  id: string;
  siteId: string;
  title: string;
  icon?: string | null;
  path: string;
  position: number;
  defaultSiteSpaceId?: string | null;
  groupId?: string | null;
  draft?: boolean;
}

/** Adds a section to the organization's site (the site's composite key names the organization). */
export async function insertSection(db: Db, organizationId: string, section: NewSection): Promise<void> {
  await db
    .insertInto('site_sections')
    .values({
      id: section.id,
      organization_id: organizationId,
      site_id: section.siteId,
      title: section.title,
      icon: section.icon ?? null,
      path: section.path,
      position: section.position,
      default_site_space_id: section.defaultSiteSpaceId ?? null,
      group_id: section.groupId ?? null,
      draft: section.draft ?? false,
    })
    .execute();
}

export async function updateSection(
  db: Db,
  organizationId: string,
  sectionId: string,
  changes: Updateable<SiteSectionsTable>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('site_sections')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', sectionId)
    .execute();
}

export async function deleteSection(db: Db, organizationId: string, sectionId: string): Promise<void> {
  await db
    .deleteFrom('site_sections')
    .where('organization_id', '=', organizationId)
    .where('id', '=', sectionId)
    .execute();
}

/**
 * Puts the site spaces at the root of the organization's site into the
 * section, which the site's first section becomes: the site itself no longer
 * names a default site space, its section does.
 */
export async function gatherRootIntoSection(
  db: Db,
  organizationId: string,
  siteId: string,
  sectionId: string,
): Promise<void> {
  await db
    .updateTable('site_spaces')
    .set({ section_id: sectionId })
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('section_id', 'is', null)
    .execute();
  await db
    .updateTable('sites')
    .set({ default_site_space_id: null })
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .execute();
}
