import { NotFoundError } from '../core/errors.js';
import { DEFAULT_PAGE_SIZE } from '../core/pagination.js';
import type { Role } from '../db/types.js';
import type { SpaceWithAccess } from '../access/space-queries.js';
import { findSpaceAsMember } from '../access/spaces.js';
import { changeRequestIn } from '../content/change-request-access.js';
import type { ContentPlace } from '../content/page-present.js';
import type { ContentTree, PageState } from '../content/tree.js';
import type { Context } from '../context.js';
import { presentOrganization } from '../orgs/present.js';
import { findOrganizationFields } from '../orgs/organization-queries.js';
import { presentSpace } from '../spaces/present.js';
import type { Backlink, LinkReport, LinkStatus, LinkUse } from './analysis.js';
import { Locations, pagesShown } from './present.js';
import type { LinkReports } from './reports.js';

/** The space's current revision, or a change request's newest one. */
export interface LinksLocator {
  spaceId: string;
  changeRequestId?: string;
}

export interface ListQuery {
  page?: string;
  limit?: number;
}

export interface LinksQuery extends ListQuery {
  status?: LinkStatus;
  /** `change-request`: of the broken links, only those the change request breaks. */
  brokenContext?: 'change-request' | 'space';
}

/** The revision a listing is about, its report, and what its locations are shown with. */
interface LinksTarget {
  space: SpaceWithAccess;
  role: Role;
  place: ContentPlace;
  tree: ContentTree;
  report: LinkReport;
  /** Names the revision's line in the lists' names, so that a cursor serves only its own list. */
  line: string;
}

/**
 * The revision the locator names, once the caller may read it. Link reports
 * and backlinks are editorial tools, not published content: they need a role
 * on the space as a member, for the space's line as for a change request's,
 * and a visitor of a public space is answered as for a private one.
 */
async function targetOf(context: Context, reports: LinkReports, userId: string, locator: LinksLocator) {
  const { space, role } = await findSpaceAsMember(context, locator.spaceId, userId);
  let revisionId = space.revision_id;
  let changeRequestId: string | null = null;
  if (locator.changeRequestId !== undefined) {
    const changeRequest = await changeRequestIn(context, space.id, locator.changeRequestId);
    revisionId = changeRequest.revision_id;
    changeRequestId = changeRequest.id;
  }
  const point = await context.content.revision(space.id, space.organization_id, revisionId);
  if (!point) throw new NotFoundError('No revision with this id in the space');
  const [tree, report] = await Promise.all([context.content.tree(point), reports.of(point)]);
  const place = { organizationId: space.organization_id, spaceId: space.id, changeRequestId };
  return { space, role, place, tree, report, line: `${space.id}:${changeRequestId ?? ''}` } satisfies LinksTarget;
}

function requirePage(target: LinksTarget, pageId: string): void {
  if (!target.tree.pages.has(pageId)) throw new NotFoundError('No page with this id in this revision');
}

/**
 * One page of a list ordered by key: the items after the cursor's key. The
 * cursor holds the last key shown, so a list that changed between two reads
 * (the space moved on) resumes where the reader was, skipping nothing that stayed.
 */
function pageOf<T extends { key: string }>(context: Context, list: string, query: ListQuery, sorted: readonly T[]) {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const after = query.page === undefined ? undefined : context.cursors.decodePosition(query.page, list, 1)[0]!;
  let start = 0;
  if (after !== undefined) {
    let end = sorted.length;
    while (start < end) {
      const middle = (start + end) >>> 1;
      if (sorted[middle]!.key <= after) start = middle + 1;
      else end = middle;
    }
  }
  const items = sorted.slice(start, start + limit);
  const more = limit > 0 && start + limit < sorted.length;
  return { items, next: more ? context.cursors.encodePosition(list, [items.at(-1)!.key]) : undefined };
}

/** The organization, the space and the revision's pages and files as this caller sees them. */
async function locationsFor(context: Context, target: LinksTarget, pages: Iterable<PageState>) {
  const { space } = target;
  const row = await findOrganizationFields(context.db, space.organization_id);
  if (!row) throw new NotFoundError('No space with this id is visible to you');
  return new Locations({
    organization: presentOrganization(row, { isMember: space.is_member, role: space.member_role }, context.urls),
    space: presentSpace(space, target.role, context.urls),
    tree: target.tree,
    place: target.place,
    urls: context.urls,
    markdownOf: await context.content.markdownOf(space.organization_id, pages),
    downloadUrlOf: (file) => context.fileUrls.sign(file.versionId, file.name, context.clock.now()),
  });
}

