import type { Context } from '../../context.js';
import { newId } from '../../core/ids.js';
import { credentialsContext } from '../actions.js';
import { insertOperation, type GitSyncDirection } from '../queries.js';
import { importWaiting, type GitSyncInstallationRow } from './queries.js';
import { installationRemote } from './remote.js';

/** The message of an export's commit when the installation names no template. */
const DEFAULT_COMMIT_MESSAGE = 'Update from the space';

/**
 * Queues an import or export of the installation's branch, with its
 * credentials, as `userId` (who configured it, or who installed it for a
 * webhook or a poll): the run checks that user's rights on the space as it
 * writes. An import already waiting for the same branch is not queued twice.
 * False when nothing was queued.
 */
export async function queueInstallationSync(
  context: Context,
  row: GitSyncInstallationRow,
  direction: GitSyncDirection,
  userId: string,
): Promise<boolean> {
  const remote = installationRemote(context, row);
  if (!remote) return false;
  if (
    direction === 'import' &&
    (await importWaiting(context.db, row.organization_id, row.space_id, remote.url, remote.ref))
  )
    return false;
  const id = newId();
  await insertOperation(context.db, {
    id,
    organizationId: row.organization_id,
    spaceId: row.space_id,
    direction,
    url: remote.url,
    ref: remote.ref,
    authorizationSealed: remote.authorization
      ? context.keyring.seal(remote.authorization, credentialsContext(id))
      : null,
    projectDirectory: row.project_directory,
    commitMessage: direction === 'export' ? (row.commit_message_template ?? DEFAULT_COMMIT_MESSAGE) : null,
    force: false,
    requestedBy: userId,
    createdAt: context.clock.now(),
  });
  return true;
}
