import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListEnvelope, ref, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
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
import { versionOf } from '../cache-versions.js';

const Organization = ref(OrganizationSchema);

export const organizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs',
    {
      config: { scope: 'organization:read', cache: versionOf.callerOrganizations },
      schema: {
        operationId: 'listOrganizationsForAuthenticatedUser',
        tags: ['organizations'],
        summary: 'List the organizations of the authenticated user',
        description:
          'Every organization the caller belongs to, as a member of any role or as a guest, newest first, ' +
          'each with the caller’s role in it.',
        querystring: ListOrganizationsQuery,
        response: { 200: ListEnvelope(Organization), ...errorResponses },
      },
    },
    async (request) => listOrganizations(app.context, callerOf(request).userId, request.query),
  );

  app.post(
    '/orgs',
    {
      // A token an admin issued works only in its organization: it makes none (403).
      config: { scope: 'organization:write', ownTokensOnly: true },
      schema: {
        operationId: 'createOrganization',
        tags: ['organizations'],
        summary: 'Create an organization; the caller becomes its admin',
        description:
          'Any authenticated user may create one; they become its first admin. A `hostname` must be free ' +
          'across the service (409 when taken), and `emailDomains` are stored in lower case. A listed domain ' +
          'is a claim: it lists the organization to that domain’s people and lets them join only once an ' +
          'admin of the organization has a verified address at it.',
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
      config: { scope: 'organization:read', cache: versionOf.organization },
      schema: {
        operationId: 'getOrganizationById',
        tags: ['organizations'],
        summary: 'Get an organization by its id',
        description: 'For its members and guests; to anyone else it answers 404, as an unknown id does.',
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
        description:
          'Admins only; fields left out stay as they are, and null clears `defaultRole`, `defaultContent` and ' +
          '`logo`. `defaultContent` must name a site of the organization (400), a `hostname` must be free (409), ' +
          'and `inviteLinks` turns the organization’s invite links on or off.',
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
          'Only for the domain of your own e-mail address, once it is verified (an address is a claim, proven ' +
          'by accepting an invitation sent to it): the organizations that accept it and have proven it (one of ' +
          'their admins has a verified address at it), those you belong to and ' +
          'those you could join (joinOrganization). Any other domain, or an address not verified, lists none. ' +
          'A token an admin issued lists only its own organization.',
        params: EmailDomainParams,
        response: { 200: EmailDomainOrganizationsResponse, ...errorResponses },
      },
    },
    async (request) => {
      return listOrganizationsForEmailDomain(app.context, callerOf(request), request.params.emailDomain);
    },
  );
};
