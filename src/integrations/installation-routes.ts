import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  getInstallation,
  installIntegration,
  listInstallations,
  uninstallIntegration,
  updateInstallation,
} from './installation-actions.js';
import { listOrganizationInstallations } from './organization-installations.js';
import {
  InstallationParams,
  IntegrationInstallationSchema,
  IntegrationParams,
  IntegrationSchema,
  InstallIntegrationBody,
  ListInstallationsQuery,
  ListOrganizationInstallationsQuery,
  UpdateInstallationBody,
} from './schemas.js';

export const installationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/installations',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'listOrganizationInstallations',
        tags: ['integrations'],
        summary: 'List the integrations installed on an organization, each with its installation (admins)',
        description:
          'Admins of the organization (other members 403): an installation holds its configuration. Newest ' +
          'installation first; `search` over the integration’s name and title, any case.',
        params: OrganizationParams,
        querystring: ListOrganizationInstallationsQuery,
        response: {
          200: ListEnvelope(
            Type.Object({ integration: IntegrationSchema, installation: IntegrationInstallationSchema }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      listOrganizationInstallations(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.query,
      ),
  );

  app.get(
    '/integrations/:integrationName/installations',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'listIntegrationInstallations',
        tags: ['integrations'],
        summary:
          'List the installations of an integration: all of them for its publishers’ admins, else those on the caller’s organizations',
        description:
          'All installations for the admins of the organization that publishes the integration, else those on ' +
          'organizations where the caller is an admin; `externalId` filters.',
        params: IntegrationParams,
        querystring: ListInstallationsQuery,
        response: { 200: ListEnvelope(IntegrationInstallationSchema), ...errorResponses },
      },
    },
    async (request) =>
      listInstallations(app.context, callerOf(request).userId, request.params.integrationName, request.query),
  );

  app.post(
    '/integrations/:integrationName/installations',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'installIntegration',
        tags: ['integrations'],
        summary: 'Install an integration on an organization (its admins)',
        description:
          'Admins of the organization to install on, one installation per organization (409 for a second). A ' +
          'private integration installs only in the organization that publishes it (403).',
        params: IntegrationParams,
        body: InstallIntegrationBody,
        response: { 201: IntegrationInstallationSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const installation = await installIntegration(
        app.context,
        callerOf(request).userId,
        request.params.integrationName,
        request.body,
      );
      return reply.code(201).header('location', installation.urls.location).send(installation);
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'getIntegrationInstallationById',
        tags: ['integrations'],
        summary: 'Get an installation',
        description:
          'Admins of the organization it is installed on, and of the one that publishes the integration; ' +
          'other members of the first get 403, anyone else 404.',
        params: InstallationParams,
        response: { 200: IntegrationInstallationSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      return getInstallation(app.context, callerOf(request).userId, integrationName, installationId);
    },
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'updateIntegrationInstallation',
        tags: ['integrations'],
        summary: 'Change the external ids or the configuration of an installation (admins of its organization)',
        description:
          'Admins of the organization it is installed on. `configuration` must fit the integration’s account ' +
          'configuration (400); `externalIds` replaces the ones it had.',
        params: InstallationParams,
        body: UpdateInstallationBody,
        response: { 200: IntegrationInstallationSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      return updateInstallation(app.context, callerOf(request).userId, integrationName, installationId, request.body);
    },
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'uninstallIntegration',
        tags: ['integrations'],
        summary: 'Uninstall an integration from an organization, and its spaces and sites (admins of the organization)',
        description:
          'Admins of the organization it is installed on: the installation goes, and with it those on the ' +
          'organization’s spaces and sites.',
        params: InstallationParams,
        response: { 205: Type.Null({ description: 'Uninstalled' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      await uninstallIntegration(app.context, callerOf(request).userId, integrationName, installationId);
      return noContent(reply, 205);
    },
  );
};
