import { findSpaceAsMember } from '../../access/spaces.js';
import { NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { findSiteAsAdmin } from '../../sites/access.js';
import { findSpaceInstallation, presentGitSyncLink, type GitSyncState } from '../../spaces/git-sync-state.js';
import { presentInstallation } from './present.js';
import { findLatestOperation, listInstallationsOfSite } from './queries.js';
import type { GitSyncInstallation } from './schemas.js';

/**
 * GitBook's getSpaceGitInfo: the space's installation with its latest
 * operation (whatever asked for it); 404 when the space has none. An
 * operation waiting its turn shows as running: GitBook's states have no
 * queued.
 */
export async function getSpaceGitInfo(context: Context, userId: string, spaceId: string): Promise<GitSyncState> {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  const installation = await findSpaceInstallation(context.db, space.organization_id, space.id);
  if (!installation) throw new NotFoundError('The space has no Git Sync installation');
  const operation = await findLatestOperation(context.db, space.organization_id, space.id);
  return {
    ...presentGitSyncLink(installation),
    operationTimeout: context.config.gitSync.operationTimeoutMs,
    ...(operation
      ? {
          operation: {
            state:
              operation.state === 'queued'
                ? 'running'
                : (operation.state as 'running' | 'failure' | 'success' | 'timeout'),
            direction: operation.direction as 'import' | 'export',
            startedAt: (operation.started_at ?? operation.created_at).toISOString(),
            ...(operation.ended_at ? { endedAt: operation.ended_at.toISOString() } : {}),
            ...(operation.error ? { error: operation.error } : {}),
          },
        }
      : {}),
  };
}

/** GitBook's listSiteGitSyncInstallations: the installations of the site's spaces, for its organization's admins. */
export async function listSiteInstallations(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
): Promise<{ items: GitSyncInstallation[] }> {
  const { site } = await findSiteAsAdmin(
    context,
    organizationId,
    siteId,
    userId,
    'Listing a site’s Git Sync installations',
  );
  const rows = await listInstallationsOfSite(context.db, site.organization_id, site.id);
  return { items: rows.map((row) => presentInstallation(row, context.urls)) };
}
