import { claimsKey, conditionHolds, type VisitorClaims } from '../adaptive/evaluate.js';
import {
  publishedStructure,
  siteSpacesIn,
  type SectionRow,
  type SiteSpaceRow,
  type StoredStructure,
  type Structure,
} from '../structure/tree.js';

/**
 * The structure this visitor is shown: the published one, less the sections,
 * site spaces and links whose condition does not hold for their claims. What
 * is left out is not in the navigation, not searched, and not found by
 * address. `drafts`: a preview's, which shows draft items too.
 */
export function visibleStructure(
  stored: StoredStructure,
  claims: VisitorClaims,
  options: { drafts?: boolean } = {},
): Structure {
  const key = claimsKey(claims, options.drafts ?? false);
  let made = visibleByStored.get(stored);
  if (!made) {
    made = new Map();
    visibleByStored.set(stored, made);
  }
  const kept = made.get(key);
  if (kept) return kept;
  const structure = publishedStructure(
    {
      ...stored,
      sections: stored.sections.filter((section) => conditionHolds(section.condition, claims)),
      siteSpaces: stored.siteSpaces.filter((siteSpace) => conditionHolds(siteSpace.condition, claims)),
      links: stored.links.filter((link) => conditionHolds(link.condition, claims)),
    },
    options,
  );
  if (made.size >= VISIBLE_PER_STORED) made.clear();
  made.set(key, structure);
  return structure;
}

/**
 * The structures made from each stored one (a site as the reader cache holds
 * it, read again when it changes), by the claims and drafts they were made
 * for: most visitors of a site share one, which was made anew for each page
 * view. A structure is only read once made.
 */
const visibleByStored = new WeakMap<StoredStructure, Map<string, Structure>>();
/** Claim sets kept per stored structure; an adaptive site's visitors may each bring their own. */
const VISIBLE_PER_STORED = 256;

/** Where an address inside a site leads: a section (when the site has sections), a site space, and a page path in it. */
export interface ReaderPlace {
  section: SectionRow | undefined;
  siteSpace: SiteSpaceRow;
  /** The page's path in the space, slugs joined by `/`; empty for the space's first page. */
  pagePath: string;
}

/**
 * Reads `{section path}/{site space path}/{page path}` as GitBook's published
 * addresses have it: the section and site space paths may be left out for the
 * defaults. A first segment that names a section is the section (a page with
 * the same slug is reached under the section's path).
 */
export function locate(structure: Structure, segments: readonly string[]): ReaderPlace | undefined {
  let rest = [...segments];
  let section: SectionRow | undefined;
  if (structure.sections.length > 0) {
    section = structure.sections.find((candidate) => candidate.path === rest[0]);
    if (section) rest = rest.slice(1);
    else section = structure.defaultSection;
    if (!section) return undefined;
  }
  const sectionId = section?.id ?? null;
  const siteSpaces = siteSpacesIn(structure, sectionId);
  let siteSpace = siteSpaces.find((candidate) => candidate.path === rest[0]);
  if (siteSpace) rest = rest.slice(1);
  else siteSpace = structure.defaultSiteSpace.get(sectionId);
  if (!siteSpace) return undefined;
  return { section, siteSpace, pagePath: rest.join('/') };
}

/** The path segments of a site space's address in the site: its section's path, then its own. */
export function siteSpacePaths(structure: Structure, siteSpace: SiteSpaceRow): string[] {
  const section =
    siteSpace.section_id !== null
      ? structure.sections.find((candidate) => candidate.id === siteSpace.section_id)
      : null;
  return section ? [section.path, siteSpace.path] : [siteSpace.path];
}
