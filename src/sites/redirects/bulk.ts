import { ApiError, BadRequestError, ConflictError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Context } from '../../context.js';
import type { Db } from '../../db/database.js';
import { findSiteAsAdmin } from '../access.js';
import type { Structure } from '../structure/tree.js';
import { lockedStructure, MAX_REDIRECTS_PER_SITE } from './actions.js';
import { storedDestination } from './destinations.js';
import {
  countRedirects,
  deleteRedirect,
  findRedirectBySource,
  insertRedirect,
  updateRedirect,
  valuesOf,
  type RedirectRow,
  type RedirectValues,
} from './queries.js';
import type { BulkRedirectsBody, BulkResult, UpsertItem } from './schemas.js';

interface Batch {
  context: Context;
  tx: Db;
  organizationId: string;
  siteId: string;
  structure: Structure;
  /** Redirects the site holds as the batch goes: the limit is checked item by item. */
  count: number;
}

/**
 * Creates, changes, deletes and publishes redirects, in order, in one
 * transaction under the site's lock. An item that cannot be done (its
 * destination is not the site's, there is nothing to delete or publish, the
 * site is full) is answered `error` and changes nothing; the others are done.
 */
export async function bulkUpsertSiteRedirects(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  body: BulkRedirectsBody,
): Promise<{ results: BulkResult[] }> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Changing redirects');
  return context.db.transaction().execute(async (tx) => {
    const structure = await lockedStructure(tx, organizationId, siteId);
    const count = await countRedirects(tx, organizationId, siteId);
    const batch: Batch = { context, tx, organizationId, siteId, structure, count };
    const results: BulkResult[] = [];
    for (const item of body.redirects) {
      const draft = item.intent === 'draft';
      try {
        results.push(item.intent === 'publish' ? await publish(batch, item.source) : await upsert(batch, item));
      } catch (error) {
        // Only the service's own refusals become an item's error; anything else fails the whole request.
        if (!(error instanceof ApiError)) throw error;
        results.push({ status: 'error', source: item.source, draft, error: error.message });
      }
    }
    return { results };
  });
}

async function upsert(batch: Batch, item: UpsertItem): Promise<BulkResult> {
  const { context, tx, organizationId, siteId } = batch;
  const draft = item.intent === 'draft';
  const existing = await findRedirectBySource(tx, organizationId, siteId, draft, item.source);
  if (item.destination === null) {
    if (!existing) throw new BadRequestError(`No ${draft ? 'draft' : 'live'} redirect from this source to delete`);
    await deleteRedirect(tx, organizationId, siteId, { id: existing.id });
    batch.count -= 1;
    return { status: 'deleted', source: item.source, draft };
  }
  const destination = await storedDestination(context, batch.structure, item.destination);
  const values = {
    draft,
    capture_wildcard: item.captureWildcard ?? false,
    ...(item.permanent === undefined ? {} : { permanent: item.permanent }),
    ...destination,
  };
  if (existing) {
    await updateRedirect(tx, organizationId, siteId, existing.id, values, context.clock.now());
    return { status: 'updated', source: item.source, draft, id: existing.id };
  }
  const row = await insertNew(batch, item.source, { permanent: false, ...values });
  return { status: 'created', source: item.source, draft, id: row.id };
}

/** Makes the draft from `source` the live redirect (replacing a live one there) and removes the draft. */
async function publish(batch: Batch, source: string): Promise<BulkResult> {
  const { context, tx, organizationId, siteId } = batch;
  const drafted = await findRedirectBySource(tx, organizationId, siteId, true, source);
  if (!drafted) throw new BadRequestError('No draft redirect from this source to publish');
  const live = await findRedirectBySource(tx, organizationId, siteId, false, source);
  await deleteRedirect(tx, organizationId, siteId, { id: drafted.id });
  batch.count -= 1;
  const published = { ...valuesOf(drafted), draft: false };
  if (live) {
    await updateRedirect(tx, organizationId, siteId, live.id, published, context.clock.now());
    return { status: 'published', source, draft: false, id: live.id };
  }
  const row = await insertNew(batch, source, published);
  return { status: 'published', source, draft: false, id: row.id };
}

async function insertNew(batch: Batch, source: string, values: RedirectValues): Promise<RedirectRow> {
  if (batch.count >= MAX_REDIRECTS_PER_SITE)
    throw new ConflictError(`A site has at most ${MAX_REDIRECTS_PER_SITE} redirects; delete some before adding more`);
  const row = await insertRedirect(
    batch.tx,
    batch.organizationId,
    batch.siteId,
    { ...values, id: newId(), source },
    batch.context.clock.now(),
  );
  batch.count += 1;
  return row;
}
