import { ConflictError, NotFoundError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Page } from '../../core/pagination.js';
import type { Context } from '../../context.js';
import type { Db } from '../../db/database.js';
import { findSiteAsAdmin, findSiteAsMember, lockSite } from '../access.js';
import type { SiteRow } from '../queries.js';
import { loadStructure } from '../structure/queries.js';
import { buildStructure, type Structure } from '../structure/tree.js';
import { storedDestination } from './destinations.js';
import { presentRedirect, redirectTarget } from './present.js';
import {
  countRedirects,
  deleteRedirect,
  findRedirect,
  findRedirectBySource,
  insertRedirect,
  listRedirects,
  sortValue,
  updateRedirect,
  type RedirectRow,
} from './queries.js';
import type {
  CreateRedirectBody,
  ListRedirectsQuery,
  ResolvedRedirect,
  SiteRedirect,
  UpdateRedirectBody,
} from './schemas.js';
import { DEFAULT_PAGE_SIZE } from '../../core/pagination.js';

/** Redirects a site may have, live and draft together: the reader looks them up by index, the list pages them. */
export const MAX_REDIRECTS_PER_SITE = 10_000;

export const redirectNotFound = () => new NotFoundError('No redirect with this id on the site');
export const sourceTaken = (draft: boolean) =>
  new ConflictError(`The site already has a ${draft ? 'draft' : 'live'} redirect from this source`);
export const tooManyRedirects = () =>
  new ConflictError(`A site has at most ${MAX_REDIRECTS_PER_SITE} redirects; delete some before adding more`);

/** The site's structure, read in the transaction that holds its lock: what destinations are checked against. */
export async function lockedStructure(tx: Db, organizationId: string, siteId: string): Promise<Structure> {
  const site = await lockSite(tx, organizationId, siteId);
  return buildStructure(await loadStructure(tx, site));
}

export async function listSiteRedirects(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  query: ListRedirectsQuery,
): Promise<Page<SiteRedirect>> {
  await findSiteAsMember(context, organizationId, siteId, callerId);
  const orderBy = query.orderBy ?? 'createdAt';
  const draft = query.draft ?? false;
  // The cursor names the list and its filters: one made for another order or search is refused.
  const list = `site-redirects:${organizationId}:${siteId}:${String(draft)}:${orderBy}:${query.search ?? ''}`;
  const after = query.page ? context.cursors.decodePosition(query.page, list, 2) : undefined;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const { rows, count } = await listRedirects(context.db, organizationId, siteId, {
    draft,
    search: query.search,
    orderBy,
    after: after && [after[0]!, after[1]!],
    limit,
  });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const page: Page<SiteRedirect> = { count, items: items.map(presentRedirect) };
  if (rows.length > limit && last)
    page.next = { page: context.cursors.encodePosition(list, [sortValue(last, orderBy), last.id]) };
  return page;
}

export async function createSiteRedirect(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  body: CreateRedirectBody,
): Promise<SiteRedirect> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Creating a redirect');
  const draft = body.draft ?? false;
  return context.db.transaction().execute(async (tx) => {
    // The site's lock makes the checks and the insert one step: no two writers pass the limit or take one source.
    const structure = await lockedStructure(tx, organizationId, siteId);
    if (await findRedirectBySource(tx, organizationId, siteId, draft, body.source)) throw sourceTaken(draft);
    if ((await countRedirects(tx, organizationId, siteId)) >= MAX_REDIRECTS_PER_SITE) throw tooManyRedirects();
    const destination = await storedDestination(context, structure, body.destination);
    const row = await insertRedirect(
      tx,
      organizationId,
      siteId,
      {
        id: newId(),
        source: body.source,
        draft,
        capture_wildcard: body.captureWildcard ?? false,
        permanent: body.permanent ?? false,
        ...destination,
      },
      context.clock.now(),
    );
    return presentRedirect(row);
  });
}

/** Changes what is given of a redirect; moving it onto a source its state already has is a 409. */
export async function updateSiteRedirect(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  redirectId: string,
  body: UpdateRedirectBody,
): Promise<SiteRedirect> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Changing a redirect');
  return context.db.transaction().execute(async (tx) => {
    const structure = await lockedStructure(tx, organizationId, siteId);
    const current = await findRedirect(tx, organizationId, siteId, redirectId);
    if (!current) throw redirectNotFound();
    const source = body.source ?? current.source;
    const draft = body.draft ?? current.draft;
    const other = await findRedirectBySource(tx, organizationId, siteId, draft, source);
    if (other && other.id !== current.id) throw sourceTaken(draft);
    const row = await updateRedirect(
      tx,
      organizationId,
      siteId,
      redirectId,
      {
        source,
        draft,
        ...(body.captureWildcard === undefined ? {} : { capture_wildcard: body.captureWildcard }),
        ...(body.permanent === undefined ? {} : { permanent: body.permanent }),
        ...(body.destination === undefined ? {} : await storedDestination(context, structure, body.destination)),
      },
      context.clock.now(),
    );
    return presentRedirect(row!);
  });
}

/** Deletes a redirect: true when it existed (205), false when there was none (204), as the spec answers. */
export async function deleteSiteRedirect(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  redirectId: string,
): Promise<boolean> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Deleting a redirect');
  return deleteRedirect(context.db, organizationId, siteId, { id: redirectId });
}

/** The redirect from exactly `source` (the live one, else the draft) and the address it sends visitors to. */
export async function getSiteRedirectBySource(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  source: string,
): Promise<ResolvedRedirect> {
  const { site } = await findSiteAsMember(context, organizationId, siteId, callerId);
  const row =
    (await findRedirectBySource(context.db, organizationId, siteId, false, source)) ??
    (await findRedirectBySource(context.db, organizationId, siteId, true, source));
  if (!row) throw new NotFoundError('No redirect from this source on the site');
  return { redirect: presentRedirect(row), target: await targetFor(context, site, row) };
}

async function targetFor(context: Context, site: SiteRow, row: RedirectRow): Promise<string> {
  if (row.destination_kind === 'external') return row.url!;
  const structure = buildStructure(await loadStructure(context.db, site));
  return redirectTarget(context.urls, site, structure, row, row.source.replace(/\*$/, ''));
}
