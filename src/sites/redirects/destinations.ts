import type { Context } from '../../context.js';
import { BadRequestError } from '../../core/errors.js';
import { spaceContent } from '../../reader/page-content.js';
import { allSiteSpaces, type Structure } from '../structure/tree.js';
import type { RedirectValues } from './queries.js';
import type { InputDestination } from './schemas.js';

type StoredDestination = Pick<
  RedirectValues,
  'destination_kind' | 'site_section_id' | 'site_space_id' | 'page_id' | 'url'
>;

const none = { site_section_id: null, site_space_id: null, page_id: null, url: null };

/**
 * The columns of a destination, checked against the site: its section, site
 * space or page must be the site's (a 400 names what is missing), and a page
 * named by its path is stored as the page it names now.
 */
export async function storedDestination(
  context: Context,
  structure: Structure,
  destination: InputDestination,
): Promise<StoredDestination> {
  switch (destination.kind) {
    case 'external':
      return { ...none, destination_kind: 'external', url: destination.url };
    case 'site-section': {
      if (!structure.sections.some((section) => section.id === destination.siteSectionId))
        throw new BadRequestError('body/destination/siteSectionId is not a section of this site');
      return { ...none, destination_kind: 'site-section', site_section_id: destination.siteSectionId };
    }
    case 'site-space': {
      siteSpaceOf(structure, destination.siteSpaceId);
      return { ...none, destination_kind: 'site-space', site_space_id: destination.siteSpaceId };
    }
    case 'site-page': {
      const siteSpace = siteSpaceOf(structure, destination.siteSpaceId);
      const { tree } = await spaceContent(context, siteSpace.space);
      if (!tree.pages.has(destination.pageId))
        throw new BadRequestError('body/destination/pageId is not a page of the site space');
      return { ...none, destination_kind: 'site-page', site_space_id: siteSpace.id, page_id: destination.pageId };
    }
    case 'path': {
      const siteSpace = allSiteSpaces(structure).find((candidate) => candidate.space.id === destination.spaceId);
      if (!siteSpace) throw new BadRequestError('body/destination/spaceId is not a space published in this site');
      const { tree } = await spaceContent(context, siteSpace.space);
      const page = tree.pageAtPath(
        destination.path
          .split('/')
          .filter((slug) => slug !== '')
          .join('/'),
      );
      if (!page) throw new BadRequestError('body/destination/path names no page of the space');
      return { ...none, destination_kind: 'site-page', site_space_id: siteSpace.id, page_id: page.pageId };
    }
  }
}

function siteSpaceOf(structure: Structure, siteSpaceId: string) {
  const siteSpace = allSiteSpaces(structure).find((candidate) => candidate.id === siteSpaceId);
  if (!siteSpace) throw new BadRequestError('body/destination/siteSpaceId is not a site space of this site');
  return siteSpace;
}
