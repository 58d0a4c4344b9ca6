import type { FastifyBaseLogger } from 'fastify';
import { lockSpaceLine } from '../content/write-locks.js';
import { findRevision } from '../content/state.js';
import type { PageState } from '../content/tree.js';
import type { Context } from '../context.js';
import { reindexPages } from './indexing.js';

/**
 * Makes and stores the facts of the pages' documents that lack them, read
 * from the database, not the cache: the index is made from the rows, so it is
 * the rows that must hold them. Markdown stored before today's limits may be
 * refused now: its page is then found by its title alone.
 */
async function storeOutlines(
  context: Context,
  organizationId: string,
  pages: Iterable<PageState>,
  log: FastifyBaseLogger,
): Promise<void> {
  const documentIds = [...new Set([...pages].flatMap((page) => (page.documentId ? [page.documentId] : [])))];
  await context.content.storedFacts(organizationId, documentIds, (documentId, error) =>
    log.warn({ documentId, reason: error.message }, 'a document could not be read for the search index'),
  );
}

/**
 * Fills the search index for spaces that had pages before it existed, one
 * space at a time: the outlines of their documents are made first, outside
 * any transaction (on the conversion pool, and stored), then the space's
 * current pages are indexed under its row lock, so no merge slips in between.
 * Another instance doing the same waits for that lock and then finds the
 * space done. Returns how many spaces it filled.
 */
export async function backfillSearchIndex(
  context: Context,
  log: FastifyBaseLogger = context.log,
  /** Aborted when the server stops: the space under way is finished, the next one left to the next start. */
  signal?: AbortSignal,
): Promise<number> {
  let filled = 0;
  let after = '';
  while (!signal?.aborted) {
    const space = await context.db
      .selectFrom('spaces')
      .select(['id', 'organization_id', 'revision_id'])
      .where('search_indexed', '=', false)
      .where('id', '>', after)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!space) break;
    after = space.id;
    const head = await context.content.revision(space.id, space.organization_id, space.revision_id);
    if (head)
      await storeOutlines(context, space.organization_id, (await context.content.tree(head)).pages.values(), log);

    const done = await context.db.transaction().execute(async (tx) => {
      const locked = await lockSpaceLine(tx, space.id);
      const state = await tx
        .selectFrom('spaces')
        .select('search_indexed')
        .where('id', '=', space.id)
        .executeTakeFirst();
      if (state?.search_indexed !== false) return false;
      const current = await findRevision(tx, space.id, locked.revision_id);
      if (!current) return false;
      const place = { organizationId: space.organization_id, spaceId: space.id };
      const tree = await context.content.tree({ ...current, organizationId: space.organization_id }, tx);
      // A merge since the facts were made wrote its own documents' facts.
      const pages = [...tree.pages.values()];
      await reindexPages(
        tx,
        place,
        pages.map((page) => ({ itemId: page.pageId, versionId: page.versionId })),
      );
      await tx.updateTable('spaces').set({ search_indexed: true }).where('id', '=', space.id).execute();
      return true;
    });
    if (done) filled += 1;
  }
  if (filled > 0) log.info({ spaces: filled }, 'filled the search index for spaces written before it existed');
  return filled;
}
