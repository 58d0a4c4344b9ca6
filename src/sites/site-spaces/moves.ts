import { ConflictError } from '../../core/errors.js';
import type { StructureEdit } from '../structure/edit.js';
import type { Ordering } from '../structure/moves.js';
import { writeOrderings } from '../structure/queries.js';
import { allSiteSpaces, storedIn, type Structure } from '../structure/tree.js';
import { uniqueSlug } from '../../core/slug.js';
import { forgetSectionDefault, updateSiteSpace } from './queries.js';

/**
 * Writes a site-space move. Into another section, the space must not be
 * there already (409); a path taken there gets a free suffix; and the
 * section it leaves no longer names it as its default.
 */
export async function moveSiteSpaceTo(edit: StructureEdit, siteSpaceId: string, orderings: Ordering[]): Promise<void> {
  const { tx, site, structure } = edit;
  const moved = allSiteSpaces(structure).find((siteSpace) => siteSpace.id === siteSpaceId)!;
  const destination = orderings[0]!.container;
  if (destination.kind === 'site-spaces' && destination.sectionId !== moved.section_id) {
    const into = destination.sectionId;
    requireSpaceAbsent(structure, into, moved.space.id, 'in that section');
    const taken = new Set(storedIn(structure, into).map((row) => row.path));
    if (taken.has(moved.path)) {
      await updateSiteSpace(tx, site.organization_id, siteSpaceId, { path: uniqueSlug(moved.path, taken) });
    }
    if (moved.section_id !== null) {
      await forgetSectionDefault(tx, site.organization_id, moved.section_id, siteSpaceId);
    }
  }
  await writeOrderings(tx, site.organization_id, orderings);
}

/** A space is published once per list (a section, or the root); trashed entries count, since they come back. */
export function requireSpaceAbsent(structure: Structure, sectionId: string | null, spaceId: string, where: string) {
  if (storedIn(structure, sectionId).some((row) => row.spaceId === spaceId)) {
    throw new ConflictError(`The space "${spaceId}" is already published ${where}`);
  }
}
