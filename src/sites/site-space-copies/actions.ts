import { newId } from '../../core/ids.js';
import { slugify, uniqueSlug } from '../../core/slug.js';
import type { Context } from '../../context.js';
import { checkPlacement } from '../../access/placement.js';
import { findSpaceAsMember } from '../../access/spaces.js';
import { copySpace } from '../../spaces/actions.js';
import { findSiteAsAdmin } from '../access.js';
import { presentItem } from '../present.js';
import type { SiteSpace } from '../schemas.js';
import { insertSection } from '../sections/queries.js';
import { insertSiteSpaces } from '../site-spaces/queries.js';
import { editStructure } from '../structure/edit.js';
import { requireRoom, SITE_LIMITS } from '../structure/limits.js';
import { siteSpaceOf } from '../site-spaces/actions.js';
import { loadStructure } from '../structure/queries.js';
import {
  allSiteSpaces,
  buildStructure,
  nextEntryPosition,
  nextSiteSpacePosition,
  siteSpacesIn,
  storedIn,
} from '../structure/tree.js';

/**
 * Copies the space a site space publishes (settings, place and current
 * content, as duplicateSpace does) and publishes the copy in the site: in a
 * new section after the site space's own when it is its section's only one,
 * else beside it in its list (the end of it); with `draft`, the copy and a
 * new section are drafts. The caller must be an admin of the site and may
 * create a space where the original is.
 */
export async function duplicateSiteSpace(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  body: { draft?: boolean | undefined },
): Promise<SiteSpace> {
  const { site } = await findSiteAsAdmin(context, organizationId, siteId, userId, 'Duplicating a site space');
  const original = siteSpaceOf(buildStructure(await loadStructure(context.db, site)), siteSpaceId);
  const { space } = await findSpaceAsMember(context, original.space.id, userId);
  await checkPlacement(context.db, 'Duplicating a space', space.organization_id, space.parent_id ?? undefined, userId);
  const draft = body.draft ?? false;
  let id = '';
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Duplicating a site space',
    async ({ tx, site: locked, structure }) => {
      const siteSpace = siteSpaceOf(structure, siteSpaceId);
      requireRoom(allSiteSpaces(structure).length, SITE_LIMITS.siteSpaces, 'site spaces');
      const sectionId = siteSpace.section_id;
      const alone = sectionId !== null && siteSpacesIn(structure, sectionId).length === 1;
      if (alone) requireRoom(structure.sections.length, SITE_LIMITS.sections, 'sections');
      else requireRoom(siteSpacesIn(structure, sectionId).length, SITE_LIMITS.siteSpacesPerList, 'site spaces');
      const copy = await copySpace(tx, context, space);
      if (alone) {
        const section = structure.sections.find((candidate) => candidate.id === sectionId)!;
        const groupId = section.group_id !== null && structure.groups.has(section.group_id) ? section.group_id : null;
        const newSectionId = newId();
        const paths = new Set(structure.sections.map((candidate) => candidate.path));
        await insertSection(tx, organizationId, {
          id: newSectionId,
          siteId: locked.id,
          title: copy.title.length >= 2 ? copy.title : section.title,
          icon: section.icon,
          path: uniqueSlug(slugify(copy.title, 'section'), paths),
          position: nextEntryPosition(structure, groupId),
          groupId,
          draft,
        });
        [id] = (await insertSiteSpaces(tx, locked, newSectionId, [copy], new Set(), 0, { draft })) as [string];
      } else {
        const taken = new Set(storedIn(structure, sectionId).map((row) => row.path));
        const position = nextSiteSpacePosition(structure, sectionId);
        [id] = (await insertSiteSpaces(tx, locked, sectionId, [copy], taken, position, { draft })) as [string];
      }
    },
    (view) => presentItem(view, { type: 'site-space', id }),
  );
}