function statsOf(uses: readonly LinkUse[], introduced: ReadonlySet<string>) {
  let broken = 0;
  let changeRequest = 0;
  for (const use of uses) {
    if (use.status !== 'broken') continue;
    broken += 1;
    if (introduced.has(use.id)) changeRequest += 1;
  }
  return { total: uses.length, broken: { total: broken, changeRequest } };
}

/**
 * A link listing as JSON text. `stats` count every link of the listing,
 * whatever the filters; `count` those that match them. The text is made
 * here, not by the route's serialiser: items share their organization,
 * space and pages, which a schema-driven serialiser would check again for
 * every occurrence.
 */
async function linksAnswer(
  context: Context,
  target: LinksTarget,
  list: string,
  uses: readonly LinkUse[],
  query: LinksQuery,
  pagesOf: (use: LinkUse) => readonly string[],
): Promise<string> {
  const { introduced } = target.report;
  const matching = uses.filter(
    (use) =>
      (query.status === undefined || use.status === query.status) &&
      (query.brokenContext !== 'change-request' || use.status !== 'broken' || introduced.has(use.id)),
  );
  const { items, next } = pageOf(context, list, query, matching);
  const locations =
    items.length > 0 ? await locationsFor(context, target, pagesShown(target.tree, items, pagesOf)) : undefined;
  return JSON.stringify({
    ...(next ? { next: { page: next } } : {}),
    count: matching.length,
    stats: statsOf(uses, introduced),
    items: items.map((use) => locations!.item(use, pagesOf(use))),
  });
}

/** The pages that link to something, each shown by `item`, a page at a time, as JSON text. */
async function backlinksAnswer(
  context: Context,
  target: LinksTarget,
  list: string,
  backlinks: readonly Backlink[],
  query: ListQuery,
  item: (locations: Locations, pageId: string) => unknown,
): Promise<string> {
  const { items, next } = pageOf(context, list, query, backlinks);
  const pages = items.map((backlink) => target.tree.pages.get(backlink.pageId)!);
  const locations = items.length > 0 ? await locationsFor(context, target, pages) : undefined;
  return JSON.stringify({
    ...(next ? { next: { page: next } } : {}),
    count: backlinks.length,
    items: items.map((backlink) => item(locations!, backlink.pageId)),
  });
}

const everyPage = (use: LinkUse) => use.pages;

/** Every link of the revision: one item per target and relation, with the pages that link to it. */
export async function listLinks(
  context: Context,
  reports: LinkReports,
  userId: string,
  locator: LinksLocator,
  query: LinksQuery,
): Promise<string> {
  const target = await targetOf(context, reports, userId, locator);
  const list = `links:${target.line}:${query.status ?? ''}:${query.brokenContext ?? 'space'}`;
  return linksAnswer(context, target, list, target.report.links, query, everyPage);
}

/** The links of one page: one item per target and relation, located at that page. */
export async function listPageLinks(
  context: Context,
  reports: LinkReports,
  userId: string,
  locator: LinksLocator,
  pageId: string,
  query: LinksQuery,
): Promise<string> {
  const target = await targetOf(context, reports, userId, locator);
  requirePage(target, pageId);
  const list = `page-links:${target.line}:${pageId}:${query.status ?? ''}`;
  const uses = target.report.linksOfPage.get(pageId) ?? [];
  return linksAnswer(context, target, list, uses, query, () => [pageId]);
}

/** The pages that link to a file or show it. */
export async function listFileBacklinks(
  context: Context,
  reports: LinkReports,
  userId: string,
  locator: LinksLocator,
  fileId: string,
  query: ListQuery,
): Promise<string> {
  const target = await targetOf(context, reports, userId, locator);
  if (!target.tree.files.has(fileId)) throw new NotFoundError('No file with this id in this revision');
  const list = `file-backlinks:${target.line}:${fileId}`;
  // The seeds' File backlink item: the file where it is used, and the page that uses it.
  return backlinksAnswer(
    context,
    target,
    list,
    target.report.fileBacklinks.get(fileId) ?? [],
    query,
    (locations, pageId) => ({
      ...locations.file(fileId),
      page: locations.page(pageId).page,
    }),
  );
}

/** The other pages that link to a page or to one of its anchors. */
export async function listPageBacklinks(
  context: Context,
  reports: LinkReports,
  userId: string,
  locator: LinksLocator,
  pageId: string,
  query: ListQuery,
): Promise<string> {
  const target = await targetOf(context, reports, userId, locator);
  requirePage(target, pageId);
  const list = `page-backlinks:${target.line}:${pageId}`;
  return backlinksAnswer(
    context,
    target,
    list,
    target.report.pageBacklinks.get(pageId) ?? [],
    query,
    (locations, linking) => locations.page(linking),
  );
}
