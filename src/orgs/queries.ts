import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, OrganizationRow, OrganizationUpdate, Role } from '../db/types.js';
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { precompiled } from '../db/precompiled.js';
import {
  domainProvenInOrganization,
  ORGANIZATION_COLUMNS,
  ORGANIZATION_FIELDS,
  type OrganizationFields,
} from './organization-queries.js';

export type { OrganizationFields };

/** An organization as one of its members sees it. */
export interface MemberOrganization extends OrganizationFields {
  member_role: Role | null;
}

/** The organization, if the user is an active member of it (guests included). */
export async function findOrganizationForMember(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<MemberOrganization | undefined> {
  return (await organizationForMember(db, organizationId, userId))[0];
}

const organizationForMember = precompiled((db, organizationId: string, userId: string) =>
  db
    .selectFrom('organizations as o')
    .innerJoin('organization_members as m', 'm.organization_id', 'o.id')
    .select(ORGANIZATION_COLUMNS)
    .select('m.role as member_role')
    .where('o.id', '=', organizationId)
    .where('m.user_id', '=', userId)
    .where('m.disabled', '=', false),
);

/** Active memberships of a user; guests included. */
function membershipsOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('organization_members').where('user_id', '=', userId).where('disabled', '=', false);
}

/** A page of the user's organizations, newest first, each row carrying the total count. */
export const listOrganizationsForUser = pageQuery({ createdAt: 'o.created_at', id: 'o.id' }, (db, userId: string) =>
  db
    // Start from the user's memberships, never from the organizations' time
    // index: with a small LIMIT the planner would otherwise walk every
    // organization looking for the few this user belongs to.
    .with(
      (name) => name('mine').materialized(),
      () => membershipsOf(db, userId).select(['organization_id', 'role']),
    )
    .selectFrom('mine')
    .innerJoin('organizations as o', 'o.id', 'mine.organization_id')
    .select(ORGANIZATION_COLUMNS)
    .select('mine.role as member_role')
    // Memberships alone: the foreign key guarantees each one's organization exists.
    .select(() =>
      membershipsOf(db, userId)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    ),
);

const organizationCount = precompiled((db, userId: string) =>
  membershipsOf(db, userId).select((eb) => eb.fn.countAll<string>().as('count')),
);

export async function countOrganizationsForUser(db: Db, userId: string): Promise<number> {
  return Number((await organizationCount(db, userId))[0]!.count);
}

export interface NewOrganizationInput {
  title: string;
  emailDomains?: string[];
  hostname?: string;
  type?: 'business' | 'community';
  useCase?: string;
  communityType?: string;
}

/** Creates an organization with `adminUserId` as its first admin. Run inside a transaction. */
export async function createOrganization(
  tx: Db,
  clock: Clock,
  input: NewOrganizationInput,
  adminUserId: string,
): Promise<Omit<OrganizationRow, 'live_spaces_count' | 'members_count'> & { member_role: Role }> {
  const now = clock.now();
  const organization = await tx
    .insertInto('organizations')
    .values({
      id: newId(),
      title: input.title,
      email_domains: normalizeEmailDomains(input.emailDomains ?? []),
      hostname: input.hostname ?? null,
      type: input.type,
      use_case: input.useCase ?? null,
      community_type: input.communityType ?? null,
      default_role: 'read',
      default_content_site_id: null,
      logo_url: null,
      custom_hostname: null,
      created_at: now,
      updated_at: now,
    })
    .returning([...ORGANIZATION_FIELDS, 'updated_at'])
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('organization_members')
    .values({ organization_id: organization.id, user_id: adminUserId, role: 'admin', joined_at: now })
    .execute();
  return { ...organization, member_role: 'admin' };
}

export async function updateOrganization(
  db: Db,
  organizationId: string,
  changes: OrganizationUpdate,
): Promise<OrganizationFields> {
  return db
    .updateTable('organizations')
    .set(changes)
    .where('id', '=', organizationId)
    .returning(ORGANIZATION_FIELDS)
    .executeTakeFirstOrThrow();
}

/**
 * Organizations that list `domain` among their email domains and have proven
 * it, with the caller's membership in each: for a caller whose verified
 * address is at that domain (the action checks it).
 */
export async function listOrganizationsByEmailDomain(
  db: Db,
  domain: string,
  userId: string,
): Promise<Array<MemberOrganization & { member_user_id: string | null }>> {
  return db
    .selectFrom('organizations as o')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', userId).on('m.disabled', '=', false),
    )
    .select(ORGANIZATION_COLUMNS)
    .select('m.role as member_role')
    .select('m.user_id as member_user_id')
    .where('o.email_domains', '@>', sql<string[]>`ARRAY[${domain}]::text[]`)
    .where((eb) => domainProvenInOrganization(eb.ref('o.id'), domain))
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(1000)
    .execute();
}

/** Email domains are compared case-insensitively, so they are stored lowercased and once each. */
export function normalizeEmailDomains(domains: string[]): string[] {
  return [...new Set(domains.map((domain) => domain.toLowerCase()))];
}

/** Whether the organization has this site: the only sites its default content may name. */
export async function siteExistsIn(db: Db, organizationId: string, siteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sites')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Of `userIds`, those who are active members of the organization (guests included). */
export async function activeMemberIds(
  db: Db,
  organizationId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('organization_members')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('user_id', 'in', [...userIds])
    .where('disabled', '=', false)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}
