import { sql, type Expression } from 'kysely';
import type { Db } from '../db/database.js';
import type { OrganizationRow } from '../db/types.js';
import { precompiled } from '../db/precompiled.js';

/**
 * The columns an Organization response is made from. Named, never `*`: a
 * prepared `SELECT *` breaks when a migration adds a column under a running instance.
 */
export const ORGANIZATION_FIELDS = [
  'id',
  'title',
  'email_domains',
  'hostname',
  'type',
  'use_case',
  'community_type',
  'default_role',
  'default_content_site_id',
  'logo_url',
  'sso',
  'ai',
  'invite_links',
  'plan',
  'custom_hostname',
  'merge_rules',
  'created_at',
] as const;
export const ORGANIZATION_COLUMNS = ORGANIZATION_FIELDS.map((field) => `o.${field}` as const);
/** An organization as it is presented: its kept counts are for lists, not part of it. */
export type OrganizationFields = Omit<OrganizationRow, 'updated_at' | 'live_spaces_count' | 'members_count'>;

/** The organization's fields, for presenting it where the caller's access was checked another way (through a space). */
export async function findOrganizationFields(db: Db, organizationId: string): Promise<OrganizationFields | undefined> {
  return (await organizationFields(db, organizationId))[0];
}

const organizationFields = precompiled((db, organizationId: string) =>
  db.selectFrom('organizations as o').select(ORGANIZATION_COLUMNS).where('o.id', '=', organizationId),
);

/**
 * Whether one of the organization's enabled admins has a verified address at
 * `domain`. Any admin may list any domain in `emailDomains`, so a listed
 * domain is only a claim: it lists the organization to that domain's people,
 * and lets them join it, once the organization has proven it this way.
 */
export function domainProvenInOrganization(organizationId: Expression<string>, domain: string) {
  return sql<boolean>`exists (
    select 1 from organization_members pm join users pu on pu.id = pm.user_id
    where pm.organization_id = ${organizationId} and pm.role = 'admin' and not pm.disabled
      and pu.email_verified_at is not null and split_part(pu.email, '@', 2) = ${domain}
  )`;
}
