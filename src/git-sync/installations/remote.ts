import type { Context } from '../../context.js';
import { findSpaceInstallation } from '../../spaces/git-sync-state.js';
import type { GitRemote } from '../git/remote.js';
import type { ProviderApi } from './providers/rest.js';
import type { GitSyncInstallationRow } from './queries.js';

/** The keyring context of an installation's token: it opens for that installation only. */
export const tokenContext = (installationId: string) => `git-sync-installation:${installationId}:token`;
/** The keyring context of an installation's webhook secret. */
export const webhookSecretContext = (installationId: string) => `git-sync-installation:${installationId}:webhook`;

/**
 * The user name Git's basic auth carries with the token: GitHub takes any
 * with a token (`x-access-token` is what its App tokens document), GitLab
 * `oauth2` with any of its tokens; a Git host the name the admin gave.
 */
function gitUsername(row: GitSyncInstallationRow): string {
  if (row.provider === 'github') return 'x-access-token';
  if (row.provider === 'gitlab') return 'oauth2';
  return row.username ?? 'git';
}

export function openToken(context: Context, row: GitSyncInstallationRow): string | undefined {
  return row.access_token_sealed ? context.keyring.open(row.access_token_sealed, tokenContext(row.id)) : undefined;
}

/** Git's basic auth with the installation's token, when it has one. */
function authorizationOf(context: Context, row: GitSyncInstallationRow): string | undefined {
  const token = openToken(context, row);
  return token ? `Basic ${Buffer.from(`${gitUsername(row)}:${token}`).toString('base64')}` : undefined;
}

/** The branch the installation syncs with, with its credentials; undefined until it names one. */
export function installationRemote(context: Context, row: GitSyncInstallationRow): GitRemote | undefined {
  if (!row.repository_url || !row.ref) return undefined;
  const authorization = authorizationOf(context, row);
  return { url: row.repository_url, ref: row.ref, ...(authorization ? { authorization } : {}) };
}

/**
 * The credentials of the space's installation when `url` (without
 * credentials) is its repository's: importGitRepository and
 * exportToGitRepository name the repository by URL, as GitBook's do, and
 * reach an installed one with the installation's token.
 */
export async function installedAuthorization(
  context: Context,
  space: { organization_id: string; id: string },
  url: string,
): Promise<string | undefined> {
  const row = await findSpaceInstallation(context.db, space.organization_id, space.id);
  return row && row.repository_url === url ? authorizationOf(context, row) : undefined;
}

/** The provider's REST API as the installation reaches it: its own instance, or the operator's default. */
export function providerApi(
  context: Context,
  row: GitSyncInstallationRow,
  token: string,
  apiUrl: string | null = row.api_url,
): ProviderApi {
  const github = row.provider === 'github';
  const base = apiUrl ?? (github ? context.config.gitSync.githubApiUrl : context.config.gitSync.gitlabApiUrl);
  return {
    base: base.replace(/(?<!\/)\/+$/, ''),
    token,
    fetcher: context.outbound,
    name: github ? 'GitHub' : 'GitLab',
  };
}
