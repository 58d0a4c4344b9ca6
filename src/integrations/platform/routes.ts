import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams, SpaceParams } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { SiteParams } from '../../sites/schemas.js';
import {
  InstallationParams,
  IntegrationParams,
  IntegrationSchema,
  IntegrationSiteInstallationSchema,
  IntegrationSpaceInstallationSchema,
} from '../schemas.js';
import { disableDevelopmentMode, setDevelopmentMode } from './dev-mode.js';
import { createInstallationToken } from './installation-tokens.js';
import {
  listOrganizationIntegrations,
  listSiteIntegrations,
  listSiteIntegrationScripts,
  listSitesOfIntegration,
  listSpaceIntegrationBlocks,
  listSpaceIntegrations,
  listSpacesOfIntegration,
} from './listings.js';
import { getOrganizationIntegrationStatus, listOrganizationIntegrationsStatus } from './statuses.js';
import { decodeRenderRequest, renderIntegrationUI } from './render.js';
import { RenderIntegrationUIBody, RenderIntegrationUIQuery, RenderOutputSchema } from './render-schemas.js';
import {
  DevelopmentModeBody,
  InstallationStatusSchema,
  InstallationTokenSchema,
  InstalledIntegrationTarget,
  ListContentIntegrationsQuery,
  ListInstallationStatusesQuery,
  ListIntegrationContentQuery,
  ListOrganizationIntegrationsQuery,
  OrganizationIntegrationParams,
  SiteIntegrationScriptSchema,
  SpaceIntegrationBlocksSchema,
} from './schemas.js';

