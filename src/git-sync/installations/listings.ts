import { BadRequestError, NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { findInstallationFor } from './actions.js';
import { findGitHubFile, listGitHubBranches, listGitHubRepositories } from './providers/github.js';
import { findGitLabFile, listGitLabBranches, listGitLabProjects } from './providers/gitlab.js';
import { ProviderAuthError, type ProviderApi } from './providers/rest.js';
import { updateInstallation } from './queries.js';
import { openToken, providerApi } from './remote.js';
import type { GitSyncBranch, GitSyncRepository, GitSyncRepositoryFile } from './schemas.js';

/**
 * What an installation's token reaches at its provider, for an admin
 * choosing the repository and branch: GitHub's repositories, GitLab's
 * projects, their branches, a file. A token the provider refuses marks the
 * installation `unauthenticated`.
 */
async function withProvider<T>(
  context: Context,
  userId: string,
  installationId: string,
  provider: 'github' | 'gitlab',
  read: (api: ProviderApi) => Promise<T>,
): Promise<T> {
  const row = await findInstallationFor(context, userId, installationId, 'admin', 'Listing a provider’s repositories');
  if (row.provider !== provider)
    throw new BadRequestError(`The installation's provider is ${row.provider}, not ${provider}`);
  const token = openToken(context, row);
  if (!token) throw new BadRequestError('The installation has no token yet: set providerConfiguration.accessToken');
  try {
    return await read(providerApi(context, row, token));
  } catch (error) {
    if (error instanceof ProviderAuthError)
      await updateInstallation(context.db, row.organization_id, row.id, { status: 'unauthenticated' });
    throw error;
  }
}

export async function listRepositories(
  context: Context,
  userId: string,
  installationId: string,
  provider: 'github' | 'gitlab',
): Promise<{ items: GitSyncRepository[] }> {
  return withProvider(context, userId, installationId, provider, async (api) => ({
    items: provider === 'github' ? await listGitHubRepositories(api) : await listGitLabProjects(api),
  }));
}

export async function listGitHubRepoBranches(
  context: Context,
  userId: string,
  installationId: string,
  owner: string,
  name: string,
): Promise<{ items: GitSyncBranch[] }> {
  return withProvider(context, userId, installationId, 'github', async (api) => ({
    items: await listGitHubBranches(api, owner, name),
  }));
}

export async function listGitLabProjectBranches(
  context: Context,
  userId: string,
  installationId: string,
  projectId: number,
): Promise<{ items: GitSyncBranch[] }> {
  return withProvider(context, userId, installationId, 'gitlab', async (api) => ({
    items: await listGitLabBranches(api, projectId),
  }));
}

export async function getGitHubRepoFile(
  context: Context,
  userId: string,
  installationId: string,
  repository: { owner: string; name: string },
  file: { path: string; ref: string },
): Promise<GitSyncRepositoryFile> {
  return withProvider(context, userId, installationId, 'github', async (api) => {
    const found = await findGitHubFile(api, repository.owner, repository.name, file.path, file.ref);
    if (!found) throw new NotFoundError('The path names a folder of the repository, not a file');
    return found;
  });
}

export async function getGitLabProjectFile(
  context: Context,
  userId: string,
  installationId: string,
  projectId: number,
  file: { path: string; ref: string },
): Promise<GitSyncRepositoryFile> {
  return withProvider(context, userId, installationId, 'gitlab', (api) =>
    findGitLabFile(api, projectId, file.path, file.ref),
  );
}
