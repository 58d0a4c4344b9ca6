import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../core/schemas.js';
import { InstallationParams } from './schemas.js';
import { receiveWebhook } from './webhooks.js';

/**
 * The webhook a provider calls on a push. It is outside /v1 and its tokens,
 * as the signed download and upload URLs are: the installation's secret
 * proves the delivery, and no API client calls it. Its body is kept as
 * bytes, the signature being over them; it is parsed only once proven.
 */
export const gitSyncWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/webhooks/git-sync/:installationId',
    {
      bodyLimit: app.config.gitSync.webhookMaxBytes,
      schema: {
        hide: true,
        summary: 'A provider’s push event for a Git Sync installation',
        description:
          'Called by GitHub, GitLab, Gitea or Forgejo with the installation’s secret (GitHub’s X-Hub-Signature-256 ' +
          'HMAC-SHA256 of the body, or GitLab’s X-Gitlab-Token), no API token. A push to the installation’s ' +
          'branch queues an import of it (202); a ping, another event or another branch is answered 204 and ' +
          'ignored; an unsigned or wrongly signed delivery is a 401 and changes nothing. JSON bodies only, up ' +
          'to GIT_SYNC_WEBHOOK_MAX_BYTES.',
        params: InstallationParams,
        response: {
          202: Type.Null({ description: 'An import of the branch is queued' }),
          204: Type.Null({ description: 'Not a push to the installation’s branch: nothing to do' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await receiveWebhook(app.context, request.params.installationId, request.headers, body);
      // No body either way; the typed reply wants one.
      return (reply as FastifyReply).code(outcome === 'queued' ? 202 : 204).send();
    },
  );
};
