import type { Urls } from '../../core/urls.js';
import { siteAddress } from '../addresses.js';
import { siteSpacePaths } from '../reader/place.js';
import { allSiteSpaces, type Structure } from '../structure/tree.js';
import type { RedirectRow } from './queries.js';
import type { RedirectDestination, SiteRedirect } from './schemas.js';

export function presentDestination(row: RedirectRow): RedirectDestination {
  switch (row.destination_kind) {
    case 'site-section':
      return { kind: 'site-section', siteSectionId: row.site_section_id! };
    case 'site-space':
      return { kind: 'site-space', siteSpaceId: row.site_space_id! };
    case 'site-page':
      return { kind: 'site-page', siteSpaceId: row.site_space_id!, pageId: row.page_id! };
    default:
      return { kind: 'external', url: row.url! };
  }
}

export function presentRedirect(row: RedirectRow): SiteRedirect {
  return {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    draft: row.draft,
    captureWildcard: row.capture_wildcard,
    permanent: row.permanent,
    destination: presentDestination(row),
    createdAt: row.created_at.toISOString(),
    ...(row.updated_at === null ? {} : { updatedAt: row.updated_at.toISOString() }),
  };
}

type AddressedSite = Parameters<typeof siteAddress>[1];

/**
 * Where a redirect sends a visitor who asked for `path`: its destination's
 * address, with what the source's `*` matched appended when it captures it.
 * A destination the visitor cannot see (a site space whose space is in the
 * trash, one their claims hide) leads to the site's home.
 */
export function redirectTarget(
  urls: Urls,
  site: AddressedSite,
  structure: Structure,
  row: RedirectRow,
  path: string,
): string {
  const base = destinationAddress(urls, site, structure, row) ?? siteAddress(urls, site);
  if (!row.capture_wildcard || !row.source.endsWith('*')) return base;
  const rest = path.slice(row.source.length - 1);
  if (rest === '') return base;
  const url = new URL(base);
  const joiner = row.source.endsWith('/*') && !url.pathname.endsWith('/') ? '/' : '';
  url.pathname = `${url.pathname}${joiner}${rest}`;
  return url.toString();
}

function destinationAddress(
  urls: Urls,
  site: AddressedSite,
  structure: Structure,
  row: RedirectRow,
): string | undefined {
  if (row.destination_kind === 'external') return row.url!;
  if (row.destination_kind === 'site-section') {
    const section = structure.sections.find((candidate) => candidate.id === row.site_section_id);
    return section && siteAddress(urls, site, section.path);
  }
  const siteSpace = allSiteSpaces(structure).find((candidate) => candidate.id === row.site_space_id);
  if (!siteSpace) return undefined;
  // A page by its ids: the reader finds its current path when the address is followed.
  if (row.destination_kind === 'site-page') return siteAddress(urls, site, '~', 'go', siteSpace.space.id, row.page_id!);
  return siteAddress(urls, site, ...siteSpacePaths(structure, siteSpace));
}
