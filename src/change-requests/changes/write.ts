import { forEachConcurrently } from '../../core/concurrently.js';
import { ApiError, ConflictError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Conversions } from '../../conversions/pool.js';
import type { Db } from '../../db/database.js';
import { findRevision, type RevisionPoint, type StoredContent } from '../../content/state.js';
import type { ContentTree, FileState } from '../../content/tree.js';
import { lockSpaceLine, lockSpaceThenChangeRequest } from '../../content/write-locks.js';
import { keepOldAddresses } from '../../content/path-history/record.js';
import { perContext, type Context } from '../../context.js';
import type { ContentChange } from '../schemas.js';
import { applyChanges, type PageOutcome } from './apply.js';
import { setSpaceRevision } from '../queries.js';
import { InFlight, type InFlightLimits } from '../../core/in-flight.js';
import {
  DEFAULT_FILE_BATCH_MAX_BYTES,
  prepareFiles,
  type FileBatchLimits,
  type PreparedFile,
  type UploadTaker,
} from './files.js';
import { takeUpload, uploadIdOf } from '../../content/files/storage/actions.js';
import { readPageContent, type PageContent } from './page-input.js';
import type { VariableValues } from '../../db/types.js';
import type { ReusableContentState } from '../../content/reusable-contents.js';
import {
  prepareReusableContentDocuments,
  writeReusableContents,
  type AppliedReusableContents,
} from './reusable-contents.js';
import { spaceVariablesAfter } from './variables.js';
import { checkOutsideTargets, normalizeLinkTargets } from './page-kinds.js';
import { loadRevertSources } from './revert.js';
import { relinkEarlierPages } from './relink.js';
import { insertUnresolvedLinks } from './unresolved-links.js';
import { namingRefusedChange } from './refusals.js';
import {
  advanceLine,
  advanceSpaceLine,
  insertRevision,
  nextChangeRequestSeq,
  setChangeRequestRevision,
  writeVersions,
  type EntryChange,
  type Place,
} from './persist.js';

export interface WrittenBatch {
  revisionId: string;
  outcomes: PageOutcome[];
  insertedFiles: FileState[];
  insertedReusableContents: ReusableContentState[];
}

/** Refuses writes to a change request that is no longer being worked on. */
export function requireWorkable(status: string): void {
  if (status === 'merged') throw new ConflictError('The change request is merged; its content can no longer change');
  if (status === 'archived')
    throw new ConflictError('The change request is archived; set its status to open or draft to change it');
}

/**
 * Documents of one batch read or converted at a time: enough to keep the
 * conversion pool's threads busy, few enough that one batch (an import of
 * hundreds of pages) cannot fill its queue ahead of everyone else's.
 */
const CONVERSION_LANES = 4;

/** Reads every page document of the batch on the conversion pool, by the change's index. */
async function readContents(
  conversions: Conversions,
  changes: readonly ContentChange[],
): Promise<Map<number, PageContent>> {
  const contents = new Map<number, PageContent>();
  await forEachConcurrently([...changes.entries()], CONVERSION_LANES, async ([index, change]) => {
    if ((change.operation === 'insert_page' || change.operation === 'update_page') && change.document !== undefined) {
      contents.set(index, await readPageContent(conversions, change.document, `body/changes/${index}`));
    }
  });
  return contents;
}

/** The JSON document and facts of each new markdown, made once, now, so that no read ever parses markdown. */
async function convertDocuments(
  conversions: Conversions,
  documents: ReadonlyMap<string, string>,
  field: (id: string) => string,
) {
  const converted = new Map<string, StoredContent>();
  await forEachConcurrently([...documents], CONVERSION_LANES, async ([id, markdown]) => {
    const { documentJson, facts } = await conversions.toStoredDocument(markdown, field(id));
    converted.set(id, { markdown, documentJson, facts });
  });
  return converted;
}

