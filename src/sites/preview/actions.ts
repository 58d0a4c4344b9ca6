import { BadRequestError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { findSiteAsMember } from '../access.js';
import { siteAddress } from '../addresses.js';
import { siteSpacePaths } from '../reader/place.js';
import { loadStructure } from '../structure/queries.js';
import { allSiteSpaces, buildStructure } from '../structure/tree.js';
import { parseClaims } from './rison.js';
import { PREVIEW_SECONDS, signPreview } from './tokens.js';

export interface PreviewQuery {
  siteSpace?: string | undefined;
  claims?: string | undefined;
  draft?: boolean | undefined;
  target?: string | undefined;
}

/** The reader's query parameter that carries a preview token. */
export const PREVIEW_PARAMETER = 'preview';

/**
 * A signed address, valid PREVIEW_SECONDS, at which the published reader
 * shows the site as it would be published (published or not, whatever its
 * visibility), with its draft items unless `draft` is false, to a visitor
 * with `claims`. It opens this site only. Members of the site ask for it.
 */
export async function sitePreviewUrl(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  query: PreviewQuery,
): Promise<{ url: string }> {
  const { site } = await findSiteAsMember(context, organizationId, siteId, userId);
  const claims = query.claims === undefined ? {} : parseClaims(query.claims);
  const home = siteAddress(context.urls, site);
  let address = home;
  if (query.siteSpace !== undefined) {
    const structure = buildStructure(await loadStructure(context.db, site));
    const siteSpace = allSiteSpaces(structure).find((candidate) => candidate.id === query.siteSpace);
    if (!siteSpace) throw new BadRequestError(`querystring/siteSpace: the site has no site space "${query.siteSpace}"`);
    address = siteAddress(context.urls, site, ...siteSpacePaths(structure, siteSpace));
  }
  if (query.target !== undefined) address = checkedTarget(query.target, home);
  const token = signPreview(context.serviceSecret, {
    siteId: site.id,
    drafts: query.draft ?? true,
    claims,
    expires: Math.floor(context.clock.now().getTime() / 1000) + PREVIEW_SECONDS,
  });
  const url = new URL(address);
  url.searchParams.set(PREVIEW_PARAMETER, token);
  return { url: url.toString() };
}

/** A target is an address of the site itself: a preview token is never handed to another address. */
function checkedTarget(target: string, home: string): string {
  let parsed: URL;
  try {
    parsed = new URL(target, `${home}/`);
  } catch {
    throw new BadRequestError('querystring/target must be an address of the site');
  }
  const base = new URL(home);
  const inside =
    parsed.origin === base.origin &&
    (parsed.pathname === base.pathname || parsed.pathname.startsWith(`${base.pathname.replace(/\/$/, '')}/`));
  if (!inside) throw new BadRequestError(`querystring/target must be an address of the site, under ${home}`);
  parsed.hash = '';
  return parsed.toString();
}
