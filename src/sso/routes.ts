import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  listSsoLogins,
  updateProvider,
} from './actions.js';
import {
  CreateSamlProviderBody,
  ListSamlProvidersQuery,
  SamlProviderParams,
  SamlProviderSchema,
  SsoLoginsResponse,
  UpdateSamlProviderBody,
} from './schemas.js';

const SamlProvider = ref(SamlProviderSchema);

export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/saml',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'listSAMLProvidersInOrganizationById',
        tags: ['sso'],
        summary: 'List the SAML providers of an organization (admins)',
        description:
          'Admins only, newest first. A provider is `pending` until it has an entity id, an https sign-in URL ' +
          'and a certificate, then `active`.',
        params: OrganizationParams,
        querystring: ListSamlProvidersQuery,
        response: { 200: ListEnvelope(SamlProvider), ...errorResponses },
      },
    },
    async (request) =>
      listProviders(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/saml',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createOrganizationSAMLProvider',
        tags: ['sso'],
        summary: 'Add a SAML provider (admins)',
        description:
          'Admins only. Only `label` is required: a provider may be filled in later, and stays `pending` ' +
          'until complete. The certificate must parse as X.509 and not be expired (400); `defaultTeam` must ' +
          'be a team of the organization, and `defaultRole` defaults to `read`.',
        params: OrganizationParams,
        body: CreateSamlProviderBody,
        response: { 201: SamlProvider, ...errorResponses },
      },
    },
    async (request, reply) => {
      const provider = await createProvider(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.body,
      );
      return reply.code(201).header('location', provider.urls.location).send(provider);
    },
  );

  app.get(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'getOrganizationSAMLProviderById',
        tags: ['sso'],
        summary: 'Get a SAML provider (admins)',
        description: 'Admins only, with the service’s own addresses for the identity provider (`service`).',
        params: SamlProviderParams,
        response: { 200: SamlProvider, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      return getProvider(app.context, callerOf(request).userId, organizationId, samlProviderId);
    },
  );

  app.patch(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'updateOrganizationSAMLProvider',
        tags: ['sso'],
        summary: 'Update a SAML provider (admins); null clears a field',
        description:
          'Admins only; fields left out stay as they are, null clears one, and a cleared field makes the ' +
          'provider `pending` again. The same checks as on creation apply.',
        params: SamlProviderParams,
        body: UpdateSamlProviderBody,
        response: { 200: SamlProvider, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      return updateProvider(app.context, callerOf(request).userId, organizationId, samlProviderId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'deleteOrganizationSAMLProvider',
        tags: ['sso'],
        summary: 'Remove a SAML provider (admins)',
        description: 'Admins only. Members marked as SSO members stay in the organization.',
        params: SamlProviderParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, samlProviderId } = request.params;
      await deleteProvider(app.context, callerOf(request).userId, organizationId, samlProviderId);
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/sso',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listSSOProviderLoginsInOrganization',
        tags: ['sso'],
        summary: 'The sign-in start URLs of the organization’s active SSO providers',
        description:
          'Any member, guests included: where each active provider’s sign-in starts. The SAML sign-in flow ' +
          'itself is not served yet.',
        params: OrganizationParams,
        response: { 200: SsoLoginsResponse, ...errorResponses },
      },
    },
    async (request) => listSsoLogins(app.context, callerOf(request).userId, request.params.organizationId),
  );
};
