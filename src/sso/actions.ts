import { createHash } from 'node:crypto';
import type { UpdateObject } from 'kysely';
import type { Database } from '../db/types.js';
import { BadRequestError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { organizationRole, requireOrganizationAdmin } from '../access/membership.js';
import type { Context } from '../context.js';
import { changed, recordAuditEvent } from '../audit/record.js';
import type { Team } from '../members/member-schemas.js';
import { findTeams } from '../teams/team-queries.js';
import { presentTeam } from '../teams/teams.js';
import { normalizeCertificate } from './certificate.js';
import { isActive, presentSamlProvider, presentSsoLogin } from './present.js';
import {
  countSamlProviders,
  deleteSamlProvider,
  findSamlProvider,
  insertSamlProvider,
  listActiveSamlProviders,
  listSamlProviders,
  updateSamlProvider,
  type SamlProviderFields,
} from './queries.js';
import type {
  CreateSamlProviderBody,
  ListSamlProvidersQuery,
  SamlProvider,
  SsoLoginsResponse,
  UpdateSamlProviderBody,
} from './schemas.js';

const providerNotFound = () => new NotFoundError('No SAML provider with this id in the organization');

/** Single sign-on is configured by organization admins only. */
const requireAdmin = (context: Context, organizationId: string, callerId: string) =>
  requireOrganizationAdmin(context.db, organizationId, callerId, 'Configuring single sign-on');

/** The teams of these providers, presented for an admin (who manages every team). */
async function defaultTeams(
  context: Context,
  callerId: string,
  organizationId: string,
  rows: SamlProviderFields[],
): Promise<Map<string, Team>> {
  const ids = [...new Set(rows.flatMap((row) => (row.default_team_id ? [row.default_team_id] : [])))];
  const teams = await findTeams(context.db, organizationId, ids, callerId);
  return new Map(teams.map((team) => [team.id, presentTeam(team, { view: true, admin: true })]));
}

async function presentProviders(
  context: Context,
  callerId: string,
  organizationId: string,
  rows: SamlProviderFields[],
): Promise<SamlProvider[]> {
  const teams = await defaultTeams(context, callerId, organizationId, rows);
  return rows.map((row) =>
    presentSamlProvider(
      row,
      row.default_team_id ? teams.get(row.default_team_id) : undefined,
      context.config.publicUrl,
      context.urls.api('orgs', organizationId, 'saml', row.id),
    ),
  );
}

async function checkDefaultTeam(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string | null | undefined,
) {
  if (!teamId) return;
  if ((await findTeams(context.db, organizationId, [teamId], callerId)).length === 0) {
    throw new BadRequestError(`body/defaultTeam: no team "${teamId}" in this organization`);
  }
}

/** The stored columns a PATCH body changes; fields left out stay as they are, null clears one. */
function providerChanges(body: UpdateSamlProviderBody, now: Date): UpdateObject<Database, 'saml_providers'> {
  const changes: UpdateObject<Database, 'saml_providers'> = { updated_at: now };
  if (body.label !== undefined) changes.label = body.label;
  if (body.ssoURL !== undefined) changes.sso_url = body.ssoURL;
  if (body.entityID !== undefined) changes.entity_id = body.entityID;
  if (body.certificate !== undefined)
    changes.certificate = body.certificate === null ? null : normalizeCertificate(body.certificate, now);
  if (body.defaultTeam !== undefined) changes.default_team_id = body.defaultTeam;
  if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
  return changes;
}

/** The SAML providers of an organization (admins). */
export async function listProviders(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListSamlProvidersQuery,
): Promise<Page<SamlProvider>> {
  await requireAdmin(context, organizationId, callerId);
  const page = context.cursors.request(`saml:${organizationId}`, query);
  const result = await paginate(context.cursors, page, {
    rows: () => listSamlProviders(context.db, page, organizationId),
    count: () => countSamlProviders(context.db, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row): SamlProviderFields => row,
  });
  return { ...result, items: await presentProviders(context, callerId, organizationId, result.items) };
}

/** What the audit log shows of a provider's settings: the certificate by its fingerprint only. */
function auditedSettings(row: SamlProviderFields): Record<string, unknown> {
  return {
    label: row.label,
    ssoURL: row.sso_url,
    entityID: row.entity_id,
    certificate: row.certificate === null ? null : createHash('sha256').update(row.certificate).digest('hex'),
    defaultTeam: row.default_team_id,
    defaultRole: row.default_role,
  };
}

/** Adds a SAML provider (admins). */
export async function createProvider(
  context: Context,
  callerId: string,
  organizationId: string,
  body: CreateSamlProviderBody,
): Promise<SamlProvider> {
  await requireAdmin(context, organizationId, callerId);
  await checkDefaultTeam(context, callerId, organizationId, body.defaultTeam);
  const now = context.clock.now();
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
  await context.db.transaction().execute(async (tx) => {
    await insertSamlProvider(tx, { ...row, updated_at: now });
    await recordAuditEvent(tx, {
      organizationId,
      action: 'sso.provider_created',
      actorId: callerId,
      target: { type: 'sso-provider', id: row.id, label: row.label },
      at: now,
      after: auditedSettings(row),
    });
  });
  return (await presentProviders(context, callerId, organizationId, [row]))[0]!;
}

export async function getProvider(
  context: Context,
  callerId: string,
  organizationId: string,
  providerId: string,
): Promise<SamlProvider> {
  await requireAdmin(context, organizationId, callerId);
  const row = await findSamlProvider(context.db, organizationId, providerId);
  if (!row) throw providerNotFound();
  return (await presentProviders(context, callerId, organizationId, [row]))[0]!;
}

/** Updates a SAML provider (admins); null clears a field. */
export async function updateProvider(
  context: Context,
  callerId: string,
  organizationId: string,
  providerId: string,
  body: UpdateSamlProviderBody,
): Promise<SamlProvider> {
  await requireAdmin(context, organizationId, callerId);
  const before = await findSamlProvider(context.db, organizationId, providerId);
  if (!before) throw providerNotFound();
  await checkDefaultTeam(context, callerId, organizationId, body.defaultTeam);
  const now = context.clock.now();
  const row = await context.db.transaction().execute(async (tx) => {
    await updateSamlProvider(tx, organizationId, providerId, providerChanges(body, now));
    const after = (await findSamlProvider(tx, organizationId, providerId))!;
    const difference = changed(auditedSettings(before), auditedSettings(after));
    if (difference) {
      await recordAuditEvent(tx, {
        organizationId,
        action: 'sso.provider_updated',
        actorId: callerId,
        target: { type: 'sso-provider', id: providerId, label: after.label },
        at: now,
        ...difference,
      });
    }
    return after;
  });
  return (await presentProviders(context, callerId, organizationId, [row]))[0]!;
}

export async function deleteProvider(
  context: Context,
  callerId: string,
  organizationId: string,
  providerId: string,
): Promise<void> {
  await requireAdmin(context, organizationId, callerId);
  await context.db.transaction().execute(async (tx) => {
    const before = await findSamlProvider(tx, organizationId, providerId);
    if (!before || !(await deleteSamlProvider(tx, organizationId, providerId))) throw providerNotFound();
    await recordAuditEvent(tx, {
      organizationId,
      action: 'sso.provider_deleted',
      actorId: callerId,
      target: { type: 'sso-provider', id: providerId, label: before.label },
      at: context.clock.now(),
      before: auditedSettings(before),
    });
  });
}

/** The sign-in start URLs of the organization's active SSO providers, for any of its members. */
export async function listSsoLogins(
  context: Context,
  callerId: string,
  organizationId: string,
): Promise<SsoLoginsResponse> {
  await organizationRole(context.db, organizationId, callerId);
  const providers = await listActiveSamlProviders(context.db, organizationId);
  return { items: providers.filter(isActive).map((row) => presentSsoLogin(row, context.config.publicUrl)) };
}
