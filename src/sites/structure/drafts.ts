import { BadRequestError } from '../../core/errors.js';
import { isDraftSection, siteSpacesIn, type Structure } from './tree.js';

/**
 * Refuses a structure whose defaults are drafts: the site's default section
 * (itself, or by its group) and the site space a visitor lands on in it (or
 * at the root) are what the site opens on, so they stay live; nor does a
 * live section name a draft as its default while it has live site spaces.
 * A draft is a default only when named so, or when nothing beside it is live.
 */
export function requireLiveDefaults(structure: Structure): void {
  const landing = structure.defaultSection;
  if (landing && isDraftSection(landing, structure.groups)) {
    throw new BadRequestError(
      'The site’s default section cannot be a draft, nor sit in a draft group: make a live section the default first',
    );
  }
  if (structure.defaultSiteSpace.get(landing?.id ?? null)?.draft === true) {
    throw new BadRequestError(
      'The site space the site opens on cannot be a draft: make a live site space the default first',
    );
  }
  for (const section of structure.sections) {
    if (isDraftSection(section, structure.groups)) continue;
    const named = structure.defaultSiteSpace.get(section.id);
    if (named?.draft && siteSpacesIn(structure, section.id).some((siteSpace) => !siteSpace.draft)) {
      throw new BadRequestError(
        `The default site space of the live section "${section.title}" cannot be a draft: make a live one its default first`,
      );
    }
  }
}
