import type { Db } from '../db/database.js';
import { recordEvent } from '../events/record.js';
import type { Selectable } from 'kysely';
import type { GitSyncOperations } from '../db/tables.generated.js';

/** An operation's row (as queries.ts reads it, which imports this module). */
type GitSyncOperation = Selectable<GitSyncOperations>;

/** The revision an operation is about: the one it exports, else the space's current one. */
async function revisionOf(tx: Db, operation: GitSyncOperation): Promise<string> {
  if (operation.revision_id) return operation.revision_id;
  const space = await tx
    .selectFrom('spaces')
    .select('revision_id')
    .where('organization_id', '=', operation.organization_id)
    .where('id', '=', operation.space_id)
    .executeTakeFirst();
  return space?.revision_id ?? '';
}

/**
 * A Git Sync operation began (its first attempt) or ended, told to the
 * space's integrations and webhooks in the transaction that records it. The
 * commit is empty while it is not known (an import before it reads the branch).
 */
export async function recordGitSyncEvent(
  tx: Db,
  operation: GitSyncOperation,
  end: { state: 'success' | 'failure'; commitSha: string | null } | undefined,
  at: Date,
): Promise<void> {
  const revisionId = await revisionOf(tx, operation);
  await recordEvent(tx, {
    organizationId: operation.organization_id,
    spaceId: operation.space_id,
    type: end ? 'space_gitsync_completed' : 'space_gitsync_started',
    fields: {
      revisionId,
      commitId: end?.commitSha ?? operation.commit_sha ?? '',
      ...(end ? { state: end.state } : {}),
    },
    at,
  });
}
