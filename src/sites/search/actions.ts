import { BadRequestError } from '../../core/errors.js';
import type { Page } from '../../core/pagination.js';
import type { Context } from '../../context.js';
import type { SearchSpaceResult } from '../../search/present.js';
import { searchSpacesPage } from '../../search/pages.js';
import { findSiteForAudience } from '../published-actions.js';
import { loadStructure } from '../structure/queries.js';
import { allSiteSpaces, publishedStructure, type SiteSpaceRow, type Structure } from '../structure/tree.js';
import type { SiteSearchBody } from './schemas.js';

/** Which site spaces a search covers, whatever form of the body named them. */
type Coverage =
  | { mode: 'all' }
  | { mode: 'default'; also: string[]; restrictTo?: { to: 'currentSiteSpace' | 'otherSiteSpaces'; current: string } }
  | { mode: 'specific'; ids: string[] };

function coverageOf(body: SiteSearchBody): Coverage {
  if ('scope' in body) {
    const { scope } = body;
    if (scope.mode === 'all') return { mode: 'all' };
    if (scope.mode === 'specific') return { mode: 'specific', ids: scope.siteSpaceIds };
    if (scope.restrictTo !== undefined && scope.currentSiteSpace === undefined)
      throw new BadRequestError(
        'body/scope/restrictTo needs body/scope/currentSiteSpace, the site space it is relative to',
      );
    return {
      mode: 'default',
      also: [...(scope.currentSiteSpace ? [scope.currentSiteSpace] : []), ...(scope.includedSiteSpaces ?? [])],
      ...(scope.restrictTo && scope.currentSiteSpace
        ? { restrictTo: { to: scope.restrictTo, current: scope.currentSiteSpace } }
        : {}),
    };
  }
  if ('siteSpaceIds' in body) return { mode: 'specific', ids: body.siteSpaceIds };
  if ('siteSpaceId' in body) return { mode: 'default', also: [body.siteSpaceId] };
  return { mode: 'all' };
}

/** The site spaces of the published structure the coverage names; an id not in it is a 400. */
function coveredSiteSpaces(structure: Structure, coverage: Coverage): SiteSpaceRow[] {
  const published = allSiteSpaces(structure);
  if (coverage.mode === 'all') return published;
  const byId = new Map(published.map((siteSpace) => [siteSpace.id, siteSpace]));
  const named = coverage.mode === 'specific' ? coverage.ids : coverage.also;
  const unknown = named.find((id) => !byId.has(id));
  if (unknown) throw new BadRequestError(`body: no published site space ${unknown} in this site`);
  if (coverage.mode === 'specific') return named.map((id) => byId.get(id)!);
  const defaults = [...structure.defaultSiteSpace.values()].filter((siteSpace) => siteSpace !== undefined);
  const scope = [...new Map([...defaults, ...named.map((id) => byId.get(id)!)].map((s) => [s.id, s])).values()];
  // 0.202.0's restrictTo: a part of the default scope, relative to the site space the search is made from.
  const { restrictTo } = coverage;
  if (restrictTo?.to === 'currentSiteSpace') return [byId.get(restrictTo.current)!];
  if (restrictTo?.to === 'otherSiteSpaces') return scope.filter((siteSpace) => siteSpace.id !== restrictTo.current);
  return scope;
}

/**
 * Searches what the site publishes, for its audience: members of its
 * organization, and visitors of a published site its visibility opens to
 * them. Only published site spaces are searched, and only their spaces'
 * current content; results are grouped by space.
 */
export async function searchSite(
  context: Context,
  userId: string,
  params: { organizationId: string; siteId: string },
  body: SiteSearchBody,
  query: { page?: string; limit?: number; shareKey?: string },
): Promise<Page<SearchSpaceResult>> {
  const { site } = await findSiteForAudience(context, userId, params.organizationId, params.siteId, query.shareKey);
  const structure = publishedStructure(await loadStructure(context.db, site));
  const spaceIds = [...new Set(coveredSiteSpaces(structure, coverageOf(body)).map((s) => s.space.id))].sort();
  return searchSpacesPage(
    context,
    { kind: 'spaces', organizationId: site.organization_id, spaceIds },
    `site:${site.id}:${spaceIds.join(',')}`,
    { ...query, query: body.query },
  );
}
