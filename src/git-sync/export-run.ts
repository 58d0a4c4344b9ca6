import { findEditableSpace } from '../access/spaces.js';
import { ConflictError } from '../core/errors.js';
import type { Context } from '../context.js';
import { spaceRepository, writeRepository } from './format/index.js';
import { withSpaceRedirects } from './redirects.js';
import type { GitRemote } from './git/remote.js';
import type { CommitChange } from './git/threads.js';
import { runImport, spaceRevision } from './import-run.js';
import { findLink, saveLink, type GitSyncOperation } from './queries.js';
import { branchName, shortCommit, type RunOutcome } from './run-outcome.js';

/** Times an export brings a branch that moved into the space before it gives up (the branch keeps moving). */
const CATCH_UPS = 3;

/**
 * An export: the space's current content, written as GitBook's Git Sync
 * writes it, becomes one commit on the branch, authored by the user who asked
 * for it, on top of the commit the space last synced with: a fast-forward
 * push, never a force-push. A branch that moved since (someone pushed first)
 * is imported first, as a change request merged when it applies cleanly, and
 * the space's content then goes on top of it; where the two sides changed the
 * same page, that change request stays open with its conflicts and the
 * branch is left as it is. Files of the repository that are not the space's
 * pages (code, markdown SUMMARY.md does not list, assets) stay.
 */
export async function runExport(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  // Asked for earlier: the caller must still be able to edit the space now that it runs (an import checks as it writes).
  await findEditableSpace(context, operation.space_id, operation.requested_by, 'Exporting to a Git repository');
  const author = await context.db
    .selectFrom('users')
    .select(['display_name', 'email'])
    .where('id', '=', operation.requested_by)
    .executeTakeFirstOrThrow();
  // One merge's export commits the revision it made; once Git's commits came in, the space's current one holds both.
  let revisionId = operation.revision_id;
  if (revisionId && (await exportedSince(context, operation, remote, revisionId)))
    return { commitSha: null, changeRequestId: null };
  for (let attempt = 0; ; attempt++) {
    const outcome = await exportOnce(context, operation, remote, author, revisionId, signal);
    if (outcome.result === 'done') return outcome.run;
    if (attempt === CATCH_UPS)
      throw new ConflictError(`The branch ${branchName(remote.ref)} kept moving while the space caught up with it`);
    // Someone pushed first: their commits come into the space (or stay open as a conflict, which throws).
    await catchUp(context, operation, remote, outcome.tip, signal);
    revisionId = null;
  }
}

type ExportOutcome = { result: 'done'; run: RunOutcome } | { result: 'moved'; tip: string };

async function exportOnce(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  author: { display_name: string; email: string },
  revision: string | null,
  signal: AbortSignal | undefined,
): Promise<ExportOutcome> {
  const organizationId = operation.organization_id;
  const spaceId = operation.space_id;
  const link = await findLink(context.db, organizationId, spaceId, remote.url, remote.ref);
  // The revision first, then its content: a merge between the two reads changes neither.
  const revisionId = revision ?? (await spaceRevision(context, organizationId, spaceId));
  const content = await withSpaceRedirects(
    context,
    { organizationId, spaceId },
    await spaceRepository(context, organizationId, spaceId, revisionId),
  );
  const change: Omit<CommitChange, 'expected'> = {
    files: writeRepository(content, { projectDirectory: operation.project_directory }),
    keepOutsideSpace: { projectDirectory: operation.project_directory },
    message: operation.commit_message ?? 'Update from the space',
    author: {
      name: author.display_name,
      email: author.email,
      timestamp: Math.floor(context.clock.now().getTime() / 1000),
    },
  };
  let outcome = await context.git.commitFiles(remote, { ...change, expected: link?.commitSha ?? null }, signal);
  if (outcome.result === 'behind' && link === undefined && operation.force) {
    // Never synced with this branch: with force, the space's files go on top of whatever it holds.
    outcome = await context.git.commitFiles(remote, { ...change, expected: outcome.tip }, signal);
  }
  if (outcome.result === 'behind') {
    if (link !== undefined && outcome.tip !== null) return { result: 'moved', tip: outcome.tip };
    throw new ConflictError(
      link === undefined
        ? `The branch ${branchName(remote.ref)} already has commits and the space never synced with it: import it first, or export with force`
        : `The branch ${branchName(remote.ref)} no longer exists, where the space last synced at ${shortCommit(link.commitSha)}: import or export to another branch`,
    );
  }
  await saveLink(
    context.db,
    {
      organizationId,
      spaceId,
      url: remote.url,
      ref: remote.ref,
      commitSha: outcome.commit,
      revisionId,
      fingerprints: outcome.fingerprints ?? null,
    },
    context.clock.now(),
  );
  return { result: 'done', run: { commitSha: outcome.commit, changeRequestId: null } };
}

/**
 * Whether the branch already holds a revision at or after `revisionId` (an
 * export of a later merge, or of the whole space, ran first): committing this
 * merge's revision now would take the later changes back out.
 */
async function exportedSince(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  revisionId: string,
): Promise<boolean> {
  const link = await findLink(context.db, operation.organization_id, operation.space_id, remote.url, remote.ref);
  if (!link?.revisionId) return false;
  const rows = await context.db
    .selectFrom('revisions')
    .select(['id', 'seq'])
    .where('space_id', '=', operation.space_id)
    .where('id', 'in', [revisionId, link.revisionId])
    .where('change_request_id', 'is', null)
    .execute();
  const seqOf = (id: string) => rows.find((row) => row.id === id)?.seq;
  const [wanted, synced] = [seqOf(revisionId), seqOf(link.revisionId)];
  return wanted !== undefined && synced !== undefined && synced >= wanted;
}

async function catchUp(
  context: Context,
  operation: GitSyncOperation,
  remote: GitRemote,
  tip: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await runImport(context, { ...operation, force: false }, remote, signal);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    throw new ConflictError(
      `The branch ${branchName(remote.ref)} moved to ${shortCommit(tip)} since the last sync, with changes to pages the space changed too: ${error.message}. Merge it, then export again`,
    );
  }
}
