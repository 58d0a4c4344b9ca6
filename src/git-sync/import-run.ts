import { ConflictError } from '../core/errors.js';
import type { Context } from '../context.js';
import { unchangedSince } from './format/index.js';
import { applyRepository } from './apply-repository.js';
import { GitRemoteError } from './git/errors.js';
import type { GitRemote } from './git/remote.js';
import { findLink, saveLink, type GitSyncOperation } from './queries.js';
import { branchName, shortCommit, type RunOutcome } from './run-outcome.js';

/**
 * An import: the branch's tip read as a Git Sync repository becomes a change
 * request, opened as the user who asked for it, on the space's revision at
 * the last sync with the branch and holding only what Git changed since;
 * merged at once when it applies cleanly to the space's current revision.
 * When the space changed a page Git changed too, the change request stays
 * open with its conflicts: nothing of the space is written over.
 */
export async function runImport(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const organizationId = operation.organization_id;
  const spaceId = operation.space_id;
  const { commit, read } = await context.git.readRepository(remote, operation.project_directory, signal);
  if (commit === null || read === null) {
    throw new GitRemoteError(`The repository has no branch ${branchName(remote.ref)}`, 'not-found');
  }
  const link = await findLink(context.db, organizationId, spaceId, remote.url, remote.ref);
  if (link?.commitSha === commit && !operation.force) return { commitSha: commit, changeRequestId: null };

  // With force, the whole repository is compared with the space as it is now, as a first import is.
  const since = operation.force ? undefined : link;
  const applied = await applyRepository(context, {
    organizationId,
    spaceId,
    userId: operation.requested_by,
    content: read.content,
    baseRevisionId: since?.revisionId ?? null,
    ...(since?.fingerprints ? { unchanged: unchangedSince(since.fingerprints, read.fingerprints) } : {}),
    subject: `Import ${branchName(remote.ref)} at ${shortCommit(commit)} from ${remote.url}`,
    merge: true,
  });
  if (applied.changed && !applied.merged) {
    throw new ConflictError(
      `The import conflicts with changes made in the space meanwhile; change request #${applied.number} holds it, open`,
    );
  }
  const revisionId = applied.revisionId ?? (await spaceRevision(context, organizationId, spaceId));
  await saveLink(
    context.db,
    {
      organizationId,
      spaceId,
      url: remote.url,
      ref: remote.ref,
      commitSha: commit,
      revisionId,
      fingerprints: read.fingerprints,
    },
    context.clock.now(),
  );
  return { commitSha: commit, changeRequestId: applied.changeRequestId };
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