/** The integration platform's calls: installations' tokens, development mode, and where integrations are installed. */
export const integrationPlatformRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/integrations/:integrationName/installations/:installationId/tokens',
    {
      config: { scope: 'integration:publish', ownTokensOnly: true },
      schema: {
        operationId: 'createIntegrationInstallationToken',
        tags: ['integrations'],
        summary: 'Make a token to call the API as an installation (admins of the publishing organization)',
        description:
          'A token, shown once and valid for an hour, with which the integration calls the API as this ' +
          'installation: only the operations its declared scopes allow, only in the organization it is ' +
          'installed on, and only on the spaces and sites it is installed on. Stored as its hash. An ' +
          'installation’s token cannot make another; a token an admin issued cannot either.',
        params: InstallationParams,
        response: { 200: InstallationTokenSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      return createInstallationToken(app.context, callerOf(request), integrationName, installationId);
    },
  );

  app.put(
    '/integrations/:integrationName/dev',
    {
      config: { scope: 'integration:publish' },
      schema: {
        operationId: 'setIntegrationDevelopmentMode',
        tags: ['integrations'],
        summary: 'Send the integration’s events and UI renders to a development tunnel',
        description:
          'Admins of the publishing organization. Requests of the organization’s own installations go to ' +
          '`tunnelUrl` (of every organization’s with `all`) instead of the integration’s endpoint, until ' +
          'development mode is disabled. The URL must be https, without credentials, and resolve to a ' +
          'public address (http and private addresses only with OUTBOUND_ALLOW_PRIVATE).',
        params: IntegrationParams,
        body: DevelopmentModeBody,
        response: { 204: Type.Null({ description: 'Development mode set' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await setDevelopmentMode(app.context, callerOf(request).userId, request.params.integrationName, request.body);
      return noContent(reply, 204);
    },
  );

  app.delete(
    '/integrations/:integrationName/dev',
    {
      config: { scope: 'integration:publish' },
      schema: {
        operationId: 'disableIntegrationDevelopmentMode',
        tags: ['integrations'],
        summary: 'Send the integration’s requests to its endpoint again',
        description: 'Admins of the publishing organization; disabling it when it is off changes nothing.',
        params: IntegrationParams,
        response: { 205: Type.Null({ description: 'Development mode disabled' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await disableDevelopmentMode(app.context, callerOf(request).userId, request.params.integrationName);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/integrations/:integrationName/spaces',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'listIntegrationSpaceInstallations',
        tags: ['integrations'],
        summary: 'List the spaces an integration is installed on',
        description:
          'Every installation’s, for the admins of the publishing organization; its own, for an ' +
          'installation’s token. `externalId` filters; `extended` gives each Space rather than its id.',
        params: IntegrationParams,
        querystring: ListIntegrationContentQuery,
        response: { 200: ListEnvelope(IntegrationSpaceInstallationSchema), ...errorResponses },
      },
    },
    async (request) =>
      listSpacesOfIntegration(app.context, callerOf(request), request.params.integrationName, request.query),
  );

  app.get(
    '/integrations/:integrationName/sites',
    {
      config: { scope: 'integration:installations:read' },
      schema: {
        operationId: 'listIntegrationSiteInstallations',
        tags: ['integrations'],
        summary: 'List the sites an integration is installed on',
        description:
          'Every installation’s, for the admins of the publishing organization; its own, for an ' +
          'installation’s token. `externalId` filters; `extended` gives each Site rather than its id.',
        params: IntegrationParams,
        querystring: ListIntegrationContentQuery,
        response: { 200: ListEnvelope(IntegrationSiteInstallationSchema), ...errorResponses },
      },
    },
    async (request) =>
      listSitesOfIntegration(app.context, callerOf(request), request.params.integrationName, request.query),
  );

  app.get(
    '/orgs/:organizationId/integrations',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'listOrganizationIntegrations',
        tags: ['integrations'],
        summary: 'List the integrations an organization may use: every public one, and its own',
        description:
          'Members with a role (guests 403). The filters of listIntegrations: `search`, `category`, ' +
          '`blockDomain`, `blocks`, `contentSources`, `owner`, `scope`, `target`.',
        params: OrganizationParams,
        querystring: ListOrganizationIntegrationsQuery,
        response: { 200: ListEnvelope(IntegrationSchema), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationIntegrations(app.context, callerOf(request), request.params.organizationId, request.query),
  );

  app.get(
    '/orgs/:organizationId/integrations/installations-status',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'listOrganizationIntegrationsStatus',
        tags: ['integrations'],
        summary: 'List the organization’s installations, with their status and target',
        description:
          'Members with a role (guests 403). `target` (default `organization`) picks the installations on ' +
          'the organization, its spaces or its sites; `space` (with target=space) and `site` (with ' +
          'target=site) narrow to one.',
        params: OrganizationParams,
        querystring: ListInstallationStatusesQuery,
        response: {
          200: ListEnvelope(
            Type.Object({
              status: InstallationStatusSchema.properties.status,
              integration: IntegrationSchema,
              target: InstalledIntegrationTarget,
            }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      listOrganizationIntegrationsStatus(app.context, callerOf(request), request.params.organizationId, request.query),
  );

  app.get(
    '/orgs/:organizationId/integrations/:integrationName/installation_status',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'getOrganizationIntegrationStatus',
        tags: ['integrations'],
        summary: 'Get the status of an integration’s installation on the organization',
        description: 'Members with a role (guests 403); 404 when the integration is not installed there.',
        params: OrganizationIntegrationParams,
        response: { 200: InstallationStatusSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, integrationName } = request.params;
      return getOrganizationIntegrationStatus(app.context, callerOf(request).userId, organizationId, integrationName);
    },
  );

  app.get(
    '/spaces/:spaceId/integrations',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpaceIntegrations',
        tags: ['integrations'],
        summary: 'List the integrations installed on a space',
        description: 'Members who read the space; `search` filters by name or title.',
        params: SpaceParams,
        querystring: ListContentIntegrationsQuery,
        response: { 200: ListEnvelope(IntegrationSchema), ...errorResponses },
      },
    },
    async (request) =>
      listSpaceIntegrations(app.context, callerOf(request).userId, request.params.spaceId, request.query),
  );

  app.get(
    '/spaces/:spaceId/integration-blocks',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listSpaceIntegrationsBlocks',
        tags: ['integrations'],
        summary: 'List the blocks the integrations installed on a space offer',
        description: 'Members who read the space: each integration installed on it that has blocks, by name.',
        params: SpaceParams,
        response: { 200: SpaceIntegrationBlocksSchema, ...errorResponses },
      },
    },
    async (request) => listSpaceIntegrationBlocks(app.context, callerOf(request).userId, request.params.spaceId),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/integrations',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteIntegrations',
        tags: ['integrations'],
        summary: 'List the integrations installed on a site',
        description: 'Members of the site’s organization; `search` filters by name or title.',
        params: SiteParams,
        querystring: ListContentIntegrationsQuery,
        response: { 200: ListEnvelope(IntegrationSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return listSiteIntegrations(app.context, callerOf(request).userId, organizationId, siteId, request.query);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/integration-scripts',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteIntegrationScripts',
        tags: ['integrations'],
        summary: 'List the scripts integrations inject into a site’s published pages',
        description:
          'Members of the site’s organization: each integration installed on the site that declares ' +
          '`site:script:inject`, whether it may set cookies (`site:script:cookies`) and its content security policy.',
        params: SiteParams,
        response: { 200: Type.Array(SiteIntegrationScriptSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return listSiteIntegrationScripts(app.context, callerOf(request).userId, organizationId, siteId);
    },
  );

  const renderDescription =
    'Members who may see the UI where its context puts it: a block in a document of a space they read ' +
    '(the integration installed on the space), an installation’s configuration (the space’s, site’s or ' +
    'organization’s admins). The request goes as a `ui_render` event, signed with the integration’s secret, ' +
    'to its endpoint (its development tunnel in development mode), which has 10 s and 512 KiB to answer a ' +
    'ContentKit output; anything else is a 502, no answer in time a 504.';

  app.get(
    '/integrations/:integrationName/render',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'renderIntegrationUIWithGet',
        tags: ['integrations'],
        summary: 'Render a UI of the integration, the request LZ-string compressed in the URL',
        description: renderDescription,
        params: IntegrationParams,
        querystring: RenderIntegrationUIQuery,
        response: { 200: RenderOutputSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = decodeRenderRequest(request.query.request);
      const rendered = await renderIntegrationUI(
        app.context,
        callerOf(request).userId,
        request.params.integrationName,
        body,
      );
      return reply.header('cache-control', rendered.cacheControl).send(rendered.output);
    },
  );

  app.post(
    '/integrations/:integrationName/render',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'renderIntegrationUIWithPost',
        tags: ['integrations'],
        summary: 'Render a UI of the integration',
        description: renderDescription,
        params: IntegrationParams,
        body: RenderIntegrationUIBody,
        response: { 200: RenderOutputSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { integrationName } = request.params;
      const rendered = await renderIntegrationUI(app.context, callerOf(request).userId, integrationName, request.body);
      return reply.header('cache-control', rendered.cacheControl).send(rendered.output);
    },
  );
};
