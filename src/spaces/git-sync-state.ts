/**
 * GitBook's GitSyncState: the link of a space to the branch its Git Sync
 * installation names, as the space's `gitSync` field and getSpaceGitInfo
 * show it. The installations themselves are Git Sync's (src/git-sync/installations/);
 * the space only reads its own row.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { DateTime, StringEnum } from '../core/schemas.js';
import type { Db } from '../db/database.js';
import type { GitSyncInstallations } from '../db/tables.generated.js';

/** GitBook's providers, and `git`: any Git host over HTTPS, this service's own (GitBook's enum has no room for it). */
export const GIT_SYNC_PROVIDERS = ['github', 'gitlab', 'git'] as const;
export type GitSyncProviderName = (typeof GIT_SYNC_PROVIDERS)[number];
export const GIT_SYNC_STATUSES = ['unauthenticated', 'active', 'pending'] as const;

export const GitSyncOperationSummary = Type.Object({
  state: StringEnum(['running', 'failure', 'success', 'timeout'] as const, {
    description: 'running while it waits its turn or runs',
  }),
  direction: StringEnum(['import', 'export'] as const),
  startedAt: DateTime,
  endedAt: Type.Optional(DateTime),
  error: Type.Optional(Type.String({ description: 'Why it failed, when it did' })),
});

export const GitSyncState = Type.Object({
  installationId: Type.String(),
  installationProvider: StringEnum(GIT_SYNC_PROVIDERS),
  installationStatus: StringEnum(GIT_SYNC_STATUSES),
  repoName: Type.Optional(Type.String({ description: 'The repository’s full name, or URL on a Git host' })),
  url: Type.Optional(Type.String({ description: 'The branch’s tree on GitHub or GitLab' })),
  operation: Type.Optional(GitSyncOperationSummary),
  operationTimeout: Type.Optional(Type.Integer({ description: 'How long an operation may run, in ms' })),
  updatedAt: Type.Optional(DateTime),
});
export type GitSyncState = Static<typeof GitSyncState>;

export type GitSyncInstallationRow = Selectable<GitSyncInstallations>;

/** The installation whose target is the space, if any. */
export async function findSpaceInstallation(
  db: Db,
  organizationId: string,
  spaceId: string,
): Promise<GitSyncInstallationRow | undefined> {
  return db
    .selectFrom('git_sync_installations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
}

/** The installations whose targets are among the spaces, by space. */
export async function findSpacesInstallations(
  db: Db,
  organizationId: string,
  spaceIds: readonly string[],
): Promise<Map<string, GitSyncInstallationRow>> {
  if (spaceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('git_sync_installations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('space_id', 'in', spaceIds)
    .execute();
  return new Map(rows.map((row) => [row.space_id, row]));
}

/** `main` of `refs/heads/main`. */
const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, '');

/** The branch's tree on the provider's site: its clone URL without `.git`, then GitHub's or GitLab's tree path. */
function treeUrl(row: GitSyncInstallationRow): string | undefined {
  if (!row.repository_url || !row.ref || row.provider === 'git') return undefined;
  const base = row.repository_url.replace(/\.git$/, '');
  const branch = encodeURI(branchOf(row.ref));
  const directory = row.project_directory ? `/${encodeURI(row.project_directory)}` : '';
  return row.provider === 'github' ? `${base}/tree/${branch}${directory}` : `${base}/-/tree/${branch}${directory}`;
}

/** The link as the Space shows it: the installation, without its operations (which change without the space). */
export function presentGitSyncLink(row: GitSyncInstallationRow): GitSyncState {
  const url = treeUrl(row);
  return {
    installationId: row.id,
    installationProvider: row.provider as GitSyncProviderName,
    installationStatus: row.status as (typeof GIT_SYNC_STATUSES)[number],
    ...(row.repository_name ? { repoName: row.repository_name } : {}),
    ...(url ? { url } : {}),
    updatedAt: row.updated_at.toISOString(),
  };
}
