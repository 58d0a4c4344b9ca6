import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListEnvelope, ref, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
import {
  createOrganizationForCaller,
  getOrganization,
  listOrganizations,
  listOrganizationsForEmailDomain,
  updateOrganizationSettings,
} from './actions.js';
import {
  CreateOrganizationBody,
  EmailDomainOrganizationsResponse,
  EmailDomainParams,
  ListOrganizationsQuery,
  OrganizationSchema,
  UpdateOrganizationBody,
} from './schemas.js';

const Organization = ref(OrganizationSchema);

export const organizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs',
    {
      config: { scope: 'organization:read', replayable: true },
      schema: {
        operationId: 'listOrganizationsForAuthenticatedUser',
        tags: ['organizations'],
        summary: 'List the organizations of the authenticated user',
        querystring: ListOrganizationsQuery,
        response: { 200: ListEnvelope(Organization), ...errorResponses },
      },
    },
    async (request) => listOrganizations(app.context, callerOf(request).userId, request.query),
  );

  app.post(
    '/orgs',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createOrganization',
        tags: ['organizations'],
        summary: 'Create an organization; the caller becomes its admin',
        body: CreateOrganizationBody,
        response: { 201: Organization, ...errorResponses },
      },
    },
    async (request, reply) => {
      const organization = await createOrganizationForCaller(app.context, callerOf(request).userId, request.body);
      return reply.code(201).header('location', organization.urls.location).send(organization);
    },
  );

  app.get(
    '/orgs/:organizationId',
    {
      config: { scope: 'organization:read', replayable: true },
      schema: {
        operationId: 'getOrganizationById',
        tags: ['organizations'],
        summary: 'Get an organization by its id',
        params: OrganizationParams,
        response: { 200: Organization, ...errorResponses },
      },
    },
    async (request) => getOrganization(app.context, callerOf(request).userId, request.params.organizationId),
  );

  app.patch(
    '/orgs/:organizationId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'updateOrganizationById',
        tags: ['organizations'],
        summary: 'Update an organization (admins only)',
        params: OrganizationParams,
        body: UpdateOrganizationBody,
        response: { 200: Organization, ...errorResponses },
      },
    },
    async (request) =>
      updateOrganizationSettings(app.context, callerOf(request).userId, request.params.organizationId, request.body),
  );

  app.get(
    '/email-domains/:emailDomain/orgs',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationsForEmailDomain',
        tags: ['organizations'],
        summary: 'List the organizations that accept an email domain',
        description:
          'Lists the organizations you belong to that accept this email domain and, ' +
          'when your own email address is at this domain, the ones you could join.',
        params: EmailDomainParams,
        response: { 200: EmailDomainOrganizationsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { userId, email } = callerOf(request);
      return listOrganizationsForEmailDomain(app.context, userId, email, request.params.emailDomain);
    },
  );
};
