import { forEachConcurrently } from '../../core/concurrently.js';
import { BadRequestError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Db } from '../../db/database.js';
import type { Conversions } from '../../conversions/pool.js';
import type { JSONDocument } from '../../document/index.js';
import type { ReusableContents, ReusableContentState } from '../../content/reusable-contents.js';
import type { RevisionPoint, StoredContent } from '../../content/state.js';
import type { Context } from '../../context.js';
import type { ContentChange, ReusableContentChange } from '../schemas.js';
import { writeVersions, type EntryChange, type Place } from './persist.js';

/** Reusable contents one revision may hold: each is sent in full in the revision object. */
export const MAX_REUSABLE_CONTENTS = 1000;

/** Documents read or converted at a time, as for pages (write.ts). */
const CONVERSION_LANES = 4;

const isReusableContentChange = (change: ContentChange): change is ReusableContentChange =>
  change.operation === 'insert_reusable_content' ||
  change.operation === 'update_reusable_content' ||
  change.operation === 'delete_reusable_content';

/**
 * The stored forms of each reusable content document in the batch, by the
 * change's index (null for an empty one), made on the conversion pool before
 * any transaction. A reusable content keeps its markdown whole (no title is
 * taken from it: it has its own), so nothing in it depends on the tree.
 */
export async function prepareReusableContentDocuments(
  conversions: Conversions,
  changes: readonly ContentChange[],
): Promise<Map<number, StoredContent | null>> {
  const prepared = new Map<number, StoredContent | null>();
  const work = [...changes.entries()].filter(
    ([, change]) => isReusableContentChange(change) && 'document' in change && change.document !== undefined,
  );
  await forEachConcurrently(work, CONVERSION_LANES, async ([index, change]) => {
    const document = (change as { document: Record<string, unknown> }).document;
    const field = `body/changes/${index}/document`;
    let markdown = '';
    if (typeof document.markdown === 'string') markdown = document.markdown;
    else if (document.document !== undefined)
      markdown = (await conversions.readDocument(document.document as JSONDocument, field)).markdown;
    if (markdown.trim() === '') {
      prepared.set(index, null);
      return;
    }
    const stored = await conversions.toStoredDocument(markdown, field);
    prepared.set(index, { markdown, ...stored });
  });
  return prepared;
}

export interface AppliedReusableContents {
  /** The reusable contents as the batch leaves them. */
  contents: Map<string, ReusableContentState>;
  /** New versions written, and the entries that put them (or removals) on the line. */
  versions: ReusableContentState[];
  entries: EntryChange[];
  /** New documents, by id. */
  documents: Map<string, StoredContent>;
  /** Reusable contents the batch created, in the order of their changes. */
  inserted: ReusableContentState[];
}

/**
 * Applies the batch's reusable content changes, in order, to a copy of the
 * revision's. Every problem throws before anything is written. A reusable
 * content changed several times in a batch gets one new version.
 */
export function applyReusableContentChanges(
  start: ReusableContents,
  changes: readonly ContentChange[],
  prepared: ReadonlyMap<number, StoredContent | null>,
  now: Date,
): AppliedReusableContents {
  const contents = new Map(start);
  const newContent = new Map<string, StoredContent | null>();
  const insertedIds: string[] = [];
  const touched = new Set<string>();
  const existing = (id: string, field: string) => {
    const found = contents.get(id);
    if (!found) throw new BadRequestError(`${field}/reusableContent: no reusable content ${id} in this change request`);
    return found;
  };

  for (const [index, change] of changes.entries()) {
    if (!isReusableContentChange(change)) continue;
    const field = `body/changes/${index}`;
    switch (change.operation) {
      case 'insert_reusable_content': {
        const id = newId();
        contents.set(id, {
          reusableContentId: id,
          versionId: '',
          title: change.title,
          documentId: null,
          createdAt: now,
          updatedAt: now,
        });
        newContent.set(id, prepared.get(index) ?? null);
        insertedIds.push(id);
        touched.add(id);
        break;
      }
      case 'update_reusable_content': {
        const current = existing(change.reusableContent, field);
        if (change.title === undefined && change.document === undefined)
          throw new BadRequestError(`${field} must set title or document`);
        if (change.title !== undefined) contents.set(current.reusableContentId, { ...current, title: change.title });
        if (change.document !== undefined) newContent.set(current.reusableContentId, prepared.get(index) ?? null);
        touched.add(current.reusableContentId);
        break;
      }
      case 'delete_reusable_content': {
        const current = existing(change.reusableContent, field);
        contents.delete(current.reusableContentId);
        newContent.delete(current.reusableContentId);
        touched.add(current.reusableContentId);
        break;
      }
    }
  }
  if (contents.size > MAX_REUSABLE_CONTENTS)
    throw new BadRequestError(`body/changes: a space holds at most ${MAX_REUSABLE_CONTENTS} reusable contents`);

  const versions: ReusableContentState[] = [];
  const entries: EntryChange[] = [];
  const documents = new Map<string, StoredContent>();
  for (const id of touched) {
    const current = contents.get(id);
    if (!current) {
      // Removed: only what the revision held needs an entry; one made and removed in the batch never existed.
      if (start.has(id)) entries.push({ kind: 'reusable_content', itemId: id, versionId: null });
      continue;
    }
    let documentId = current.documentId;
    const content = newContent.get(id);
    if (content !== undefined) {
      documentId = content === null ? null : newId();
      if (content !== null && documentId) documents.set(documentId, content);
    }
    const version = { ...current, versionId: newId(), documentId, updatedAt: now };
    contents.set(id, version);
    versions.push(version);
    entries.push({ kind: 'reusable_content', itemId: id, versionId: version.versionId });
  }
  const inserted = insertedIds.flatMap((id) => contents.get(id) ?? []);
  return { contents, versions, entries, documents, inserted };
}

/** The reusable contents a batch leaves, written; undefined when the batch changes none. */
export async function writeReusableContents(
  context: Context,
  tx: Db,
  place: Place,
  point: RevisionPoint,
  changes: readonly ContentChange[],
  prepared: ReadonlyMap<number, StoredContent | null>,
  now: Date,
): Promise<AppliedReusableContents | undefined> {
  if (!changes.some(isReusableContentChange)) return undefined;
  const applied = applyReusableContentChanges(
    await context.content.reusableContents(point, tx),
    changes,
    prepared,
    now,
  );
  await writeVersions(tx, place, { documents: applied.documents, pages: [], files: [], blobs: [] }, now);
  const rows = applied.versions.map((version) => ({
    id: version.versionId,
    organization_id: place.organizationId,
    space_id: place.spaceId,
    reusable_content_id: version.reusableContentId,
    title: version.title,
    document_id: version.documentId,
    reusable_content_created_at: version.createdAt,
    created_at: version.updatedAt,
  }));
  // A batch holds at most 50 changes, so at most 50 rows.
  if (rows.length > 0) await tx.insertInto('reusable_content_versions').values(rows).execute();
  return applied;
}
