import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { GitSyncOperations } from '../db/tables.generated.js';
import type { RepositoryFingerprints } from './format/index.js';
import { recordGitSyncEvent } from './events.js';

export type GitSyncOperation = Selectable<GitSyncOperations>;
export type GitSyncDirection = 'import' | 'export';

export interface NewOperation {
  id: string;
  organizationId: string;
  spaceId: string;
  direction: GitSyncDirection;
  url: string;
  ref: string;
  authorizationSealed: string | null;
  projectDirectory: string;
  commitMessage: string | null;
  force: boolean;
  /** An import left as an open change request, the space and the link untouched; default false. */
  standalone?: boolean;
  /** An export of this revision of the space (one merge's) rather than its current one. */
  revisionId?: string;
  requestedBy: string;
  createdAt: Date;
}

export async function insertOperation(db: Db, operation: NewOperation): Promise<void> {
  await db
    .insertInto('git_sync_operations')
    .values({
      id: operation.id,
      organization_id: operation.organizationId,
      space_id: operation.spaceId,
      direction: operation.direction,
      url: operation.url,
      ref: operation.ref,
      authorization_sealed: operation.authorizationSealed,
      project_directory: operation.projectDirectory,
      commit_message: operation.commitMessage,
      force: operation.force,
      standalone: operation.standalone ?? false,
      revision_id: operation.revisionId ?? null,
      requested_by: operation.requestedBy,
      created_at: operation.createdAt,
    })
    .execute();
}

/**
 * Takes the oldest operation due: queued, or running under a lease that has
 * expired (its instance stopped). An operation waits while an earlier one of
 * its space runs or is due, so that a space's syncs run one at a time in the
 * order they were asked.
 */
export async function claimOperation(db: Db, now: Date, leaseMs: number): Promise<GitSyncOperation | undefined> {
  const leaseEnd = new Date(now.getTime() + leaseMs);
  return db.transaction().execute(async (tx) => {
    const claimed = await tx
      .updateTable('git_sync_operations')
      .set({
        state: 'running',
        attempts: sql`attempts + 1`,
        lease_expires_at: leaseEnd,
        started_at: sql`coalesce(started_at, ${now})`,
      })
      .where(
        'id',
        '=',
        db
          .selectFrom('git_sync_operations as due')
          .select('due.id')
          .where((eb) =>
            eb.or([
              eb.and([
                eb('due.state', '=', 'queued'),
                eb.or([eb('due.retry_at', 'is', null), eb('due.retry_at', '<=', now)]),
              ]),
              eb.and([eb('due.state', '=', 'running'), eb('due.lease_expires_at', '<', now)]),
            ]),
          )
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('git_sync_operations as earlier')
                  .select('earlier.id')
                  .whereRef('earlier.space_id', '=', 'due.space_id')
                  .whereRef('earlier.organization_id', '=', 'due.organization_id')
                  .where('earlier.state', 'in', ['queued', 'running'])
                  .where((eb) =>
                    eb.or([
                      eb('earlier.created_at', '<', eb.ref('due.created_at')),
                      eb.and([
                        eb('earlier.created_at', '=', eb.ref('due.created_at')),
                        eb('earlier.id', '<', eb.ref('due.id')),
                      ]),
                    ]),
                  ),
              ),
            ),
          )
          .orderBy('due.created_at')
          .orderBy('due.id')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
    // Its first claim starts it: told once, however often it is taken again.
    if (claimed?.attempts === 1) await recordGitSyncEvent(tx, claimed, undefined, now);
    return claimed;
  });
}

export interface OperationEnd {
  state: 'success' | 'failure' | 'timeout';
  error: string | null;
  commitSha: string | null;
  changeRequestId: string | null;
}

/** Ends an operation this worker holds; its credentials are forgotten. */
export async function endOperation(db: Db, operation: GitSyncOperation, end: OperationEnd, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const ended = await tx
      .updateTable('git_sync_operations')
      .set({
        state: end.state,
        error: end.error,
        commit_sha: end.commitSha,
        change_request_id: end.changeRequestId,
        ended_at: now,
        lease_expires_at: null,
        authorization_sealed: null,
      })
      .where('organization_id', '=', operation.organization_id)
      .where('id', '=', operation.id)
      .where('attempts', '=', operation.attempts)
      .executeTakeFirst();
    // Only the worker that still held it tells of its end.
    if (ended.numUpdatedRows === 0n) return;
    const state = end.state === 'success' ? 'success' : 'failure';
    await recordGitSyncEvent(tx, operation, { state, commitSha: end.commitSha }, now);
  });
}

