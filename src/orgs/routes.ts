import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OrganizationUpdate } from '../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { errorResponses, ListEnvelope, ListQuery, ref, OrganizationParams } from '../core/schemas.js';
import { presentOrganization } from './present.js';
import {
  countOrganizationsForUser,
  createOrganization,
  findOrganizationForMember,
  listOrganizationsByEmailDomain,
  listOrganizationsForUser,
  normalizeEmailDomains,
  updateOrganization,
} from './queries.js';
import { CreateOrganizationBody, EmailDomainParams, OrganizationSchema, type UpdateOrganizationBody, UpdateOrganizationBody as UpdateOrganizationBodySchema } from './schemas.js';
import { callerOf } from '../model/access/auth.js';

const Organization = ref(OrganizationSchema);
const notFound = () => new NotFoundError('No organization with this id is visible to you');

export const organizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listOrganizationsForAuthenticatedUser',
        tags: ['organizations'],
        summary: 'List the organizations of the authenticated user',
        querystring: Type.Object(ListQuery),
        response: { 200: ListEnvelope(Organization), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const page = app.cursors.request(`orgs:${userId}`, request.query);
      return paginate(app.cursors, page, {
        rows: () => listOrganizationsForUser(app.db, page, userId),
        count: () => countOrganizationsForUser(app.db, userId),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => presentOrganization(row, { isMember: true, role: row.member_role }, app.urls),
      });
    },
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
      const created = await app.db
        .transaction()
        .execute((tx) => createOrganization(tx, app.clock, request.body, callerOf(request).userId));
      const organization = presentOrganization(created, { isMember: true, role: created.member_role }, app.urls);
      return reply.code(201).header('location', organization.urls.location).send(organization);
    },
  );

  app.get(
    '/orgs/:organizationId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationById',
        tags: ['organizations'],
        summary: 'Get an organization by its id',
        params: OrganizationParams,
        response: { 200: Organization, ...errorResponses },
      },
    },
    async (request) => {
      const organization = await findOrganizationForMember(app.db, request.params.organizationId, callerOf(request).userId);
      if (!organization) throw notFound();
      return presentOrganization(organization, { isMember: true, role: organization.member_role }, app.urls);
    },
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
        body: UpdateOrganizationBodySchema,
        response: { 200: Organization, ...errorResponses },
      },
    },
    async (request) => {
      const organization = await findOrganizationForMember(app.db, request.params.organizationId, callerOf(request).userId);
      if (!organization) throw notFound();
      if (organization.member_role !== 'admin') throw new ForbiddenError('Only organization admins can update the organization');
      const updated = await updateOrganization(app.db, organization.id, {
        ...organizationChanges(request.body),
        updated_at: app.clock.now(),
      });
      return presentOrganization(updated, { isMember: true, role: organization.member_role }, app.urls);
    },
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
          'Lists the organizations you belong to that accept this email domain and, when your own email address is at this domain, the ones you could join.',
        params: EmailDomainParams,
        response: { 200: Type.Object({ organizations: Type.Array(Organization) }), ...errorResponses },
      },
    },
    async (request) => {
      const rows = await listOrganizationsByEmailDomain(app.db, request.params.emailDomain.toLowerCase(), callerOf(request));
      return {
        organizations: rows.map((row) =>
          presentOrganization(row, { isMember: row.member_user_id !== null, role: row.member_role }, app.urls),
        ),
      };
    },
  );
};

/** The stored columns a PATCH body changes; fields left out stay as they are. */
function organizationChanges(body: UpdateOrganizationBody): OrganizationUpdate {
  const changes: OrganizationUpdate = {};
  if (body.title !== undefined) changes.title = body.title;
  if (body.emailDomains !== undefined) changes.email_domains = normalizeEmailDomains(body.emailDomains);
  if (body.hostname !== undefined) changes.hostname = body.hostname;
  if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
  if (body.logo !== undefined) changes.logo_url = body.logo;
  if (body.sso !== undefined) changes.sso = body.sso;
  if (body.ai !== undefined) changes.ai = body.ai;
  if (body.inviteLinks !== undefined) changes.invite_links = body.inviteLinks;
  if (body.defaultContent === null) changes.default_content_site_id = null;
  else if (body.defaultContent !== undefined) {
    // Sites are not stored by this service yet, so no site id can resolve.
    throw new BadRequestError(`body/defaultContent/site: no site "${body.defaultContent.site}" exists in this organization`);
  }
  return changes;
}
