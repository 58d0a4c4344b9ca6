import type { Urls } from '../core/urls.js';
import type { Role } from '../db/types.js';
import { roleAtLeast } from '../access/roles.js';
import type { OrganizationFields } from './organization-queries.js';
import type { Organization } from './organization-schemas.js';

/** What the caller is to the organization: not a member, a guest (role null), or a member with a role. */
export interface Membership {
  isMember: boolean;
  role: Role | null;
}

export function organizationPermissions({ isMember, role }: Membership): Organization['permissions'] {
  const admin = isMember && role === 'admin';
  // Guests (role null) see only what is shared with them, not the organization's rosters.
  const fullMember = isMember && role !== null;
  return {
    view: isMember,
    access: isMember,
    admin,
    // Teams are managed by organization admins until team ownership exists.
    ownTeam: false,
    createContent: roleAtLeast(role, 'create') && isMember,
    createOpenAPISpec: admin,
    ingestConversations: roleAtLeast(role, 'edit') && isMember,
    viewBilling: admin,
    listMembers: fullMember,
    listTeams: fullMember,
    listIntegrations: fullMember,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export function presentOrganization(row: OrganizationFields, membership: Membership, urls: Urls): Organization {
  const organization: Organization = {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.created_at.toISOString(),
    emailDomains: row.email_domains,
    type: row.type,
    defaultRole: row.default_role,
    sso: row.sso,
    ai: row.ai,
    inviteLinks: row.invite_links,
    plan: row.plan,
    internal_isOnNewTrial: true,
    mergeRules: row.merge_rules,
    urls: {
      location: urls.api('orgs', row.id),
      app: urls.app('o', row.id),
      ...(row.logo_url ? { logo: row.logo_url } : {}),
    },
    // Self-hosted: no billing, so no trial applies.
    trial: { status: 'notapplicable', count: 0 },
    permissions: organizationPermissions(membership),
  };
  if (row.hostname) organization.hostname = row.hostname;
  if (row.use_case) organization.useCase = row.use_case as Organization['useCase'];
  if (row.community_type) organization.communityType = row.community_type as Organization['communityType'];
  if (row.default_content_site_id) organization.defaultContent = { type: 'site', site: row.default_content_site_id };
  if (row.custom_hostname) organization.customHostname = row.custom_hostname;
  return organization;
}
