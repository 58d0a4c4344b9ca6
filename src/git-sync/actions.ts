import { findEditableSpace } from '../access/spaces.js';
import { BadRequestError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Context } from '../context.js';
import { gitRemote } from './git/remote.js';
import { installedAuthorization } from './installations/remote.js';
import { insertOperation, type GitSyncDirection } from './queries.js';
import type { ExportToGitRepositoryInput, ImportGitRepositoryInput } from './schemas.js';

/** The keyring context of an operation's sealed credentials: they open for that row only. */
export const credentialsContext = (operationId: string) => `git-sync-operation:${operationId}`;

/** The folder named by repoProjectDirectory, without empty parts (`/docs/`, `docs//api`); `.` and `..` name none. */
function projectDirectory(raw: string | undefined): string {
  const parts = (raw ?? '').split('/').filter(Boolean);
  if (parts.some((part) => part === '.' || part === '..'))
    throw new BadRequestError('repoProjectDirectory must be a folder of the repository, with no . or .. in its path');
  return parts.join('/');
}

async function queue(
  context: Context,
  userId: string,
  spaceId: string,
  direction: GitSyncDirection,
  input: ImportGitRepositoryInput | ExportToGitRepositoryInput,
): Promise<void> {
  // Importing writes and merges a change request; exporting shows the whole space to a remote: both edit it.
  const action = direction === 'import' ? 'Importing a Git repository' : 'Exporting to a Git repository';
  const { space } = await findEditableSpace(context, spaceId, userId, action);
  const remote = gitRemote(input.url, input.ref);
  // A URL without credentials naming the space's installed repository is reached with the installation's token.
  const authorization = remote.authorization ?? (await installedAuthorization(context, space, remote.url));
  const id = newId();
  await insertOperation(context.db, {
    id,
    organizationId: space.organization_id,
    spaceId: space.id,
    direction,
    url: remote.url,
    ref: remote.ref,
    authorizationSealed: authorization ? context.keyring.seal(authorization, credentialsContext(id)) : null,
    projectDirectory: projectDirectory(input.repoProjectDirectory),
    commitMessage: 'commitMessage' in input ? input.commitMessage : null,
    force: input.force ?? false,
    // GitBook's standalone import: what it would change, in a change request left open.
    standalone: direction === 'import' && (input.standalone ?? false),
    requestedBy: userId,
    createdAt: context.clock.now(),
  });
}

/** GitBook's importGitRepository: queues the import of the branch into the space. */
export function queueImport(context: Context, userId: string, spaceId: string, input: ImportGitRepositoryInput) {
  return queue(context, userId, spaceId, 'import', input);
}

/** GitBook's exportToGitRepository: queues a commit of the space's content on the branch. */
export function queueExport(context: Context, userId: string, spaceId: string, input: ExportToGitRepositoryInput) {
  return queue(context, userId, spaceId, 'export', input);
}
