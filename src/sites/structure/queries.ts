import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { SPACE_COLUMNS } from '../../access/space-queries.js';
import type { Ordering } from './moves.js';
import type { GroupRow, LinkRow, SectionRow, SiteSpaceRow, StoredStructure } from './tree.js';

const GROUP_FIELDS = ['id', 'parent_id', 'title', 'icon', 'draft', 'position', 'created_at'] as const;
const SECTION_FIELDS = [
  'id',
  'group_id',
  'title',
  'description',
  'path',
  'condition',
  'icon',
  'position',
  'default_site_space_id',
  'draft',
  'created_at',
] as const;
const LINK_FIELDS = [
  'id',
  'group_id',
  'title',
  'localized_title',
  'description',
  'localized_description',
  'icon',
  'url',
  'draft',
  'condition',
  'position',
  'created_at',
] as const;

/**
 * Everything a site's structure is made of, in four statements. Site spaces
 * whose space is in the trash are set apart: a site shows them again, in
 * their place, when the space is restored.
 */
export async function loadStructure(
  db: Db,
  site: {
    organization_id: string;
    id: string;
    default_section_id: string | null;
    default_site_space_id: string | null;
  },
): Promise<StoredStructure> {
  const [groups, sections, siteSpaces, links] = await Promise.all([
    db
      .selectFrom('site_section_groups')
      .select(GROUP_FIELDS)
      .where('organization_id', '=', site.organization_id)
      .where('site_id', '=', site.id)
      .execute(),
    db
      .selectFrom('site_sections')
      .select(SECTION_FIELDS)
      .where('organization_id', '=', site.organization_id)
      .where('site_id', '=', site.id)
      .execute(),
    loadSiteSpaces(db, site.organization_id, site.id),
    db
      .selectFrom('site_external_links')
      .select(LINK_FIELDS)
      .where('organization_id', '=', site.organization_id)
      .where('site_id', '=', site.id)
      .execute(),
  ]);
  return {
    defaultSectionId: site.default_section_id,
    defaultRootSiteSpaceId: site.default_site_space_id,
    groups: groups satisfies GroupRow[],
    sections: sections satisfies SectionRow[],
    siteSpaces: siteSpaces.filter((row) => row.space.deleted_at === null),
    trashedSiteSpaces: siteSpaces.filter((row) => row.space.deleted_at !== null),
    links: links satisfies LinkRow[],
  };
}

async function loadSiteSpaces(db: Db, organizationId: string, siteId: string): Promise<SiteSpaceRow[]> {
  const rows = await db
    .selectFrom('site_spaces as ss')
    .innerJoin('spaces as s', 's.id', 'ss.space_id')
    .select(SPACE_COLUMNS)
    .select([
      'ss.id as ss_id',
      'ss.section_id as ss_section_id',
      'ss.path as ss_path',
      'ss.condition as ss_condition',
      'ss.draft as ss_draft',
      'ss.hidden as ss_hidden',
      'ss.position as ss_position',
      'ss.created_at as ss_created_at',
      'ss.customization as ss_customization',
    ])
    .where('ss.organization_id', '=', organizationId)
    .where('ss.site_id', '=', siteId)
    .where('s.organization_id', '=', organizationId)
    .execute();
  return rows.map(
    ({
      ss_id,
      ss_section_id,
      ss_path,
      ss_condition,
      ss_draft,
      ss_hidden,
      ss_position,
      ss_created_at,
      ss_customization,
      ...space
    }) => ({
      id: ss_id,
      section_id: ss_section_id,
      path: ss_path,
      condition: ss_condition,
      draft: ss_draft,
      hidden: ss_hidden,
      position: ss_position,
      created_at: ss_created_at,
      customization: ss_customization,
      space,
    }),
  );
}

/**
 * Writes the new order of each list a move touched: each item gets its index
 * as position and the list's parent, in one statement per table.
 */
export async function writeOrderings(db: Db, organizationId: string, orderings: readonly Ordering[]): Promise<void> {
  const siteSpaces: Array<{ id: string; position: number; parent: string | null }> = [];
  const sections: typeof siteSpaces = [];
  const groups: typeof siteSpaces = [];
  const links: typeof siteSpaces = [];
  for (const { container, items } of orderings) {
    const parent = container.kind === 'site-spaces' ? container.sectionId : container.groupId;
    items.forEach((item, position) => {
      const row = { id: item.id, position, parent };
      if (item.type === 'site-space') siteSpaces.push(row);
      else if (item.type === 'site-section') sections.push(row);
      else if (item.type === 'site-external-link') links.push(row);
      else groups.push(row);
    });
  }
  const values = (rows: typeof siteSpaces) =>
    sql.join(rows.map((row) => sql`(${row.id}::text, ${row.position}::integer, ${row.parent}::text)`));
  if (siteSpaces.length > 0) {
    await sql`update site_spaces t set position = v.position, section_id = v.parent
      from (values ${values(siteSpaces)}) as v(id, position, parent)
      where t.id = v.id and t.organization_id = ${organizationId}`.execute(db);
  }
  if (sections.length > 0) {
    await sql`update site_sections t set position = v.position, group_id = v.parent
      from (values ${values(sections)}) as v(id, position, parent)
      where t.id = v.id and t.organization_id = ${organizationId}`.execute(db);
  }
  if (groups.length > 0) {
    await sql`update site_section_groups t set position = v.position, parent_id = v.parent
      from (values ${values(groups)}) as v(id, position, parent)
      where t.id = v.id and t.organization_id = ${organizationId}`.execute(db);
  }
  if (links.length > 0) {
    await sql`update site_external_links t set position = v.position, group_id = v.parent
      from (values ${values(links)}) as v(id, position, parent)
      where t.id = v.id and t.organization_id = ${organizationId}`.execute(db);
  }
}
