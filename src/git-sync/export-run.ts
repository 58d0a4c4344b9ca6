import { findEditableSpace } from '../access/spaces.js';
import { ConflictError } from '../core/errors.js';
import type { Context } from '../context.js';
import { repositoryOfSpace, writeRepository } from './format/index.js';
import type { GitRemote } from './git/remote.js';
import { findLinkCommit, saveLinkCommit, type GitSyncOperation } from './queries.js';
import { branchName, shortCommit, type RunOutcome } from './run-outcome.js';

/**
 * An export: the space's current content, written as GitBook's Git Sync
 * writes it, becomes one commit on the branch, authored by the user who asked
 * for it. The commit goes on top of the commit the space last synced with
 * (fast-forward only, never a force-push); a branch that moved since is
 * reported and left as it is. Files of the repository that are not the
 * space's pages (code, markdown SUMMARY.md does not list, assets) stay.
 */
export async function runExport(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const organizationId = operation.organization_id;
  const spaceId = operation.space_id;
  // Asked for earlier: the caller must still be able to edit the space now that it runs (an import checks as it writes).
  await findEditableSpace(context, spaceId, operation.requested_by, 'Exporting to a Git repository');
  const content = await repositoryOfSpace(context, organizationId, spaceId);
  const files = writeRepository(content, { projectDirectory: operation.project_directory });
  const synced = await findLinkCommit(context.db, organizationId, spaceId, remote.url, remote.ref);
  const author = await context.db
    .selectFrom('users')
    .select(['display_name', 'email'])
    .where('id', '=', operation.requested_by)
    .executeTakeFirstOrThrow();
  const change = {
    files,
    keepOutsideSpace: { projectDirectory: operation.project_directory },
    message: operation.commit_message ?? 'Update from the space',
    author: {
      name: author.display_name,
      email: author.email,
      timestamp: Math.floor(context.clock.now().getTime() / 1000),
    },
  };
  let outcome = await context.git.commitFiles(remote, { ...change, expected: synced ?? null }, signal);
  if (outcome.result === 'behind' && synced === undefined && operation.force) {
    // Never synced with this branch: with force, the space's files go on top of whatever it holds.
    outcome = await context.git.commitFiles(remote, { ...change, expected: outcome.tip }, signal);
  }
  if (outcome.result === 'behind') {
    const where = outcome.tip === null ? 'no longer exists' : `is at ${shortCommit(outcome.tip)}`;
    throw new ConflictError(
      synced === undefined
        ? `The branch ${branchName(remote.ref)} already has commits and the space never synced with it: import it first, or export with force`
        : `The branch ${branchName(remote.ref)} ${where}, not at ${shortCommit(synced)} where the space last synced: import it first`,
    );
  }
  await saveLinkCommit(
    context.db,
    { organizationId, spaceId, url: remote.url, ref: remote.ref, commitSha: outcome.commit },
    context.clock.now(),
  );
  return { commitSha: outcome.commit, changeRequestId: null };
}