/** Files of the organization's storage that a batch names by their upload URL. */
function uploadsOf(context: Context, organizationId: string): UploadTaker {
  return async (url, field) => {
    const uploadId = uploadIdOf(context, url);
    if (uploadId === undefined) return undefined;
    const upload = await takeUpload(context, organizationId, uploadId, field);
    const { content_type: contentType, sha256, size, width, height } = upload;
    return { contentType, sha256, size, width, height };
  };
}

/** FILE_BATCH_MAX_BYTES for the whole batch; OUTBOUND_MAX_BYTES for each fetched file. */
function fileBatchLimits(context: Context): FileBatchLimits {
  return {
    maxBatchBytes: context.config.fileBatchMaxBytes ?? DEFAULT_FILE_BATCH_MAX_BYTES,
    maxFileBytes: context.config.outbound.maxBytes,
  };
}

/**
 * Content writes that fetch files, at once in this instance: each may hold up
 * to FILE_BATCH_MAX_BYTES until it is written, so one user may run one, an
 * organization two, and the instance four.
 */
const FILE_WRITES: InFlightLimits = { perUser: 1, perOrganization: 2, total: 4 };
const fileWrites = perContext(() => new InFlight(FILE_WRITES, 'content writes that fetch files'));

/** Runs a write in a file-writing slot when it fetches files itself; others run at once. */
function inFileWriteSlot<T>(
  context: Context,
  target: { organizationId: string; userId: string },
  changes: readonly ContentChange[],
  preparedFiles: Map<number, PreparedFile[]> | undefined,
  write: () => Promise<T>,
): Promise<T> {
  // Inline files came with the request, within BODY_LIMIT: only fetched ones can grow to the batch bound.
  const fetches = changes.some(
    (change) => change.operation === 'insert_files' && change.files.some((file) => 'url' in file),
  );
  if (preparedFiles || !fetches) return write();
  return fileWrites(context).run(target, write);
}

/** What a batch needs from outside the transaction: its files' bytes and its pages' documents, read. */
export interface PreparedBatch {
  files: Map<number, PreparedFile[]>;
  contents: Map<number, PageContent>;
  /** Reusable contents' documents, stored forms made (reusable-contents.ts). */
  reusableContents: Map<number, StoredContent | null>;
}

/**
 * Fetches or decodes the batch's files and reads its documents, before any
 * transaction. `files` replaces the fetch where the caller already holds the
 * bytes (an import), keyed by the change's index.
 */
export async function prepareBatch(
  context: Context,
  organizationId: string,
  changes: readonly ContentChange[],
  files?: Map<number, PreparedFile[]>,
): Promise<PreparedBatch> {
  return {
    files:
      files ??
      (await prepareFiles(context.outbound, changes, fileBatchLimits(context), uploadsOf(context, organizationId))),
    contents: await readContents(context.conversions, changes),
    reusableContents: await prepareReusableContentDocuments(context.conversions, changes),
  };
}

interface BatchWrite {
  revisionId: string;
  tree: ContentTree;
  documents: Map<string, StoredContent>;
  outcomes: PageOutcome[];
  insertedFiles: FileState[];
  entries: EntryChange[];
  /** The space's variables in the new revision. */
  variables: VariableValues;
  /** The reusable contents as the batch leaves them; undefined when it changed none. */
  reusable: AppliedReusableContents | undefined;
}

/**
 * Applies a prepared batch to the tree at `point` and writes the rows of what
 * it made (documents, page and file versions); the caller adds the revision
 * and moves its line.
 */
async function applyAndWriteVersions(
  context: Context,
  tx: Db,
  place: Place,
  point: RevisionPoint,
  given: readonly ContentChange[],
  prepared: PreparedBatch,
  now: Date,
): Promise<Omit<BatchWrite, 'revisionId'>> {
  const start = await context.content.tree(point, tx);
  try {
    return await applyAndWrite(context, tx, place, { point, start }, given, prepared, now);
  } catch (error) {
    throw namingRefusedChange(error, given, prepared.contents, start);
  }
}

