import { createHash } from 'node:crypto';
import type { Context } from '../context.js';
import { NotFoundError } from '../core/errors.js';
import { ownAddress, parseHttpUrl } from './addresses.js';
import type { PublishedSiteContentLookup } from './schemas.js';
import { lookUpSiteAddress, type SiteLookup, type VisitorCredentials } from './site-lookup.js';

export const noPublishedContent = () => new NotFoundError('No published content found for the URL');

/**
 * What a published address shows, as its site's reader shows it to the
 * visitor these credentials (and the address's own) make: the site, section,
 * site space, space and page path; where a redirect of the site, or a site's
 * retired name, sends them; or for a visitor-auth site without a valid token,
 * its sign-in address when asked to (`redirectOnError`). Anything the visitor
 * could not read is a 404, as an address with no content is.
 */
export async function resolvePublishedUrl(
  context: Context,
  rawUrl: string,
  credentials: VisitorCredentials,
  redirectOnError: boolean,
): Promise<PublishedSiteContentLookup> {
  const url = parseHttpUrl(rawUrl, 'url');
  const address = ownAddress(context, url);
  if (address?.kind !== 'site') throw noPublishedContent();
  const lookup = await lookUpSiteAddress(context, address, credentials);
  switch (lookup.kind) {
    case 'none':
      throw noPublishedContent();
    case 'redirect':
      return lookup.target === 'external'
        ? { target: 'external', site: lookup.siteId, redirect: lookup.location }
        : { target: 'content', redirect: lookup.location };
    case 'sign-in': {
      if (!redirectOnError || !lookup.fallbackUrl) throw noPublishedContent();
      // As the reader sends a visitor to sign in: with the address to come back to.
      const target = new URL(lookup.fallbackUrl);
      target.searchParams.set('location', `${url.origin}${url.pathname}`);
      return { target: 'external', site: lookup.siteId, redirect: target.toString() };
    }
    case 'content':
      return presentContent(lookup, address.sitePrefix, address.segments);
  }
}

function presentContent(
  lookup: Extract<SiteLookup, { kind: 'content' }>,
  sitePrefix: string,
  segments: readonly string[],
): PublishedSiteContentLookup {
  const { open, place, content } = lookup;
  const siteBasePath = `${sitePrefix}/`;
  const placePath = segments.slice(0, lookup.placeSegments).map(encodeURIComponent).join('/');
  const signed = open.visitor.claims.signed;
  const unsigned = open.visitor.claims.unsigned;
  const hasClaims = Object.keys(signed).length + Object.keys(unsigned).length > 0;
  return {
    site: open.site.id,
    ...(place.section ? { siteSection: place.section.id } : {}),
    siteSpace: place.siteSpace.id,
    space: place.siteSpace.space.id,
    revision: content.point.id,
    pathname: place.pagePath,
    basePath: placePath === '' ? siteBasePath : `${siteBasePath}${placePath}/`,
    siteBasePath,
    apiToken: '',
    organization: open.site.organization_id,
    ...(open.visitor.shareKey !== undefined ? { shareKey: open.visitor.shareKey } : {}),
    complete: true,
    // Only the claims the site declares reach the content (openSite keeps those): they alone change it.
    ...(hasClaims ? { contextId: createHash('sha256').update(JSON.stringify(open.visitor.claims)).digest('hex') } : {}),
    canonicalUrl: lookup.canonicalUrl,
    preview: false,
  };
}
