import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { NewFileVersion, NewPageVersion, RevisionsTable, TreeEntryKind } from '../../db/types.js';
import type { RevisionPoint, StoredContent } from '../../content/state.js';
import type { FileState, PageState } from '../../content/tree.js';
import { reindexPages } from '../../search/indexing.js';
import type { PreparedFile } from './files.js';

const BATCH_ROWS = 500;

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

async function insertInBatches<T>(rows: readonly T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) await insert(rows.slice(i, i + BATCH_ROWS));
}

export interface Place {
  organizationId: string;
  spaceId: string;
}

function pageVersionRow(place: Place, page: PageState): NewPageVersion {
  return {
    id: page.versionId,
    organization_id: place.organizationId,
    space_id: place.spaceId,
    page_id: page.pageId,
    parent_page_id: page.parentId,
    position: page.position,
    type: page.type,
    title: page.title,
    slug: page.slug,
    emoji: page.emoji,
    icon: page.icon,
    description: page.description,
    document_id: page.documentId,
    layout: json(page.layout),
    cover: json(page.cover),
    variables: JSON.stringify(page.variables),
    hidden: page.hidden,
    no_index: page.noIndex,
    no_robots_index: page.noRobotsIndex,
    target: json(page.target),
    href: page.href,
    computed: json(page.computed),
    page_created_at: new Date(page.pageCreatedAt),
    created_at: new Date(page.updatedAt),
  };
}

function fileVersionRow(place: Place, file: FileState): NewFileVersion {
  return {
    id: file.versionId,
    organization_id: place.organizationId,
    space_id: place.spaceId,
    file_id: file.fileId,
    name: file.name,
    content_type: file.contentType,
    sha256: file.sha256,
    size: file.size,
    width: file.width,
    height: file.height,
    created_at: file.createdAt,
  };
}

/** Writes the rows new versions need: file bytes (once per hash), documents, page and file versions. */
export async function writeVersions(
  tx: Db,
  place: Place,
  content: {
    documents: ReadonlyMap<string, StoredContent>;
    pages: Iterable<PageState>;
    files: Iterable<FileState>;
    blobs: readonly PreparedFile[];
  },
  now: Date,
): Promise<void> {
  const blobs = [...new Map(content.blobs.map((file) => [file.sha256, file])).values()];
  const stored =
    blobs.length === 0
      ? new Set<string>()
      : new Set(
          (
            await tx
              .selectFrom('blobs')
              .select('sha256')
              .where('sha256', '=', sql<string>`any(${blobs.map((file) => file.sha256)}::text[])`)
              .execute()
          ).map((row) => row.sha256),
        );
  // One file's bytes a statement, and none already stored: the driver copies a statement's parameters
  // into one message, so a batch's files sent together would double what the write holds.
  for (const file of blobs) {
    if (stored.has(file.sha256)) continue;
    await tx
      .insertInto('blobs')
      .values({ sha256: file.sha256, size: file.bytes.length, bytes: file.bytes, created_at: now })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
  }
  const documents = [...content.documents].map(([id, { markdown, documentJson, facts }]) => ({
    id,
    organization_id: place.organizationId,
    space_id: place.spaceId,
    markdown,
    document: documentJson,
    outline: JSON.stringify(facts.outline),
    links: JSON.stringify(facts.links),
    language: facts.language,
    created_at: now,
  }));
  await insertInBatches(documents, (batch) => tx.insertInto('documents').values(batch).execute());
  const pages = [...content.pages].map((page) => pageVersionRow(place, page));
  await insertInBatches(pages, (batch) => tx.insertInto('page_versions').values(batch).execute());
  const files = [...content.files].map((file) => fileVersionRow(place, file));
  await insertInBatches(files, (batch) => tx.insertInto('file_versions').values(batch).execute());
}

export interface EntryChange {
  kind: TreeEntryKind;
  itemId: string;
  versionId: string | null;
  /** On a change request's line: the item is back as its base holds it, so its own entry ends and none follows. */
  backToBase?: boolean;
}

/**
 * Moves a line to `seq`: the entries of the changed items end there and their
 * new versions start there. Only changed items are touched, so the cost of a
 * write does not grow with the size of the content.
 */
export async function advanceLine(
  tx: Db,
  place: Place,
  changeRequestId: string | null,
  seq: number,
  changes: readonly EntryChange[],
): Promise<void> {
  for (const kind of ['page', 'file', 'reusable_content'] as const) {
    const itemIds = changes.filter((change) => change.kind === kind).map((change) => change.itemId);
    if (itemIds.length === 0) continue;
    await tx
      .updateTable('tree_entries')
      .set({ to_seq: seq })
      .where('space_id', '=', place.spaceId)
      .where(
        changeRequestId === null
          ? sql<boolean>`change_request_id is null`
          : sql<boolean>`change_request_id = ${changeRequestId}`,
      )
      .where('kind', '=', kind)
      .where('item_id', '=', sql<string>`any(${itemIds}::text[])`)
      .where('to_seq', 'is', null)
      .execute();
  }
  // The space's line only holds items that exist; a change request's line also records removals.
  const rows = changes
    .filter((change) => !change.backToBase && (changeRequestId !== null || change.versionId !== null))
    .map((change) => ({
      organization_id: place.organizationId,
      space_id: place.spaceId,
      change_request_id: changeRequestId,
      kind: change.kind,
      item_id: change.itemId,
      version_id: change.versionId,
      from_seq: seq,
    }));
  await insertInBatches(rows, (batch) => tx.insertInto('tree_entries').values(batch).execute());
}

/**
 * Moves the space's own line to `seq`, and its search index with it: every
 * writer of the space's line (a merge, an import) comes through here, so
 * search always shows the space's current content.
 */
export async function advanceSpaceLine(
  tx: Db,
  place: Place,
  seq: number,
  changes: readonly EntryChange[],
): Promise<void> {
  await advanceLine(tx, place, null, seq, changes);
  await reindexPages(
    tx,
    place,
    changes.filter((change) => change.kind === 'page'),
  );
}

/** The next revision on a change request's line, after `point` (its latest, or the space revision it starts from). */
export function nextChangeRequestSeq(point: RevisionPoint): number {
  return point.changeRequestId === null ? 1 : point.seq + 1;
}

export async function insertRevision(tx: Db, row: Insertable<RevisionsTable>): Promise<void> {
  await tx.insertInto('revisions').values(row).execute();
}

/** Moves the change request's head to its new revision. */
export async function setChangeRequestRevision(
  tx: Db,
  changeRequestId: string,
  revisionId: string,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('change_requests')
    .set({ revision_id: revisionId, updated_at: now })
    .where('id', '=', changeRequestId)
    .execute();
}
