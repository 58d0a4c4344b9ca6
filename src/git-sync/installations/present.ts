import type { Urls } from '../../core/urls.js';
import type { GitSyncInstallation } from './schemas.js';
import type { GitSyncInstallationRow } from './queries.js';

interface Poll {
  due_at: Date;
  polled_at: Date | null;
  error: string | null;
}

/** Where the installation's provider sends its push events. */
export const webhookUrl = (urls: Urls, installationId: string) => urls.service('webhooks', 'git-sync', installationId);

function providerConfiguration(row: GitSyncInstallationRow): GitSyncInstallation['providerConfiguration'] {
  const branch = row.ref ? { branch: row.ref } : {};
  if (row.provider === 'git') return { ...(row.repository_url ? { url: row.repository_url } : {}), ...branch };
  const id =
    row.repository_id === null
      ? {}
      : row.provider === 'github'
        ? { repositoryId: Number(row.repository_id) }
        : { projectId: Number(row.repository_id) };
  return { ...id, ...(row.api_url ? { customInstanceURL: row.api_url } : {}), ...branch };
}

/**
 * GitBook's GitSyncInstallation. The token is never shown; the webhook's
 * secret only in the answer that made it (`secret`).
 */
export function presentInstallation(
  row: GitSyncInstallationRow,
  urls: Urls,
  options: { secret?: string; poll?: Poll | undefined } = {},
): GitSyncInstallation {
  const poll = options.poll;
  const status = row.status as GitSyncInstallation['status'];
  return {
    object: 'git-sync-installation',
    id: row.id,
    provider: row.provider as GitSyncInstallation['provider'],
    providerConfiguration: providerConfiguration(row),
    projectDirectory: row.project_directory,
    ...(row.commit_message_template ? { commitMessageTemplate: row.commit_message_template } : {}),
    previewExternalBranches: row.preview_external_branches,
    priority: row.priority as 'git' | 'gitbook',
    target: { type: 'space', spaceId: row.space_id },
    status,
    ...(row.repository_url
      ? {
          repositoryConnection: {
            object: 'git-repository-connection' as const,
            id: row.id,
            provider: row.provider as GitSyncInstallation['provider'],
            repositoryId: row.repository_id ?? row.repository_url,
            repositoryName: row.repository_name ?? row.repository_url,
            repositoryUrl: row.repository_url,
            ...(row.default_branch ? { defaultBranch: row.default_branch } : {}),
            authState: status,
            // Pull requests and commit statuses are not built: the sync commits on the branch itself.
            capabilities: { pullRequests: false, commitStatuses: false },
            createdAt: row.created_at.toISOString(),
            updatedAt: row.updated_at.toISOString(),
          },
        }
      : {}),
    pollingIntervalSeconds: row.polling_interval_seconds,
    ...(poll && row.polling_interval_seconds !== null
      ? {
          polling: {
            nextAt: poll.due_at.toISOString(),
            ...(poll.polled_at ? { lastAt: poll.polled_at.toISOString() } : {}),
            ...(poll.error ? { error: poll.error } : {}),
          },
        }
      : {}),
    webhook: { url: webhookUrl(urls, row.id), ...(options.secret ? { secret: options.secret } : {}) },
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    updatedAt: row.updated_at.toISOString(),
    urls: { location: urls.api('git', 'installations', row.id) },
  };
}
