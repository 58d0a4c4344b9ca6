import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { callerOf } from '../access/auth.js';
import { noContent } from '../core/replies.js';
import { errorResponses, SpaceParams } from '../core/schemas.js';
import { queueExport, queueImport } from './actions.js';
import { ExportToGitRepositoryBody, ImportGitRepositoryBody } from './schemas.js';

const queued = Type.Null({
  description: 'Queued: it runs in the background, after the space’s earlier Git operations',
});

const remoteRules =
  'The URL is fetched as any URL the service is given (public addresses only unless OUTBOUND_ALLOW_PRIVATE), over ' +
  'HTTPS with the credentials it carries sent as basic auth and kept sealed until the operation ends; the branch ' +
  'is read within GIT_SYNC_MAX_BYTES and GIT_SYNC_MAX_FILES. Needs the edit role on the space.';

/** GitBook's Git Sync operations on a space: import from and export to any Git remote over HTTPS. */
export const gitSyncRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/git/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importGitRepository',
        tags: ['space-git'],
        summary: 'Import a Git repository in GitBook’s format into the space',
        description:
          'The branch’s tip, read as GitBook’s Git Sync format, becomes a change request replacing the space’s content, ' +
          'opened as the caller and merged at once when it applies cleanly; when the space changed meanwhile in a way ' +
          'that conflicts, it stays open. A tip the space already matches is not imported again unless force. ' +
          remoteRules,
        params: SpaceParams,
        body: ImportGitRepositoryBody,
        response: { 204: queued, ...errorResponses },
      },
    },
    async (request, reply) => {
      await queueImport(app.context, callerOf(request).userId, request.params.spaceId, request.body);
      return noContent(reply, 204);
    },
  );

  app.post(
    '/spaces/:spaceId/git/export',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'exportToGitRepository',
        tags: ['space-git'],
        summary: 'Export the space to a Git repository in GitBook’s format',
        description:
          'The space’s content, as GitBook’s Git Sync writes it, becomes one commit authored by the caller on top of ' +
          'the commit the space last synced with: a fast-forward push, never a force-push. A branch that moved since ' +
          '(or, without force, one the space never synced with that has commits) fails the operation and is left as ' +
          'it is. Files of the repository that are not the space’s stay. ' +
          remoteRules,
        params: SpaceParams,
        body: ExportToGitRepositoryBody,
        response: { 204: queued, ...errorResponses },
      },
    },
    async (request, reply) => {
      await queueExport(app.context, callerOf(request).userId, request.params.spaceId, request.body);
      return noContent(reply, 204);
    },
  );
};
