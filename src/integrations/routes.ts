import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { getIntegration, listIntegrations, publishIntegration, unpublishIntegration } from './actions.js';
import { ImageDecoder } from './image-pool.js';
import { installationRoutes } from './installation-routes.js';
import { contentInstallationRoutes } from './content-installation-routes.js';
import { eventRoutes } from './events/routes.js';
import { integrationPlatformRoutes } from './platform/routes.js';
import { IntegrationParams, IntegrationSchema, ListIntegrationsQuery, PublishIntegrationBody } from './schemas.js';
import { versionOf } from '../cache-versions.js';

export const integrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const images = new ImageDecoder(app.context.workPools.images);

  app.get(
    '/integrations',
    {
      config: { scope: 'integration:read', cache: versionOf.integrations },
      schema: {
        operationId: 'listIntegrations',
        tags: ['integrations'],
        summary: 'List the integrations the caller may see: public ones, and those of their organizations',
        description:
          'Any authenticated caller: public integrations, and the unlisted and private ones of organizations ' +
          'they belong to. Filter by `search` (name or title), `category`, `blockDomain`, `blocks`, ' +
          '`contentSources`, `owner`, `scope` and `target`.',
        querystring: ListIntegrationsQuery,
        response: { 200: ListEnvelope(IntegrationSchema), ...errorResponses },
      },
    },
    async (request) => listIntegrations(app.context, callerOf(request).userId, request.query),
  );

  app.get(
    '/integrations/:integrationName',
    {
      config: { scope: 'integration:read', cache: versionOf.integrations },
      schema: {
        operationId: 'getIntegrationByName',
        tags: ['integrations'],
        summary: 'Get an integration by its name',
        description:
          'Public and unlisted integrations for any authenticated caller; private ones only for members of ' +
          'the organization that publishes them (else 404). Secrets and the script are never returned.',
        params: IntegrationParams,
        response: { 200: IntegrationSchema, ...errorResponses },
      },
    },
    async (request) => getIntegration(app.context, callerOf(request).userId, request.params.integrationName),
  );

  app.post(
    '/integrations/:integrationName',
    {
      config: { scope: 'integration:publish' },
      schema: {
        operationId: 'publishIntegration',
        tags: ['integrations'],
        summary: 'Publish an integration, or a new version of it (admins of the publishing organization)',
        description:
          'Admins of the publishing `organization`, with the `integration:publish` scope. The first publish ' +
          'creates it; the next ones from the same organization replace its definition, images and secrets ' +
          'and bump `version`; a name another organization published, even one it unpublished, is a 409. ' +
          'Images are base64 PNG, JPEG, GIF or WebP, served at /integration-assets/; secrets are encrypted at rest.',
        params: IntegrationParams,
        body: PublishIntegrationBody,
        response: { 200: IntegrationSchema, ...errorResponses },
      },
    },
    async (request) =>
      publishIntegration(app.context, images, callerOf(request).userId, request.params.integrationName, request.body),
  );

  app.delete(
    '/integrations/:integrationName',
    {
      config: { scope: 'integration:delete' },
      schema: {
        operationId: 'unpublishIntegration',
        tags: ['integrations'],
        summary: 'Unpublish an integration, removing its installations (admins of the publishing organization)',
        description:
          'Admins of the publishing organization. Its images, secrets and every installation, with those on ' +
          'spaces and sites, go with it. Its name stays the organization’s: another organization may not ' +
          'publish under it (409), the organization may again.',
        params: IntegrationParams,
        response: { 204: Type.Null({ description: 'Unpublished' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await unpublishIntegration(app.context, callerOf(request).userId, request.params.integrationName);
      return noContent(reply, 204);
    },
  );

  await app.register(installationRoutes);
  await app.register(contentInstallationRoutes);
  await app.register(eventRoutes);
  await app.register(integrationPlatformRoutes);
};
