import { findSpaceAsMember } from '../../access/spaces.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import { newId, randomString } from '../../core/ids.js';
import type { Context } from '../../context.js';
import { findSpaceInstallation } from '../../spaces/git-sync-state.js';
import { gitRemote } from '../git/remote.js';
import { presentInstallation } from './present.js';
import { findGitHubRepository } from './providers/github.js';
import { findGitLabProject } from './providers/gitlab.js';
import { ProviderAuthError } from './providers/rest.js';
import {
  deleteInstallation,
  findInstallation,
  findPoll,
  insertInstallation,
  schedulePolling,
  updateInstallation,
  type GitSyncInstallationRow,
} from './queries.js';
import { openToken, providerApi, tokenContext, webhookSecretContext } from './remote.js';
import { queueInstallationSync } from './sync.js';
import type { GitSyncInstallation, InstallGitSyncInput, UpdateGitSyncInstallationInput } from './schemas.js';

export const installationNotFound = () => new NotFoundError('No Git Sync installation with this id is visible to you');

/** A webhook secret: 40 characters of [A-Za-z0-9], some 238 bits. */
const newWebhookSecret = () => randomString(40);

/**
 * The installation and the caller's role on its space, or 404: an
 * installation is seen by the members of its space who may read it, and
 * managed (`admin`) by its admins.
 */
export async function findInstallationFor(
  context: Context,
  userId: string,
  installationId: string,
  need: 'read' | 'admin',
  action = 'Managing a Git Sync installation',
): Promise<GitSyncInstallationRow> {
  const row = await findInstallation(context.db, installationId);
  if (!row) throw installationNotFound();
  let found;
  try {
    found = await findSpaceAsMember(context, row.space_id, userId);
  } catch (error) {
    if (error instanceof NotFoundError) throw installationNotFound();
    throw error;
  }
  if (found.space.organization_id !== row.organization_id) throw installationNotFound();
  if (need === 'admin' && found.role !== 'admin')
    throw new ForbiddenError(`${action} needs the admin role on the space`);
  return row;
}

/** GitBook's installGitSyncProviderOnTarget: a pending installation on a space, its webhook secret shown once. */
export async function installGitSync(
  context: Context,
  userId: string,
  input: InstallGitSyncInput,
): Promise<GitSyncInstallation> {
  if (input.target.type === 'site' || input.target.siteId !== undefined) {
    throw new BadRequestError(
      'target: Git Sync of a whole site (its gitbook-docs.yaml) is not built; install Git Sync on each of its spaces, with target.type space and no siteId',
    );
  }
  const { space, role } = await findSpaceAsMember(context, input.target.spaceId, userId);
  if (role !== 'admin') throw new ForbiddenError('Installing Git Sync on a space needs the admin role on the space');
  if (await findSpaceInstallation(context.db, space.organization_id, space.id))
    throw new ConflictError('The space already has a Git Sync installation; update or uninstall it');
  const id = newId();
  const secret = newWebhookSecret();
  const now = context.clock.now();
  const row = await insertInstallation(context.db, {
    id,
    organization_id: space.organization_id,
    space_id: space.id,
    provider: input.provider,
    webhook_secret_sealed: context.keyring.seal(secret, webhookSecretContext(id)),
    created_by: userId,
    created_at: now,
    updated_at: now,
  });
  return presentInstallation(row, context.urls, { secret });
}

export async function getInstallation(context: Context, userId: string, installationId: string) {
  const row = await findInstallationFor(context, userId, installationId, 'read');
  const poll = await findPoll(context.db, row.organization_id, row.id);
  return presentInstallation(row, context.urls, { poll });
}

/** The repository the configuration names, as the provider describes it; its API is asked with the token. */
async function repositoryOf(
  context: Context,
  row: GitSyncInstallationRow,
  config: UpdateGitSyncInstallationInput['providerConfiguration'],
  token: string | undefined,
  apiUrl: string | null,
) {
  if (row.provider === 'git') {
    if (config.url === undefined) return undefined;
    const remote = gitRemote(config.url, config.branch ?? 'refs/heads/main');
    if (remote.authorization)
      throw new BadRequestError('providerConfiguration.url must not carry credentials: give them as accessToken');
    return { id: null, name: remote.url, url: remote.url, defaultBranch: null };
  }
  const id = row.provider === 'github' ? config.repositoryId : config.projectId;
  if (id === undefined) return undefined;
  if (!token) throw new BadRequestError('providerConfiguration.accessToken is needed to reach the repository');
  const api = providerApi(context, row, token, apiUrl);
  const found = row.provider === 'github' ? await findGitHubRepository(api, id) : await findGitLabProject(api, id);
  return { id: String(found.id), name: found.fullName, url: found.cloneUrl, defaultBranch: found.defaultBranch };
}

/** The fields the provider takes: a GitHub installation names a repositoryId, a GitLab one a projectId, a Git host a url. */
function checkFields(provider: string, config: UpdateGitSyncInstallationInput['providerConfiguration']): void {
  const foreign: Record<string, Array<keyof typeof config>> = {
    github: ['projectId', 'url', 'username'],
    gitlab: ['repositoryId', 'url', 'username'],
    git: ['repositoryId', 'projectId', 'customInstanceURL'],
  };
  const wrong = foreign[provider]!.find((key) => config[key] !== undefined);
  if (wrong) throw new BadRequestError(`providerConfiguration.${wrong} is not a setting of a ${provider} installation`);
}

function checkApiUrl(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequestError('providerConfiguration.customInstanceURL must be an absolute http or https URL');
  }
  if (url.username || url.password || url.search || url.hash)
    throw new BadRequestError(
      'providerConfiguration.customInstanceURL must be the API’s URL alone, without credentials or query',
    );
}

