import type { Context } from '../context.js';
import type { PageState } from '../content/tree.js';
import { computedView, shownPageAt, type ShownPage } from '../reader/computed-pages.js';
import { spaceContent, type SpaceContent } from '../reader/page-content.js';
import { siteAddress as publishedSiteAddress } from '../sites/addresses.js';
import { redirectAt } from '../sites/redirects/reader.js';
import { admit, claimsCookie, visitorCookie, type ReaderRequest } from '../sites/reader/audience.js';
import { locate, type ReaderPlace } from '../sites/reader/place.js';
import { allSiteSpaces } from '../sites/structure/tree.js';
import { readerSite } from '../sites/reader/site-cache.js';
import { findSiteRetiredAt } from '../sites/reader/site-lookup.js';
import { firstPage, openSite, pageAddress, type OpenSite } from '../sites/reader/site-reader.js';
import type { SiteAddress } from './addresses.js';

/** Credentials a caller hands over for the visitor, beside those in the address. */
export interface VisitorCredentials {
  jwtToken?: string | undefined;
  unsignedClaims?: Record<string, unknown> | undefined;
}

/** Where a published address leads, as the site's reader would serve it to this visitor. */
export type SiteLookup =
  | {
      kind: 'content';
      open: OpenSite;
      place: ReaderPlace;
      content: SpaceContent;
      /** The page the address shows: a computed page's own for a page it made. */
      page: PageState;
      /** How many of the address's segments name the section and site space (the rest is the page's path). */
      placeSegments: number;
      canonicalUrl: string;
    }
  | { kind: 'redirect'; target: 'content' | 'external'; siteId: string; location: string }
  /** A visitor-auth site the visitor has no valid token for. */
  | { kind: 'sign-in'; siteId: string; fallbackUrl: string | null }
  | { kind: 'none' };

const NONE = { kind: 'none' } as const;

/**
 * Resolves a site address with the reader's own steps: the site by name
 * (or a retired name, to where it is read now), the visitor admitted as the
 * reader admits them (share key, signed token, unsigned claims), the place
 * in what they are shown, the page there, and else the site's redirects.
 */
export async function lookUpSiteAddress(
  context: Context,
  address: SiteAddress,
  credentials: VisitorCredentials,
): Promise<SiteLookup> {
  const read = await readerSite(context, address.name);
  if (!read) {
    const moved = address.viaHostname ? undefined : await findSiteRetiredAt(context.db, address.name);
    if (!moved) return NONE;
    const location = `${publishedSiteAddress(context.urls, moved)}${address.rawPath}`;
    return { kind: 'redirect', target: 'content', siteId: moved.id, location };
  }
  const { site } = read;
  const cookies: ReaderRequest['cookies'] = {};
  if (credentials.jwtToken !== undefined) cookies[visitorCookie(site)] = credentials.jwtToken;
  const unsigned = booleanClaims(credentials.unsignedClaims);
  if (unsigned) cookies[claimsCookie(site)] = unsigned;
  let admission = await admit(context, site, { query: address.query, cookies });
  // What the address carried, the reader keeps in cookies and asks again without: so does this.
  if (admission.kind === 'remember') {
    for (const kept of admission.cookies) cookies[kept.name] = kept.value;
    admission = await admit(context, site, { query: {}, cookies });
  }
  if (admission.kind === 'sign-in') return { kind: 'sign-in', siteId: site.id, fallbackUrl: admission.fallbackUrl };
  if (admission.kind !== 'admitted') return NONE;

  const open = openSite(read, admission.visitor);
  const [tilde, go, spaceId, pageId] = address.segments;
  if (tilde === '~' && go === 'go' && spaceId && pageId && address.segments.length === 4) {
    const location = await pageByIds(context, open, spaceId, pageId);
    return location ? { kind: 'redirect', target: 'content', siteId: site.id, location } : NONE;
  }
  const place = locate(open.structure, address.segments);
  const shown = place && (await shownAt(context, place));
  if (!place || !shown) {
    const redirect = await redirectAt(context, open, address.rawPath);
    if (!redirect) return NONE;
    const target = redirect.location.startsWith(publishedSiteAddress(context.urls, site)) ? 'content' : 'external';
    return { kind: 'redirect', target, siteId: site.id, location: redirect.location };
  }
  const { content, page, path } = shown;
  const pageSegments = place.pagePath === '' ? 0 : place.pagePath.split('/').length;
  return {
    kind: 'content',
    open,
    place,
    content,
    page,
    placeSegments: address.segments.length - pageSegments,
    canonicalUrl: pageAddress(context, open, place.siteSpace, path),
  };
}

/** Where the reader's address of a page by its ids (`~/go/{space}/{page}`) leads: the page's own address. */
async function pageByIds(context: Context, open: OpenSite, spaceId: string, pageId: string) {
  const siteSpace = allSiteSpaces(open.structure).find((candidate) => candidate.space.id === spaceId);
  if (!siteSpace) return undefined;
  const { tree } = await spaceContent(context, siteSpace.space);
  return tree.pages.has(pageId) ? pageAddress(context, open, siteSpace, tree.pathOf(pageId)) : undefined;
}

/** The page a place shows, as the reader finds it: the space's first readable page for the space's own address. */
async function shownAt(
  context: Context,
  place: ReaderPlace,
): Promise<{ content: SpaceContent; page: PageState; path: string } | undefined> {
  const content = await spaceContent(context, place.siteSpace.space);
  if (place.pagePath === '') {
    const first = firstPage(content);
    return first && { content, page: first, path: '' };
  }
  const view = await computedView(context, content);
  const shown: ShownPage | undefined = shownPageAt(content.tree, view, place.pagePath);
  if (!shown) return undefined;
  return shown.kind === 'page'
    ? { content, page: shown.page, path: content.tree.pathOf(shown.page.pageId) }
    : { content, page: shown.origin, path: shown.path };
}

const MAX_UNSIGNED_CLAIMS = 32;

/** Unsigned claims as the reader keeps them: named booleans, at most 32 (audience.ts reads only booleans). */
function booleanClaims(claims: Record<string, unknown> | undefined): string | undefined {
  if (!claims) return undefined;
  const kept = Object.entries(claims)
    .filter(([name, value]) => typeof value === 'boolean' && /^[A-Za-z_]\w{0,63}$/.test(name))
    .slice(0, MAX_UNSIGNED_CLAIMS);
  return kept.length > 0 ? JSON.stringify(Object.fromEntries(kept)) : undefined;
}
