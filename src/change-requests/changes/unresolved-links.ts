import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { UnresolvedLink } from './links.js';
import type { Place } from './persist.js';

const BATCH_ROWS = 500;

/** A stored link that names a missing page: its document, the page it was written for, and the link. */
export interface StoredUnresolvedLink extends UnresolvedLink {
  documentId: string;
  pageId: string;
}

/** Keeps where each new document's unresolved links are, for the writes that add their pages. */
export async function insertUnresolvedLinks(
  tx: Db,
  place: Place,
  documents: ReadonlyMap<string, { pageId: string; links: readonly UnresolvedLink[] }>,
): Promise<void> {
  const rows = [...documents].flatMap(([documentId, { pageId, links }]) =>
    links.map((link) => ({
      organization_id: place.organizationId,
      space_id: place.spaceId,
      document_id: documentId,
      page_id: pageId,
      target_path: link.target,
      url: link.url,
      start_offset: link.start,
      end_offset: link.end,
    })),
  );
  for (let i = 0; i < rows.length; i += BATCH_ROWS)
    await tx
      .insertInto('unresolved_links')
      .values(rows.slice(i, i + BATCH_ROWS))
      .execute();
}

function fromRow(row: {
  document_id: string;
  page_id: string;
  target_path: string;
  url: string;
  start_offset: number;
  end_offset: number;
}): StoredUnresolvedLink {
  return {
    documentId: row.document_id,
    pageId: row.page_id,
    target: row.target_path,
    url: row.url,
    start: row.start_offset,
    end: row.end_offset,
  };
}

const COLUMNS = ['document_id', 'page_id', 'target_path', 'url', 'start_offset', 'end_offset'] as const;

/** The space's unresolved links that name one of `paths`, in any document of any of its lines. */
export async function findUnresolvedLinksTo(
  db: Db,
  place: Place,
  paths: readonly string[],
): Promise<StoredUnresolvedLink[]> {
  if (paths.length === 0) return [];
  const rows = await db
    .selectFrom('unresolved_links')
    .select(COLUMNS)
    .where('organization_id', '=', place.organizationId)
    .where('space_id', '=', place.spaceId)
    .where('target_path', '=', sql<string>`any(${paths}::text[])`)
    .execute();
  return rows.map(fromRow);
}

/** Every unresolved link of the given documents of the space, in text order. */
export async function findUnresolvedLinksOf(
  db: Db,
  place: Place,
  documentIds: readonly string[],
): Promise<StoredUnresolvedLink[]> {
  if (documentIds.length === 0) return [];
  const rows = await db
    .selectFrom('unresolved_links')
    .select(COLUMNS)
    .where('organization_id', '=', place.organizationId)
    .where('space_id', '=', place.spaceId)
    .where('document_id', '=', sql<string>`any(${documentIds}::text[])`)
    .orderBy('document_id')
    .orderBy('start_offset')
    .execute();
  return rows.map(fromRow);
}
