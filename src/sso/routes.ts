import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { UpdateObject } from 'kysely';
import type { Database } from '../db/types.js';
import { organizationRole, requireOrganizationAdmin } from '../model/access/membership.js';
import { BadRequestError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate } from '../core/pagination.js';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ListQuery, ref, OrganizationParams } from '../core/schemas.js';
import { presentTeam } from '../model/people/teams.js';
import { normalizeCertificate } from './certificate.js';
import { isActive, presentSamlProvider, serviceEndpoints } from './present.js';
import {
  countSamlProviders,
  findSamlProvider,
  insertSamlProvider,
  listActiveSamlProviders,
  listSamlProviders,
  updateSamlProvider,
  type SamlProviderFields,
} from './queries.js';
import { CreateSamlProviderBody, SamlProviderParams, SamlProviderSchema, SsoLoginSchema, UpdateSamlProviderBody } from './schemas.js';
import type { Team } from '../model/people/schemas.js';
import { findTeams } from '../model/people/team-queries.js';
import { callerOf } from '../model/access/auth.js';

const SamlProvider = ref(SamlProviderSchema);
const providerNotFound = () => new NotFoundError('No SAML provider with this id in the organization');

export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** Single sign-on is configured by organization admins only. */
  const requireAdmin = (organizationId: string, userId: string) =>
    requireOrganizationAdmin(app.db, organizationId, userId, 'Configuring single sign-on');

  /** The teams of these providers, presented for an admin (who manages every team). */
  async function defaultTeams(organizationId: string, rows: SamlProviderFields[], userId: string): Promise<Map<string, Team>> {
    const ids = [...new Set(rows.flatMap((row) => (row.default_team_id ? [row.default_team_id] : [])))];
    const teams = await findTeams(app.db, organizationId, ids, userId);
    return new Map(teams.map((team) => [team.id, presentTeam(team, { view: true, admin: true })]));
  }

  async function present(organizationId: string, rows: SamlProviderFields[], userId: string) {
    const teams = await defaultTeams(organizationId, rows, userId);
    return rows.map((row) =>
      presentSamlProvider(
        row,
        row.default_team_id ? teams.get(row.default_team_id) : undefined,
        app.config.publicUrl,
        app.urls.api('orgs', organizationId, 'saml', row.id),
      ),
    );
  }

  async function checkDefaultTeam(organizationId: string, teamId: string | null | undefined, userId: string): Promise<void> {
    if (!teamId) return;
    if ((await findTeams(app.db, organizationId, [teamId], userId)).length === 0) {
      throw new BadRequestError(`body/defaultTeam: no team "${teamId}" in this organization`);
    }
  }

  app.get(
    '/orgs/:organizationId/saml',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'listSAMLProvidersInOrganizationById',
        tags: ['sso'],
        summary: 'List the SAML providers of an organization (admins)',
        params: OrganizationParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListEnvelope(SamlProvider), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId);
      const page = app.cursors.request(`saml:${organizationId}`, request.query);
      const result = await paginate(app.cursors, page, {
        rows: () => listSamlProviders(app.db, page, organizationId),
        count: () => countSamlProviders(app.db, organizationId),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => row as SamlProviderFields,
      });
      return { ...result, items: await present(organizationId, result.items, userId) };
    },
  );

  app.post(
    '/orgs/:organizationId/saml',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createOrganizationSAMLProvider',
        tags: ['sso'],
        summary: 'Add a SAML provider (admins)',
        params: OrganizationParams,
        body: CreateSamlProviderBody,
        response: { 201: SamlProvider, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId);
      const body = request.body;
      await checkDefaultTeam(organizationId, body.defaultTeam, userId);
      const now = app.clock.now();
      const row: SamlProviderFields = {
        id: newId(),
        organization_id: organizationId,
        label: body.label,
        sso_url: body.ssoURL ?? null,
        entity_id: body.entityID ?? null,
        certificate: body.certificate ? normalizeCertificate(body.certificate, now) : null,
        default_team_id: body.defaultTeam ?? null,
        default_role: body.defaultRole === undefined ? 'read' : body.defaultRole,
        created_at: now,
      };
      await insertSamlProvider(app.db, { ...row, updated_at: now });
      const [provider] = await present(organizationId, [row], userId);
      return reply.code(201).header('location', provider!.urls.location).send(provider!);
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
        params: SamlProviderParams,
        response: { 200: SamlProvider, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId);
      const row = await findSamlProvider(app.db, organizationId, samlProviderId);
      if (!row) throw providerNotFound();
      return (await present(organizationId, [row], userId))[0]!;
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
        params: SamlProviderParams,
        body: UpdateSamlProviderBody,
        response: { 200: SamlProvider, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      const { userId } = callerOf(request);
      await requireAdmin(organizationId, userId);
      if (!(await findSamlProvider(app.db, organizationId, samlProviderId))) throw providerNotFound();
      const body = request.body;
      await checkDefaultTeam(organizationId, body.defaultTeam, userId);
      const now = app.clock.now();
      const changes: UpdateObject<Database, 'saml_providers'> = { updated_at: now };
      if (body.label !== undefined) changes.label = body.label;
      if (body.ssoURL !== undefined) changes.sso_url = body.ssoURL;
      if (body.entityID !== undefined) changes.entity_id = body.entityID;
      if (body.certificate !== undefined) changes.certificate = body.certificate === null ? null : normalizeCertificate(body.certificate, now);
      if (body.defaultTeam !== undefined) changes.default_team_id = body.defaultTeam;
      if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
      await updateSamlProvider(app.db, samlProviderId, changes);
      const row = (await findSamlProvider(app.db, organizationId, samlProviderId))!;
      return (await present(organizationId, [row], userId))[0]!;
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
        params: SamlProviderParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, samlProviderId } = request.params;
      await requireAdmin(organizationId, callerOf(request).userId);
      const deleted = await app.db
        .deleteFrom('saml_providers')
        .where('organization_id', '=', organizationId)
        .where('id', '=', samlProviderId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw providerNotFound();
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
        params: OrganizationParams,
        response: { 200: Type.Object({ items: Type.Array(SsoLoginSchema) }), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      await organizationRole(app.db, organizationId, callerOf(request).userId);
      const providers = await listActiveSamlProviders(app.db, organizationId);
      return {
        items: providers.filter(isActive).map((row) => ({ id: row.id, label: row.label, startURL: serviceEndpoints(app.config.publicUrl, row.id).startURL })),
      };
    },
  );
};