async function applyAndWrite(
  context: Context,
  tx: Db,
  place: Place,
  { point, start }: { point: RevisionPoint; start: ContentTree },
  given: readonly ContentChange[],
  prepared: PreparedBatch,
  now: Date,
): Promise<Omit<BatchWrite, 'revisionId'>> {
  const changes = normalizeLinkTargets(given, place.spaceId);
  await checkOutsideTargets(context, tx, place.organizationId, changes);
  const reverts = await loadRevertSources(context, tx, point, changes);
  const applied = applyChanges(start, changes, { ...prepared, reverts }, now);
  await relinkEarlierPages(context, tx, place, applied, now);
  // Pages back at their base keep the base's version: nothing new to write for them.
  const newPages = [...applied.pages]
    .filter(([pageId]) => !applied.backToBase.has(pageId))
    .flatMap(([, page]) => (page ? [page] : []));
  const pageOfDocument = new Map(newPages.map((page) => [page.documentId, page.pageId]));
  const documents = await convertDocuments(
    context.conversions,
    applied.documents,
    (id) => `the markdown of page ${pageOfDocument.get(id)}`,
  );
  const newFiles = applied.files.map((file) => applied.tree.files.get(file.fileId)!);
  await writeVersions(tx, place, { documents, pages: newPages, files: newFiles, blobs: applied.files }, now);
  await insertUnresolvedLinks(tx, place, applied.unresolved);
  const variables = spaceVariablesAfter(point.variables, changes);
  const reusable = await writeReusableContents(context, tx, place, point, changes, prepared.reusableContents, now);
  const entries: EntryChange[] = [
    ...[...applied.pages].map(([pageId, page]) => ({
      kind: 'page' as const,
      itemId: pageId,
      versionId: page?.versionId ?? null,
      ...(applied.backToBase.has(pageId) ? { backToBase: true } : {}),
    })),
    ...newFiles.map((file) => ({ kind: 'file' as const, itemId: file.fileId, versionId: file.versionId })),
    ...(reusable?.entries ?? []),
  ];
  return {
    tree: applied.tree,
    documents,
    outcomes: applied.outcomes,
    insertedFiles: newFiles,
    entries,
    variables,
    reusable,
  };
}

function rememberWrite(context: Context, written: BatchWrite): WrittenBatch {
  context.content.remember(written.revisionId, written.tree);
  context.content.rememberDocuments(written.documents);
  if (written.reusable) {
    context.content.rememberReusableContents(written.revisionId, written.reusable.contents);
    context.content.rememberDocuments(written.reusable.documents);
  }
  return {
    revisionId: written.revisionId,
    outcomes: written.outcomes,
    insertedFiles: written.insertedFiles,
    insertedReusableContents: written.reusable?.inserted ?? [],
  };
}

/**
 * Applies a batch of content changes to a change request as one new revision
 * of it, in one transaction. Files are fetched and documents read first, outside it.
 */
export async function writeChangeRequestContent(
  context: Context,
  target: ChangeRequestWriteTarget,
  changes: readonly ContentChange[],
  preparedFiles?: Map<number, PreparedFile[]>,
): Promise<WrittenBatch> {
  return inFileWriteSlot(context, target, changes, preparedFiles, () =>
    writeChangeRequestBatch(context, target, changes, preparedFiles),
  );
}

/**
 * Where a batch goes. With `expectedRevisionId`, it is written only onto that
 * revision of the change request (checked under its lock): a writer who read
 * the content there loses no one's write made since (412 otherwise).
 */
export interface ChangeRequestWriteTarget {
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  userId: string;
  expectedRevisionId?: string;
}

