import { Readable } from 'node:stream';
import { ConflictError } from '../core/errors.js';
import type { Context } from '../context.js';
import { findRevision, loadTree } from '../content/state.js';
import { createStorageUpload, receiveUploadBytes } from '../content/files/storage/actions.js';
import { createChangeRequest, mergeChangeRequest, updateChangeRequestContent } from '../change-requests/actions.js';
import type { ContentChange } from '../change-requests/schemas.js';
import {
  bindWrite,
  changesOfRepository,
  filesToUpload,
  recordCreatedPages,
  type RepositoryContent,
  type RepositoryFile,
} from './format/index.js';
import { GitRemoteError } from './git/errors.js';
import type { GitRemote } from './git/remote.js';
import { findLinkCommit, saveLinkCommit, type GitSyncOperation } from './queries.js';
import { branchName, shortCommit, type RunOutcome } from './run-outcome.js';

/**
 * An import: the branch's tip read as a Git Sync repository becomes a change
 * request that replaces the space's content with the repository's, opened as
 * the user who asked for it and merged at once when it applies cleanly to
 * the space. When the space changed meanwhile in a way that conflicts, the
 * change request stays open with its conflicts: nothing of the space is
 * written over.
 */
export async function runImport(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const organizationId = operation.organization_id;
  const spaceId = operation.space_id;
  const userId = operation.requested_by;
  const { commit, read } = await context.git.readRepository(remote, operation.project_directory, signal);
  if (commit === null || read === null) {
    throw new GitRemoteError(`The repository has no branch ${branchName(remote.ref)}`, 'not-found');
  }
  const synced = await findLinkCommit(context.db, organizationId, spaceId, remote.url, remote.ref);
  if (synced === commit && !operation.force) return { commitSha: commit, changeRequestId: null };

  const changeRequest = await createChangeRequest(context, userId, spaceId, {
    subject: `Import ${branchName(remote.ref)} at ${shortCommit(commit)} from ${remote.url}`,
  });
  await writeContent(context, { organizationId, spaceId, userId, changeRequestId: changeRequest.id }, read.content);
  const merged = await mergeChangeRequest(context, userId, spaceId, changeRequest.id);
  if (merged.result !== 'merge') {
    throw new ConflictError(
      `The import conflicts with changes made in the space meanwhile; change request #${changeRequest.number} holds it, open`,
    );
  }
  await saveLinkCommit(
    context.db,
    { organizationId, spaceId, url: remote.url, ref: remote.ref, commitSha: commit },
    context.clock.now(),
  );
  return { commitSha: commit, changeRequestId: changeRequest.id };
}

interface Target {
  organizationId: string;
  spaceId: string;
  userId: string;
  changeRequestId: string;
}

/** The change request's content made the repository's: its entries removed, then the repository's written in. */
async function writeContent(context: Context, target: Target, content: RepositoryContent): Promise<void> {
  const removals = await topLevelRemovals(context, target);
  const urls = new Map<string, string>();
  for (const file of filesToUpload(content)) urls.set(file.name, await upload(context, target, file));
  const writes: ContentChange[][] = [
    ...(removals.length > 0 ? [removals] : []),
    ...changesOfRepository(content, { urls }),
  ];
  const written = new Map<string, string>();
  for (const write of writes) {
    const answer = await updateChangeRequestContent(
      context,
      target.userId,
      target.spaceId,
      target.changeRequestId,
      bindWrite(write, written),
      false,
    );
    if (!answer.compat) recordCreatedPages(answer.batch as Parameters<typeof recordCreatedPages>[0], written);
  }
}

/** A removal of each top-level entry of the change request's content (a group or page goes with what it holds). */
async function topLevelRemovals(context: Context, target: Target): Promise<ContentChange[]> {
  const changeRequest = await context.db
    .selectFrom('change_requests')
    .select('revision_id')
    .where('organization_id', '=', target.organizationId)
    .where('id', '=', target.changeRequestId)
    .executeTakeFirstOrThrow();
  const point = await findRevision(context.db, target.spaceId, changeRequest.revision_id);
  if (!point) return [];
  const tree = await loadTree(context.db, point);
  return tree.childrenOf(null).map((page): ContentChange => ({ operation: 'delete_page', page: page.pageId }));
}

/** A file too large to write inline, uploaded through the storage upload a client would use; its URL names it. */
async function upload(context: Context, target: Target, file: RepositoryFile): Promise<string> {
  const { url, key } = await createStorageUpload(context, target.userId, target.organizationId, {
    kind: 'import_file',
    file: { name: file.name, size: file.bytes.byteLength, type: file.contentType },
  });
  const signature = new URL(url).searchParams.get('signature') ?? '';
  await receiveUploadBytes(context, key, signature, Readable.from([Buffer.from(file.bytes)]), file.bytes.byteLength);
  return url;
}
