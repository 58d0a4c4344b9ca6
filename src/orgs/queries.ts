import { sql } from 'kysely';
import type { Db, DbOrTx } from '../db/database.js';
import type { OrganizationRow, OrganizationUpdate, Role } from '../db/types.js';
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { keysetPage, type PageRequest } from '../core/pagination.js';

/** An organization as one of its members sees it. */
export interface MemberOrganization extends OrganizationRow {
  member_role: Role | null;
}

/** The organization, if the user is an active member of it (guests included). */
export async function findOrganizationForMember(
  db: DbOrTx,
  organizationId: string,
  userId: string,
): Promise<MemberOrganization | undefined> {
  return db
    .selectFrom('organizations as o')
    .innerJoin('organization_members as m', 'm.organization_id', 'o.id')
    .selectAll('o')
    .select('m.role as member_role')
    .where('o.id', '=', organizationId)
    .where('m.user_id', '=', userId)
    .where('m.disabled', '=', false)
    .executeTakeFirst();
}

function organizationsOfUser(db: Db, userId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .where('m.user_id', '=', userId)
    .where('m.disabled', '=', false);
}

export async function listOrganizationsForUser(db: Db, userId: string, page: PageRequest): Promise<MemberOrganization[]> {
  const query = organizationsOfUser(db, userId).selectAll('o').select('m.role as member_role');
  return keysetPage(query, { createdAt: 'o.created_at', id: 'o.id' }, page).execute();
}

export async function countOrganizationsForUser(db: Db, userId: string): Promise<number> {
  const { count } = await organizationsOfUser(db, userId)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
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
  tx: DbOrTx,
  clock: Clock,
  input: NewOrganizationInput,
  adminUserId: string,
): Promise<MemberOrganization> {
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
    .returningAll()
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('organization_members')
    .values({ organization_id: organization.id, user_id: adminUserId, role: 'admin', joined_at: now })
    .execute();
  return { ...organization, member_role: 'admin' };
}

export async function updateOrganization(
  db: DbOrTx,
  organizationId: string,
  changes: OrganizationUpdate,
): Promise<OrganizationRow> {
  return db.updateTable('organizations').set(changes).where('id', '=', organizationId).returningAll().executeTakeFirstOrThrow();
}

/**
 * Organizations that list `domain` among their email domains and that the
 * caller may learn of: those they belong to, and, when the caller's own email
 * is at that domain, those they could join.
 */
export async function listOrganizationsByEmailDomain(
  db: Db,
  domain: string,
  caller: { userId: string; email: string },
): Promise<Array<MemberOrganization & { member_user_id: string | null }>> {
  const callerDomain = caller.email.split('@').pop()?.toLowerCase();
  return db
    .selectFrom('organizations as o')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', caller.userId).on('m.disabled', '=', false),
    )
    .selectAll('o')
    .select('m.role as member_role')
    .select('m.user_id as member_user_id')
    .where('o.email_domains', '@>', sql<string[]>`ARRAY[${domain}]::text[]`)
    .$if(callerDomain !== domain, (query) => query.where('m.user_id', 'is not', null))
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(1000)
    .execute();
}

/** Email domains are compared case-insensitively, so they are stored lowercased and once each. */
export function normalizeEmailDomains(domains: string[]): string[] {
  return [...new Set(domains.map((domain) => domain.toLowerCase()))];
}
