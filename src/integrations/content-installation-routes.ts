import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  getSiteInstallation,
  getSpaceInstallation,
  installOnSite,
  installOnSpace,
  listInstallationSites,
  listInstallationSpaces,
  uninstallFromSite,
  uninstallFromSpace,
  updateSiteInstallationOf,
  updateSpaceInstallationOf,
} from './content-installation-actions.js';
import {
  ExtendedQuery,
  InstallationParams,
  InstallOnSiteBody,
  InstallOnSpaceBody,
  IntegrationSiteInstallationSchema,
  IntegrationSpaceInstallationSchema,
  ListSiteInstallationsQuery,
  ListSpaceInstallationsQuery,
  SiteInstallationParams,
  SpaceInstallationParams,
  UpdateInstallationBody,
} from './schemas.js';

const SpaceInstallation = IntegrationSpaceInstallationSchema;
const SiteInstallation = IntegrationSiteInstallationSchema;

export const contentInstallationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/integrations/:integrationName/installations/:installationId/spaces',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'listIntegrationInstallationSpaces',
        tags: ['integrations'],
        summary: 'List the spaces an installation is on',
        description:
          'For whoever may read the installation; `extended=true` gives each space as a Space object, to ' +
          'admins of its organization.',
        params: InstallationParams,
        querystring: ListSpaceInstallationsQuery,
        response: { 200: ListEnvelope(SpaceInstallation), ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      return listInstallationSpaces(
        app.context,
        callerOf(request).userId,
        integrationName,
        installationId,
        request.query,
      );
    },
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/spaces',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'installIntegrationOnSpace',
        tags: ['integrations'],
        summary: 'Install on a space of the installation’s organization (admins of the space)',
        description:
          'Admins of the space, which must be in the installation’s organization (404 otherwise); an ' +
          'integration whose `target` is not `all` or `space` is refused (400).',
        params: InstallationParams,
        querystring: ExtendedQuery,
        body: InstallOnSpaceBody,
        response: { 201: SpaceInstallation, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      const installed = await installOnSpace(
        app.context,
        callerOf(request).userId,
        integrationName,
        installationId,
        request.body.space,
        request.query.extended,
      );
      return reply.code(201).header('location', installed.urls.location).send(installed);
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'getIntegrationSpaceInstallation',
        tags: ['integrations'],
        summary: 'Get the installation on a space',
        description: 'For whoever may read the installation.',
        params: SpaceInstallationParams,
        querystring: ExtendedQuery,
        response: { 200: SpaceInstallation, ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId, spaceId } = request.params;
      return getSpaceInstallation(
        app.context,
        callerOf(request).userId,
        integrationName,
        installationId,
        spaceId,
        request.query.extended,
      );
    },
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'updateIntegrationSpaceInstallation',
        tags: ['integrations'],
        summary: 'Change the external ids or the configuration of the installation on a space (admins of the space)',
        description: 'Admins of the space. `configuration` must fit the integration’s space configuration (400).',
        params: SpaceInstallationParams,
        querystring: ExtendedQuery,
        body: UpdateInstallationBody,
        response: { 200: SpaceInstallation, ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId, spaceId } = request.params;
      return updateSpaceInstallationOf(
        app.context,
        callerOf(request).userId,
        integrationName,
        installationId,
        spaceId,
        request.body,
        request.query.extended,
      );
    },
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId/spaces/:spaceId',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'uninstallIntegrationFromSpace',
        tags: ['integrations'],
        summary: 'Uninstall from a space (admins of the space)',
        description: 'Admins of the space. Deleting the space uninstalls as well.',
        params: SpaceInstallationParams,
        response: { 205: Type.Null({ description: 'Uninstalled from the space' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId, spaceId } = request.params;
      await uninstallFromSpace(app.context, callerOf(request).userId, integrationName, installationId, spaceId);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId/sites',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'listIntegrationInstallationSites',
        tags: ['integrations'],
        summary: 'List the sites an installation is on',
        description: 'For whoever may read the installation.',
        params: InstallationParams,
        querystring: ListSiteInstallationsQuery,
        response: { 200: ListEnvelope(SiteInstallation), ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      return listInstallationSites(
        app.context,
        callerOf(request).userId,
        integrationName,
        installationId,
        request.query,
      );
    },
  );

  app.post(
    '/integrations/:integrationName/installations/:installationId/sites',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'installIntegrationOnSite',
        tags: ['integrations'],
        summary: 'Install on a site of the installation’s organization (its admins)',
        description:
          'Admins of the installation’s organization, for one of its sites; an integration whose `target` is ' +
          'not `all` or `site` is refused (400).',
        params: InstallationParams,
        body: InstallOnSiteBody,
        response: { 201: SiteInstallation, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      const installed = await installOnSite(
        app.context,
        callerOf(request).userId,
        integrationName,
        installationId,
        request.body.siteId,
      );
      return reply.code(201).header('location', installed.urls.location).send(installed);
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId/sites/:siteId',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'getIntegrationSiteInstallation',
        tags: ['integrations'],
        summary: 'Get the installation on a site',
        description: 'For whoever may read the installation.',
        params: SiteInstallationParams,
        response: { 200: SiteInstallation, ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId, siteId } = request.params;
      return getSiteInstallation(app.context, callerOf(request).userId, integrationName, installationId, siteId);
    },
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId/sites/:siteId',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'updateIntegrationSiteInstallation',
        tags: ['integrations'],
        summary: 'Change the external ids or the configuration of the installation on a site (its admins)',
        description:
          'Admins of the installation’s organization. `configuration` must fit the integration’s site ' +
          'configuration (400).',
        params: SiteInstallationParams,
        body: UpdateInstallationBody,
        response: { 200: SiteInstallation, ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId, siteId } = request.params;
      return updateSiteInstallationOf(
        app.context,
        callerOf(request).userId,
        integrationName,
        installationId,
        siteId,
        request.body,
      );
    },
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId/sites/:siteId',
    {
      config: { scope: 'integration:installations:write' },
      schema: {
        operationId: 'uninstallIntegrationFromSite',
        tags: ['integrations'],
        summary: 'Uninstall from a site (its admins)',
        description: 'Admins of the installation’s organization. Deleting the site uninstalls as well.',
        params: SiteInstallationParams,
        response: { 205: Type.Null({ description: 'Uninstalled from the site' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { integrationName, installationId, siteId } = request.params;
      await uninstallFromSite(app.context, callerOf(request).userId, integrationName, installationId, siteId);
      return noContent(reply, 205);
    },
  );
};
