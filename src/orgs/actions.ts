import type { OrganizationUpdate } from '../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { paginate, type Page } from '../core/pagination.js';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import { changed, recordAuditEvent } from '../audit/record.js';
import { requireRuleUsersAreMembers, storedMergeRules } from './merge-rules.js';
import { presentOrganization } from './present.js';
import {
  countOrganizationsForUser,
  createOrganization,
  findOrganizationForMember,
  listOrganizationsByEmailDomain,
  listOrganizationsForUser,
  normalizeEmailDomains,
  siteExistsIn,
  updateOrganization,
  activeMemberIds,
} from './queries.js';
import type {
  CreateOrganizationBody,
  EmailDomainOrganizationsResponse,
  ListOrganizationsQuery,
  Organization,
  UpdateOrganizationBody,
} from './schemas.js';

const notFound = () => new NotFoundError('No organization with this id is visible to you');

/** The organizations of the caller, guests included. */
export async function listOrganizations(
  context: Context,
  callerId: string,
  query: ListOrganizationsQuery,
): Promise<Page<Organization>> {
  const page = context.cursors.request(`orgs:${callerId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listOrganizationsForUser(context.db, page, callerId),
    count: () => countOrganizationsForUser(context.db, callerId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentOrganization(row, { isMember: true, role: row.member_role }, context.urls),
  });
}

/** Creates an organization; the caller becomes its admin. */
export async function createOrganizationForCaller(
  context: Context,
  callerId: string,
  body: CreateOrganizationBody,
): Promise<Organization> {
  const created = await context.db.transaction().execute((tx) => createOrganization(tx, context.clock, body, callerId));
  return presentOrganization(created, { isMember: true, role: created.member_role }, context.urls);
}

export async function getOrganization(
  context: Context,
  callerId: string,
  organizationId: string,
): Promise<Organization> {
  const organization = await findOrganizationForMember(context.db, organizationId, callerId);
  if (!organization) throw notFound();
  return presentOrganization(organization, { isMember: true, role: organization.member_role }, context.urls);
}

/** Updates an organization (admins only). */
export async function updateOrganizationSettings(
  context: Context,
  callerId: string,
  organizationId: string,
  body: UpdateOrganizationBody,
): Promise<Organization> {
  const organization = await findOrganizationForMember(context.db, organizationId, callerId);
  if (!organization) throw notFound();
  if (organization.member_role !== 'admin')
    throw new ForbiddenError('Only organization admins can update the organization');
  if (body.defaultContent && !(await siteExistsIn(context.db, organization.id, body.defaultContent.site))) {
    throw new BadRequestError(
      `body/defaultContent/site: no site "${body.defaultContent.site}" exists in this organization`,
    );
  }
  const changes = organizationChanges(body);
  if (body.mergeRules !== undefined) {
    const { rules, users } = storedMergeRules(body.mergeRules, 'body/mergeRules');
    const members = await activeMemberIds(context.db, organization.id, users);
    requireRuleUsersAreMembers(users, members, 'body/mergeRules');
    changes.merge_rules = JSON.stringify(rules);
  }
  const updated = await context.db.transaction().execute(async (tx) => {
    const result = await updateOrganization(tx, organization.id, {
      ...changes,
      updated_at: context.clock.now(),
    });
    // The settings as the API shows them, so that before and after read as the request wrote them.
    const view = (row: typeof organization) => {
      const {
        updatedAt: _updated,
        permissions: _permissions,
        ...settings
      } = presentOrganization(row, { isMember: true, role: 'admin' }, context.urls) as Record<string, unknown>;
      return settings;
    };
    const difference = changed(view(organization), view({ ...organization, ...result }));
    if (difference) {
      await recordAuditEvent(tx, {
        organizationId: organization.id,
        action: 'organization.settings_updated',
        actorId: callerId,
        target: { type: 'organization', id: organization.id, label: result.title },
        at: context.clock.now(),
        ...difference,
      });
    }
    return result;
  });
  return presentOrganization(updated, { isMember: true, role: organization.member_role }, context.urls);
}

/**
 * The organizations that accept the caller's own e-mail domain, once their
 * address is verified: an address is a claim, and until proven it shows
 * nothing. Any other domain lists none, so that no one learns which
 * organization a domain belongs to by asking. A token an admin issued sees
 * only its organization.
 */
export async function listOrganizationsForEmailDomain(
  context: Context,
  caller: Caller,
  emailDomain: string,
): Promise<EmailDomainOrganizationsResponse> {
  const domain = emailDomain.toLowerCase();
  const callerDomain = caller.email.slice(caller.email.lastIndexOf('@') + 1).toLowerCase();
  if (!caller.emailVerified || domain !== callerDomain) return { organizations: [] };
  const rows = await listOrganizationsByEmailDomain(context.db, domain, caller.userId);
  return {
    organizations: rows
      .filter((row) => caller.organizationId === null || row.id === caller.organizationId)
      .map((row) =>
        presentOrganization(row, { isMember: row.member_user_id !== null, role: row.member_role }, context.urls),
      ),
  };
}

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
  // A site named here was checked to be the organization's; deleting it unsets this (ON DELETE SET NULL).
  if (body.defaultContent !== undefined) changes.default_content_site_id = body.defaultContent?.site ?? null;
  return changes;
}