/** Queues an operation this worker holds again, to run at `retryAt`, with why its last run failed. */
export async function retryOperation(
  db: Db,
  operation: GitSyncOperation,
  retry: { error: string; retryAt: Date },
): Promise<void> {
  await db
    .updateTable('git_sync_operations')
    .set({
      state: 'queued',
      error: retry.error,
      retries: sql`retries + 1`,
      retry_at: retry.retryAt,
      // Claims count anew: they tell a run that keeps killing its worker, not one the remote failed.
      attempts: 0,
      lease_expires_at: null,
    })
    .where('organization_id', '=', operation.organization_id)
    .where('id', '=', operation.id)
    .where('attempts', '=', operation.attempts)
    .execute();
}

/** The commit the space matched on the branch at its last sync with it. */
export async function findLinkCommit(
  db: Db,
  organizationId: string,
  spaceId: string,
  url: string,
  ref: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('git_sync_links')
    .select('commit_sha')
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where('url', '=', url)
    .where('ref', '=', ref)
    .executeTakeFirst();
  return row?.commit_sha;
}

/** What the space and the branch held at their last sync. */
export interface LinkState {
  commitSha: string;
  /** The space's revision then; null for a link synced before it was kept. */
  revisionId: string | null;
  fingerprints: RepositoryFingerprints | null;
}

/** An import that conflicted: the change request left open, and the commit and fingerprints it holds. */
export interface PendingImport {
  changeRequestId: string;
  commitSha: string;
  fingerprints: RepositoryFingerprints;
}

export async function findLink(
  db: Db,
  organizationId: string,
  spaceId: string,
  url: string,
  ref: string,
): Promise<(LinkState & { pending: PendingImport | null }) | undefined> {
  const row = await db
    .selectFrom('git_sync_links')
    .select([
      'commit_sha',
      'revision_id',
      'fingerprints',
      'pending_change_request_id',
      'pending_commit_sha',
      'pending_fingerprints',
    ])
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where('url', '=', url)
    .where('ref', '=', ref)
    .executeTakeFirst();
  return (
    row && {
      commitSha: row.commit_sha,
      revisionId: row.revision_id,
      fingerprints: row.fingerprints as RepositoryFingerprints | null,
      pending:
        row.pending_change_request_id && row.pending_commit_sha && row.pending_fingerprints
          ? {
              changeRequestId: row.pending_change_request_id,
              commitSha: row.pending_commit_sha,
              fingerprints: row.pending_fingerprints as unknown as RepositoryFingerprints,
            }
          : null,
    }
  );
}

/** Keeps (or, with null, forgets) the import that conflicted, on a link that exists. */
export async function savePendingImport(
  db: Db,
  link: { organizationId: string; spaceId: string; url: string; ref: string },
  pending: PendingImport | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('git_sync_links')
    .set({
      pending_change_request_id: pending?.changeRequestId ?? null,
      pending_commit_sha: pending?.commitSha ?? null,
      pending_fingerprints: pending ? JSON.stringify(pending.fingerprints) : null,
      updated_at: now,
    })
    .where('organization_id', '=', link.organizationId)
    .where('space_id', '=', link.spaceId)
    .where('url', '=', link.url)
    .where('ref', '=', link.ref)
    .execute();
}

export async function saveLink(
  db: Db,
  link: { organizationId: string; spaceId: string; url: string; ref: string } & LinkState,
  now: Date,
): Promise<void> {
  // A sync that succeeded leaves no import pending.
  const state = {
    commit_sha: link.commitSha,
    revision_id: link.revisionId,
    fingerprints: link.fingerprints === null ? null : JSON.stringify(link.fingerprints),
    pending_change_request_id: null,
    pending_commit_sha: null,
    pending_fingerprints: null,
    updated_at: now,
  };
  await db
    .insertInto('git_sync_links')
    .values({ organization_id: link.organizationId, space_id: link.spaceId, url: link.url, ref: link.ref, ...state })
    .onConflict((oc) => oc.columns(['space_id', 'url', 'ref']).doUpdateSet(state))
    .execute();
}
