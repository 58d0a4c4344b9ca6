import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SiteSectionGroupsTable } from '../../db/types.js';

export interface NewGroup {
  id: string;
  siteId: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  draft: boolean;
  position: number;
}

/** Adds a section group to the organization's site (the site's composite key names the organization). */
export async function insertGroup(db: Db, organizationId: string, group: NewGroup): Promise<void> {
  await db
    .insertInto('site_section_groups')
    .values({
      id: group.id,
      organization_id: organizationId,
      site_id: group.siteId,
      parent_id: group.parentId,
      title: group.title,
      icon: group.icon,
      draft: group.draft,
      position: group.position,
    })
    .execute();
}

export async function updateGroup(
  db: Db,
  organizationId: string,
  groupId: string,
  changes: Updateable<SiteSectionGroupsTable>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('site_section_groups')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', groupId)
    .execute();
}

export async function deleteGroup(db: Db, organizationId: string, groupId: string): Promise<void> {
  await db
    .deleteFrom('site_section_groups')
    .where('organization_id', '=', organizationId)
    .where('id', '=', groupId)
    .execute();
}

/** Deletes every section group of the organization's site. */
export async function deleteGroupsOfSite(db: Db, organizationId: string, siteId: string): Promise<void> {
  await db
    .deleteFrom('site_section_groups')
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .execute();
}
