import { Readable } from 'node:stream';
import { BadRequestError } from '../core/errors.js';
import type { Context } from '../context.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { createStorageUpload, receiveUploadBytes } from '../content/files/storage/actions.js';
import { createChangeRequest, mergeChangeRequest, updateChangeRequestContent } from '../change-requests/actions.js';
import {
  bindWrite,
  filesToUpload,
  recordCreatedPages,
  spaceRepository,
  writesOf,
  type RepositoryContent,
  type RepositoryFile,
  type TopLevelEntry,
  type UnchangedSince,
} from './format/index.js';
import { repositoryChanges } from './repository-changes.js';
import { keepRepositoryRedirects } from './redirects.js';

export interface ApplyRepository {
  organizationId: string;
  spaceId: string;
  /** Who the change request is by: they need the edit role, and to merge, the right to merge. */
  userId: string;
  /** The repository's content, as `readRepository` reads it. */
  content: RepositoryContent;
  /**
   * The revision of the space's own line the repository was last in step
   * with (the last sync, a pushed commit's parent); null, or a revision that
   * is none of the line's: the space's current one.
   */
  baseRevisionId: string | null;
  /** What Git left as it was since that sync (`unchangedSince` of the two syncs' fingerprints). */
  unchanged?: UnchangedSince;
  subject: string;
  /** An open change request to write into instead (its content is compared with the repository's). */
  changeRequestId?: string;
  /** Merge at once when the change request applies cleanly to the space's current revision. */
  merge: boolean;
}

export interface AppliedRepository {
  /** Whether the repository differed from the content it was compared with. */
  changed: boolean;
  changeRequestId: string | null;
  number: number | null;
  merged: boolean;
  /** The space's revision the merge made. */
  revisionId: string | null;
}

/**
 * A repository's content applied to a space as a change request that holds
 * only what the repository changes, based on the revision it was last in
 * step with: merged at once when asked and when it applies cleanly, left
 * open with its conflicts otherwise. Nothing of the space is ever written
 * over: a page both sides changed is a conflict, the space's version stays.
 */
export async function applyRepository(context: Context, input: ApplyRepository): Promise<AppliedRepository> {
  const applied = await applyContent(context, input);
  // `.gitbook.yaml` speaks for the space's published addresses even where its pages wait in a change request.
  await keepRepositoryRedirects(context, input, input.content);
  return applied;
}

async function applyContent(context: Context, input: ApplyRepository): Promise<AppliedRepository> {
  const existing = input.changeRequestId
    ? await changeRequestIn(context, input.spaceId, input.changeRequestId)
    : undefined;
  if (existing && existing.status !== 'open' && existing.status !== 'draft')
    throw new BadRequestError(`Change request #${existing.number} is ${existing.status}: it takes no more changes`);
  const comparedWith = existing?.revision_id ?? input.baseRevisionId ?? undefined;
  // Where Git left the table of contents as it was, the space's files are needed only for the pages Git changed.
  const unchanged = input.unchanged;
  const options = {
    ...(unchanged?.structure ? { pageFiles: changedPages(input.content, unchanged) } : {}),
    ...(unchanged
      ? { files: new Set(input.content.files.flatMap((file) => (unchanged.assets.has(file.name) ? [] : [file.name]))) }
      : {}),
  };
  const read = (revisionId: string | undefined) =>
    spaceRepository(context, input.organizationId, input.spaceId, revisionId, options);
  const space = await read(comparedWith).catch((error) => {
    // A base that is gone (a revision of another space, a typo) is compared as the current revision.
    if (existing || !input.baseRevisionId) throw error;
    return read(undefined);
  });
  const { files, changes } = repositoryChanges(space, input.content, input.unchanged);
  // An open change request with nothing new is still merged when asked: its conflicts may have been resolved since.
  if (files.length === 0 && changes.length === 0 && !(existing && input.merge)) {
    return {
      changed: false,
      changeRequestId: existing?.id ?? null,
      number: existing?.number ?? null,
      merged: false,
      revisionId: null,
    };
  }

  const changeRequest =
    existing ??
    (await createChangeRequest(
      context,
      input.userId,
      input.spaceId,
      { subject: input.subject },
      input.baseRevisionId ? { baseRevisionId: input.baseRevisionId } : {},
    ));
  const target = { ...input, changeRequestId: changeRequest.id };
  const urls = new Map<string, string>();
  for (const file of filesToUpload({ ...input.content, files }))
    urls.set(file.name, await upload(context, target, file));
  const written = new Map<string, string>();
  for (const write of writesOf(files, changes, { urls })) {
    const answer = await updateChangeRequestContent(
      context,
      input.userId,
      input.spaceId,
      changeRequest.id,
      bindWrite(write, written),
      false,
    );
    if (!answer.compat) recordCreatedPages(answer.batch as Parameters<typeof recordCreatedPages>[0], written);
  }
  // Git's own change: no export of it goes back to Git.
  const merged = input.merge
    ? await mergeChangeRequest(context, input.userId, input.spaceId, changeRequest.id, 'git-sync')
    : null;
  return {
    changed: files.length > 0 || changes.length > 0,
    changeRequestId: changeRequest.id,
    number: changeRequest.number,
    merged: merged?.result === 'merge',
    revisionId: merged?.result === 'merge' ? merged.revision : null,
  };
}

/** The repository's page files Git changed since the last sync. */
function changedPages(content: RepositoryContent, unchanged: UnchangedSince): Set<string> {
  const paths = new Set<string>();
  const visit = (entries: readonly TopLevelEntry[]) => {
    for (const entry of entries) {
      if (entry.kind === 'page' && !unchanged.pages.has(entry.path)) paths.add(entry.path);
      if (entry.kind !== 'link') visit(entry.children);
    }
  };
  visit(content.entries);
  return paths;
}

/** A file too large to write inline, uploaded through the storage upload a client would use; its URL names it. */
async function upload(
  context: Context,
  target: { organizationId: string; userId: string },
  file: RepositoryFile,
): Promise<string> {
  const { url, key } = await createStorageUpload(context, target.userId, target.organizationId, {
    kind: 'import_file',
    file: { name: file.name, size: file.bytes.byteLength, type: file.contentType },
  });
  const signature = new URL(url).searchParams.get('signature') ?? '';
  await receiveUploadBytes(context, key, signature, Readable.from([Buffer.from(file.bytes)]), file.bytes.byteLength);
  return url;
}
