import type { MergeEvent } from '../change-requests/merge-hooks.js';
import { newId } from '../core/ids.js';
import type { Context } from '../context.js';
import type { Db } from '../db/database.js';
import { findSpaceInstallation } from '../spaces/git-sync-state.js';
import { credentialsContext } from './actions.js';
import { installationRemote } from './installations/remote.js';
import { insertOperation } from './queries.js';

/**
 * Each merge into a space with a Git Sync installation becomes one commit on
 * its branch: an export of the revision the merge made, queued in the
 * merge's own transaction (a merge is never left without its export),
 * authored by who merged, its message the change request's subject and its
 * body the change request's address. A merge Git Sync made from Git's own
 * change goes back to no one.
 */
export function exportOnMerge(context: Context) {
  return async (tx: Db, merge: MergeEvent): Promise<void> => {
    if (merge.origin === 'git-sync') return;
    const installation = await findSpaceInstallation(tx, merge.organizationId, merge.spaceId);
    const remote = installation && installationRemote(context, installation);
    if (!installation || !remote) return;
    const changeRequest = await tx
      .selectFrom('change_requests')
      .select(['number', 'subject'])
      .where('organization_id', '=', merge.organizationId)
      .where('id', '=', merge.changeRequestId)
      .executeTakeFirstOrThrow();
    const link = context.urls.app(
      'o',
      merge.organizationId,
      's',
      merge.spaceId,
      'change-requests',
      String(changeRequest.number),
    );
    const subject = changeRequest.subject.trim() || `Change request #${changeRequest.number}`;
    const id = newId();
    await insertOperation(tx, {
      id,
      organizationId: merge.organizationId,
      spaceId: merge.spaceId,
      direction: 'export',
      url: remote.url,
      ref: remote.ref,
      authorizationSealed: remote.authorization
        ? context.keyring.seal(remote.authorization, credentialsContext(id))
        : null,
      projectDirectory: installation.project_directory,
      commitMessage: `${subject}\n\n${link}\n`,
      force: false,
      revisionId: merge.revisionId,
      requestedBy: merge.userId,
      createdAt: context.clock.now(),
    });
  };
}