const originOf = (url: string | null | undefined): string | null => {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * The stored token goes only to the host it was given for: pointing the
 * installation at another API (customInstanceURL) or another Git host (url)
 * needs the token given again, so that an admin cannot send another's token
 * to a server of their own.
 */
function keepTokenHome(
  row: GitSyncInstallationRow,
  config: UpdateGitSyncInstallationInput['providerConfiguration'],
  apiUrl: string | null,
): void {
  if (!row.access_token_sealed || config.accessToken !== undefined) return;
  const moved =
    row.provider === 'git'
      ? config.url !== undefined && row.repository_url !== null && originOf(config.url) !== originOf(row.repository_url)
      : originOf(apiUrl) !== originOf(row.api_url);
  if (moved)
    throw new BadRequestError(
      'providerConfiguration.accessToken must be given again to reach another host: the installation’s token is sent only where it was given for',
    );
}

function pollingInterval(context: Context, seconds: number | null | undefined): number | null | undefined {
  if (seconds === undefined || seconds === null) return seconds;
  const { pollingMinSeconds, pollingMaxSeconds } = context.config.gitSync;
  if (seconds < pollingMinSeconds || seconds > pollingMaxSeconds)
    throw new BadRequestError(
      `pollingIntervalSeconds must be between ${pollingMinSeconds} and ${pollingMaxSeconds}, or null for no polling`,
    );
  return seconds;
}

/**
 * GitBook's updateGitSyncInstallationById: the configuration made the
 * installation's, then, once it names a repository, a branch and (on GitHub
 * and GitLab) a token, a sync queued as its priority says: `git` imports the
 * branch, `gitbook` exports the space.
 */
export async function updateGitSyncInstallation(
  context: Context,
  userId: string,
  installationId: string,
  input: UpdateGitSyncInstallationInput,
): Promise<GitSyncInstallation> {
  const row = await findInstallationFor(context, userId, installationId, 'admin', 'Configuring Git Sync');
  if (input.provider !== row.provider)
    throw new BadRequestError(`provider must be ${row.provider}, the installation's; uninstall it to change provider`);
  const config = input.providerConfiguration;
  checkFields(row.provider, config);
  const interval = pollingInterval(context, input.pollingIntervalSeconds);
  const token = config.accessToken ?? openToken(context, row);
  const apiUrl = config.customInstanceURL === undefined ? row.api_url : config.customInstanceURL;
  if (apiUrl) checkApiUrl(apiUrl);
  keepTokenHome(row, config, apiUrl);
  let repository;
  try {
    repository = await repositoryOf(context, row, config, token, apiUrl);
  } catch (error) {
    if (error instanceof ProviderAuthError && config.accessToken === undefined)
      await updateInstallation(context.db, row.organization_id, row.id, { status: 'unauthenticated' });
    throw error;
  }
  const ref =
    config.branch ??
    (repository ? (repository.defaultBranch ? `refs/heads/${repository.defaultBranch}` : null) : row.ref);
  // The branch name's rules are the remote's (no `..`, no control characters …).
  if (ref) gitRemote('https://git.invalid/', ref);
  const secret = input.rotateWebhookSecret ? newWebhookSecret() : undefined;
  const repositoryUrl = repository ? repository.url : row.repository_url;
  const hasToken = token !== undefined;
  const active = repositoryUrl !== null && ref !== null && (hasToken || row.provider === 'git');
  const now = context.clock.now();
  const updated = await updateInstallation(context.db, row.organization_id, row.id, {
    api_url: apiUrl,
    ...(config.accessToken !== undefined
      ? { access_token_sealed: context.keyring.seal(config.accessToken, tokenContext(row.id)) }
      : {}),
    ...(config.username !== undefined ? { username: config.username } : {}),
    ...(repository
      ? {
          repository_id: repository.id,
          repository_name: repository.name,
          repository_url: repository.url,
          default_branch: repository.defaultBranch,
        }
      : {}),
    ref,
    ...(input.projectDirectory !== undefined ? { project_directory: input.projectDirectory } : {}),
    ...(input.commitMessageTemplate !== undefined ? { commit_message_template: input.commitMessageTemplate } : {}),
    ...(input.previewExternalBranches !== undefined
      ? { preview_external_branches: input.previewExternalBranches }
      : {}),
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    ...(interval !== undefined ? { polling_interval_seconds: interval } : {}),
    ...(secret ? { webhook_secret_sealed: context.keyring.seal(secret, webhookSecretContext(row.id)) } : {}),
    status: active ? 'active' : 'pending',
    updated_at: now,
  });
  if (!updated) throw installationNotFound();
  if (interval !== undefined) {
    const due = interval === null ? null : new Date(now.getTime() + interval * 1000);
    await schedulePolling(context.db, { organizationId: row.organization_id, id: row.id }, due);
  }
  if (active)
    await queueInstallationSync(context, updated, updated.priority === 'gitbook' ? 'export' : 'import', userId);
  const poll = await findPoll(context.db, row.organization_id, row.id);
  return presentInstallation(updated, context.urls, { poll, ...(secret ? { secret } : {}) });
}

/** GitBook's uninstallGitSyncInstallation: the link, its token and secret go; the space's content and history stay. */
export async function uninstallGitSync(context: Context, userId: string, installationId: string): Promise<void> {
  const row = await findInstallationFor(context, userId, installationId, 'admin', 'Uninstalling Git Sync');
  if (!(await deleteInstallation(context.db, row.organization_id, row.id))) throw installationNotFound();
}
