import type { Context } from '../../context.js';
import { gitRedirectPage } from '../../content/path-history/git-redirects.js';
import { pageMovedFrom } from '../../content/path-history/lookup.js';
import { spaceContent } from '../../reader/page-content.js';
import { locate } from '../reader/place.js';
import { pageAddress, type OpenSite } from '../reader/site-reader.js';

/**
 * Where a visitor of an address no page answers is sent by the content of
 * the site space it falls in: a redirect of the space's `.gitbook.yaml`
 * (Git Sync), else the page that was at that path before a write moved it.
 * Permanent (308), as those moves are. Asked only where no page and no
 * redirect of the site answers: neither shadows a page.
 */
export async function movedPageAt(
  context: Context,
  open: OpenSite,
  segments: readonly string[],
): Promise<{ location: string; status: 308 } | undefined> {
  const place = locate(open.structure, segments);
  if (!place || place.pagePath === '') return undefined;
  const { point, tree } = await spaceContent(context, place.siteSpace.space);
  const space = { organizationId: point.organizationId, spaceId: point.spaceId };
  const page =
    (await gitRedirectPage(context.db, space, tree, place.pagePath)) ??
    (await pageMovedFrom(context.db, space, tree, place.pagePath));
  if (!page) return undefined;
  return { location: pageAddress(context, open, place.siteSpace, tree.pathOf(page.pageId)), status: 308 };
}