async function writeChangeRequestBatch(
  context: Context,
  target: ChangeRequestWriteTarget,
  changes: readonly ContentChange[],
  preparedFiles: Map<number, PreparedFile[]> | undefined,
): Promise<WrittenBatch> {
  const prepared = await prepareBatch(context, target.organizationId, changes, preparedFiles).catch(
    (error: unknown) => {
      throw namingRefusedChange(error, changes, undefined, undefined);
    },
  );
  const place = { organizationId: target.organizationId, spaceId: target.spaceId };

  const written = await context.db.transaction().execute(async (tx) => {
    // The new revision's reference to the space needs a key-share lock on it
    // anyway; taken before the change request's, a merge in progress is waited
    // for instead of deadlocked with. The change request's lock orders
    // concurrent batches on it: each applies to the revision the previous one made.
    const { changeRequest: locked } = await lockSpaceThenChangeRequest(
      tx,
      target.spaceId,
      target.changeRequestId,
      'key-share',
    );
    requireWorkable(locked.status);
    if (target.expectedRevisionId !== undefined && locked.revision_id !== target.expectedRevisionId) {
      throw new ApiError(412, 'The change request has a newer revision than the one this write was made on');
    }
    const point = await findRevision(tx, target.spaceId, locked.revision_id);
    if (!point) throw new Error(`Change request ${target.changeRequestId} points at a missing revision`);
    const now = context.clock.now();
    const batch = await applyAndWriteVersions(context, tx, place, point, changes, prepared, now);

    const seq = nextChangeRequestSeq(point);
    const revisionId = newId();
    await insertRevision(tx, {
      id: revisionId,
      organization_id: target.organizationId,
      space_id: target.spaceId,
      change_request_id: target.changeRequestId,
      seq,
      base_seq: point.baseSeq,
      type: 'edits',
      parents: [point.id],
      variables: JSON.stringify(batch.variables),
      created_by: target.userId,
      created_at: now,
    });
    await advanceLine(tx, place, target.changeRequestId, seq, batch.entries);
    await setChangeRequestRevision(tx, target.changeRequestId, revisionId, now);
    return { ...batch, revisionId };
  });
  return rememberWrite(context, written);
}

/**
 * Applies a batch of content changes straight to the space, as one new
 * revision of its own line (an import into the space): the same batch as a
 * change request's, written the way a merge writes. Writers of the space's
 * line go one at a time, under its row lock.
 */
export async function writeSpaceContent(
  context: Context,
  target: { organizationId: string; spaceId: string; userId: string },
  changes: readonly ContentChange[],
  preparedFiles?: Map<number, PreparedFile[]>,
): Promise<WrittenBatch> {
  return inFileWriteSlot(context, target, changes, preparedFiles, () =>
    writeSpaceBatch(context, target, changes, preparedFiles),
  );
}

async function writeSpaceBatch(
  context: Context,
  target: { organizationId: string; spaceId: string; userId: string },
  changes: readonly ContentChange[],
  preparedFiles: Map<number, PreparedFile[]> | undefined,
): Promise<WrittenBatch> {
  const prepared = await prepareBatch(context, target.organizationId, changes, preparedFiles).catch(
    (error: unknown) => {
      throw namingRefusedChange(error, changes, undefined, undefined);
    },
  );
  const place = { organizationId: target.organizationId, spaceId: target.spaceId };

  const written = await context.db.transaction().execute(async (tx) => {
    const space = await lockSpaceLine(tx, target.spaceId);
    const head = await findRevision(tx, target.spaceId, space.revision_id);
    if (!head) throw new Error(`Space ${target.spaceId} points at a missing revision`);
    const now = context.clock.now();
    const batch = await applyAndWriteVersions(context, tx, place, head, changes, prepared, now);

    const revisionId = newId();
    await insertRevision(tx, {
      id: revisionId,
      organization_id: target.organizationId,
      space_id: target.spaceId,
      change_request_id: null,
      seq: head.seq + 1,
      base_seq: null,
      type: 'update',
      parents: [head.id],
      variables: JSON.stringify(batch.variables),
      created_by: target.userId,
      created_at: now,
    });
    await advanceSpaceLine(tx, place, head.seq + 1, batch.entries);
    const before = await context.content.tree(head, tx);
    await keepOldAddresses(tx, place, head.seq + 1, { before, after: batch.tree }, batch.entries);
    await setSpaceRevision(tx, target.spaceId, revisionId, now);
    return { ...batch, revisionId };
  });
  return rememberWrite(context, written);
}
