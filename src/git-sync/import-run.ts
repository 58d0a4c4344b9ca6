import { ConflictError } from '../core/errors.js';
import type { Context } from '../context.js';
import { unchangedSince, type ReadRepository, type RepositoryFingerprints } from './format/index.js';
import { applyRepository } from './apply-repository.js';
import { GitRemoteError } from './git/errors.js';
import type { GitRemote } from './git/remote.js';
import {
  findLink,
  saveLink,
  savePendingImport,
  type GitSyncOperation,
  type LinkState,
  type PendingImport,
} from './queries.js';
import { branchName, shortCommit, type RunOutcome } from './run-outcome.js';

/**
 * An import: the branch's tip read as a Git Sync repository becomes a change
 * request, opened as the user who asked for it, on the space's revision at
 * the last sync with the branch and holding only what Git changed since;
 * merged at once when it applies cleanly to the space's current revision.
 * When the space changed a page Git changed too, the change request stays
 * open with its conflicts: nothing of the space is written over. The next
 * import writes into that change request (and tries its merge again) rather
 * than opening another; once someone resolves and merges it, the space is in
 * step with the commit it holds.
 */
export async function runImport(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const organizationId = operation.organization_id;
  const spaceId = operation.space_id;
  const place = { organizationId, spaceId, url: remote.url, ref: remote.ref };
  const { commit, read } = await context.git.readRepository(remote, operation.project_directory, signal);
  if (commit === null || read === null) {
    throw new GitRemoteError(`The repository has no branch ${branchName(remote.ref)}`, 'not-found');
  }
  const link = await findLink(context.db, organizationId, spaceId, remote.url, remote.ref);
  if (operation.standalone) return lookFirst(context, operation, { commit, read, link });
  // With force, the whole repository is compared with the space as it is now, as a first import is.
  let since: LinkState | undefined = operation.force ? undefined : link;
  let pending = operation.force ? null : (link?.pending ?? null);
  if (pending) {
    const state = await pendingState(context, organizationId, spaceId, pending);
    if (state.status === 'merged' || state.status === 'archived') {
      // Someone settled it: merged, the space took Git's side; archived, it kept its own (the change request keeps
      // Git's). Either way the space has seen that commit, and stands at the revision that settled it.
      const resolved = {
        commitSha: pending.commitSha,
        revisionId: state.revisionId,
        fingerprints: pending.fingerprints,
      };
      await saveLink(context.db, { ...place, ...resolved }, context.clock.now());
      since = resolved;
    }
    if (state.status !== 'open') pending = null;
  }
  if (!pending && since?.commitSha === commit) return { commitSha: commit, changeRequestId: null };

  // What Git changed since what the space (or the open change request) last took from it.
  const previous: RepositoryFingerprints | null | undefined = pending ? pending.fingerprints : since?.fingerprints;
  const applied = await applyRepository(context, {
    organizationId,
    spaceId,
    userId: operation.requested_by,
    content: read.content,
    baseRevisionId: since?.revisionId ?? null,
    ...(previous ? { unchanged: unchangedSince(previous, read.fingerprints) } : {}),
    subject: `Import ${branchName(remote.ref)} at ${shortCommit(commit)} from ${remote.url}`,
    ...(pending ? { changeRequestId: pending.changeRequestId } : {}),
    merge: true,
  });
  if (applied.changeRequestId !== null && !applied.merged) {
    if (link)
      await savePendingImport(
        context.db,
        place,
        { changeRequestId: applied.changeRequestId, commitSha: commit, fingerprints: read.fingerprints },
        context.clock.now(),
      );
    throw new ConflictError(
      `The import conflicts with changes made in the space meanwhile; change request #${applied.number} holds it, open`,
    );
  }
  const revisionId = applied.revisionId ?? (await spaceRevision(context, organizationId, spaceId));
  await saveLink(
    context.db,
    { ...place, commitSha: commit, revisionId, fingerprints: read.fingerprints },
    context.clock.now(),
  );
  return { commitSha: commit, changeRequestId: applied.changeRequestId };
}

/**
 * A standalone import (GitBook's `standalone`): what the import would change,
 * from the last sync as an import would, in a change request left open; the
 * space and the link stay as they were, so the next import is the real one.
 */
async function lookFirst(
  context: Context,
  operation: GitSyncOperation,
  { commit, read, link }: { commit: string; read: ReadRepository; link: LinkState | undefined },
): Promise<RunOutcome> {
  const since = operation.force ? undefined : link;
  const applied = await applyRepository(context, {
    organizationId: operation.organization_id,
    spaceId: operation.space_id,
    userId: operation.requested_by,
    content: read.content,
    baseRevisionId: since?.revisionId ?? null,
    ...(since?.fingerprints ? { unchanged: unchangedSince(since.fingerprints, read.fingerprints) } : {}),
    subject: `What importing ${branchName(operation.ref)} at ${shortCommit(commit)} from ${operation.url} would change`,
    merge: false,
  });
  return { commitSha: commit, changeRequestId: applied.changeRequestId };
}

/**
 * Where the change request of an import that conflicted stands: still open;
 * merged, and by which revision; archived, with the space's revision now; or
 * gone with its space's history.
 */
async function pendingState(
  context: Context,
  organizationId: string,
  spaceId: string,
  pending: PendingImport,
): Promise<{ status: 'open' } | { status: 'merged' | 'archived'; revisionId: string } | { status: 'gone' }> {
  const row = await context.db
    .selectFrom('change_requests as cr')
    .innerJoin('spaces as s', 's.id', 'cr.space_id')
    .select(['cr.status', 'cr.revision_merged_id', 's.revision_id as space_revision_id'])
    .where('cr.organization_id', '=', organizationId)
    .where('cr.space_id', '=', spaceId)
    .where('cr.id', '=', pending.changeRequestId)
    .executeTakeFirst();
  if (row?.status === 'open' || row?.status === 'draft') return { status: 'open' };
  if (row?.status === 'merged' && row.revision_merged_id)
    return { status: 'merged', revisionId: row.revision_merged_id };
  if (row?.status === 'archived') return { status: 'archived', revisionId: row.space_revision_id };
  return { status: 'gone' };
}

/** The space's current revision: what an import that changed nothing is in step with. */
export async function spaceRevision(context: Context, organizationId: string, spaceId: string): Promise<string> {
  const space = await context.db
    .selectFrom('spaces')
    .select('revision_id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  return space.revision_id;
}
