import { newId } from '../../core/ids.js';
import type { Db } from '../../db/database.js';
import { spliceUrlsKeeping } from '../../document/rewrite-urls.js';
import type { PageState } from '../../content/tree.js';
import type { Context } from '../../context.js';
import type { AppliedBatch } from './apply.js';
import { hashOf } from './links.js';
import type { Place } from './persist.js';
import { findUnresolvedLinksOf, findUnresolvedLinksTo, type StoredUnresolvedLink } from './unresolved-links.js';

/** The pages of the batch by each path they answer to (links.ts `pathsOf`). */
function pathsOfBatch(applied: AppliedBatch): Map<string, string> {
  const named = new Map<string, string>();
  for (const [pageId, page] of applied.pages) {
    if (!page || applied.backToBase.has(pageId)) continue;
    for (const path of applied.links.pathsOf(pageId)) if (!named.has(path)) named.set(path, pageId);
  }
  return named;
}

/**
 * The pages of the line, not written by the batch, that hold a document
 * with a link to one of the batch's paths: the documents' ids and their pages.
 */
function pagesToRelink(applied: AppliedBatch, found: readonly StoredUnresolvedLink[]): Map<string, PageState> {
  const holders = new Map<string, PageState>();
  for (const link of found) {
    const page = applied.tree.pages.get(link.pageId);
    // The row is the document's; the line's page may hold another document by now, or be gone.
    if (!page || page.documentId !== link.documentId || applied.backToBase.has(page.pageId)) continue;
    holders.set(link.documentId, page);
  }
  return holders;
}

/**
 * Resolves, in this batch, the links of pages written before it that named a
 * page missing then, which the batch adds (or moves, or renames) to the path
 * they name: a Git Sync import written in several batches, or into a change
 * request in several writes, links as if written at once. Only pages whose
 * stored unresolved links name one of the batch's paths are read (the index
 * of unresolved_links), so a write of one page into a space of thousands
 * reads only the pages that named it. Each such page gets a new document,
 * spliced at the stored places with no parse, and a new version in the batch;
 * its links still missing are kept for a later write. Links resolve within
 * the space's tree only, as every link of a write does.
 */
export async function relinkEarlierPages(
  context: Context,
  tx: Db,
  place: Place,
  applied: AppliedBatch,
  now: Date,
): Promise<void> {
  const named = pathsOfBatch(applied);
  const holders = pagesToRelink(applied, await findUnresolvedLinksTo(tx, place, [...named.keys()]));
  if (holders.size === 0) return;
  const links = await findUnresolvedLinksOf(tx, place, [...holders.keys()]);
  const markdownOf = await context.content.markdownOf(place.organizationId, holders.values());
  const outcomes = new Set(applied.outcomes.map((outcome) => outcome.page));

  for (const [documentId, page] of holders) {
    const markdown = markdownOf(page);
    // Rows written for this very text: anything else would splice the wrong bytes.
    const own = links.filter(
      (link) => link.documentId === documentId && link.end <= markdown.length && link.start < link.end,
    );
    // A quote before it: an attribute's URL (written as is), where a markdown destination never has one.
    const destinations = own.map((link) => ({
      url: link.url,
      kind: markdown[link.start - 1] === '"' ? ('attribute' as const) : ('link' as const),
      start: link.start,
      end: link.end,
    }));
    const targetByUrl = new Map(own.map((link) => [link.url, link.target]));
    const { markdown: relinked, kept } = spliceUrlsKeeping(markdown, destinations, (url) => {
      const target = named.get(targetByUrl.get(url)!);
      return target === undefined ? undefined : `/pages/${target}${hashOf(url)}`;
    });
    if (relinked === markdown) continue;

    const newDocumentId = newId();
    applied.documents.set(newDocumentId, relinked);
    const remaining = kept.map(({ url, start, end }) => ({ url, start, end, target: targetByUrl.get(url)! }));
    if (remaining.length > 0) applied.unresolved.set(newDocumentId, { pageId: page.pageId, links: remaining });
    // A page the batch changed otherwise (its title, its place) already has its new version: it takes the document.
    const written = applied.pages.get(page.pageId);
    const version: PageState = written
      ? { ...written, documentId: newDocumentId }
      : { ...page, versionId: newId(), documentId: newDocumentId, updatedAt: now.toISOString() };
    applied.tree.setPage(version);
    applied.pages.set(page.pageId, version);
    if (!outcomes.has(page.pageId)) {
      applied.outcomes.push({ object: 'updated_page', page: page.pageId });
      outcomes.add(page.pageId);
    }
  }
}
