import { spaceRolesFor, type Member } from '../../access/grants.js';
import type { Context } from '../../context.js';
import type { SiteRow } from '../queries.js';
import type { StructureView } from '../present.js';
import { activeShareLinkExists } from '../publishing/share-link-queries.js';
import { loadStructure } from './queries.js';
import { allSiteSpaces, buildStructure, publishedStructure } from './tree.js';

/**
 * The structure as a member of the organization sees it: each site space's
 * space with the member's role on it (their organization role, raised by the
 * default levels and grants of the space and its collections; a guest given
 * a role on the site reads the spaces it shows). `published`:
 * what a visitor is shown, rather than everything the site holds.
 * `checkedShareKey` comes from validShareKey.
 */
export async function memberView(
  context: Context,
  site: SiteRow,
  member: Member,
  checkedShareKey: string | undefined,
  options: { published?: boolean } = {},
): Promise<StructureView> {
  const stored = await loadStructure(context.db, site);
  const built = options.published ? publishedStructure(stored) : buildStructure(stored);
  const roleOf = await spaceRolesFor(
    context.db,
    site.organization_id,
    member,
    allSiteSpaces(built).map((siteSpace) => siteSpace.space),
  );
  return {
    site,
    structure: built,
    urls: context.urls,
    roleOn: (space) => roleOf(space) ?? 'read',
    shareKey: checkedShareKey,
  };
}

/** The structure a visitor is shown: the published one, every space read-only; `checkedShareKey` from validShareKey. */
export async function visitorView(
  context: Context,
  site: SiteRow,
  checkedShareKey: string | undefined,
): Promise<StructureView> {
  return {
    site,
    structure: publishedStructure(await loadStructure(context.db, site)),
    urls: context.urls,
    roleOn: () => 'read',
    shareKey: checkedShareKey,
  };
}

/** The key, when it opens one of the site's active share links; published URLs of a share-link site carry it. */
export async function validShareKey(
  context: Context,
  site: SiteRow,
  shareKey: string | undefined,
): Promise<string | undefined> {
  if (shareKey === undefined || site.visibility !== 'share-link') return undefined;
  return (await activeShareLinkExists(context.db, site.organization_id, site.id, shareKey)) ? shareKey : undefined;
}
