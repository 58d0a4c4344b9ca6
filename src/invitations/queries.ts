import type { Db } from '../db/database.js';
import type { Role } from '../db/types.js';
import { newId } from '../core/ids.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { domainProvenInOrganization } from '../orgs/organization-queries.js';

/** What an invitation is, never its secret's hash. Named, never `*`. */
const INVITATION_FIELDS = [
  'id',
  'organization_id',
  'email',
  'role',
  'sso',
  'invited_by',
  'created_at',
  'expires_at',
] as const;

export interface NewInvitation {
  email: string;
  role: Role | null;
  sso: boolean;
  invitedBy: string;
  secretHash: Buffer;
  /** Whether the secret goes only to the address, by mail. */
  mailed: boolean;
  now: Date;
  expiresAt: Date;
}

/**
 * Stores the invitation of an address to the organization, or renews the one
 * it has: a new secret (the old link stops working), role, inviter and expiry.
 * Returns its id.
 */
export async function upsertInvitation(db: Db, organizationId: string, invitation: NewInvitation): Promise<string> {
  const fields = {
    role: invitation.role,
    sso: invitation.sso,
    invited_by: invitation.invitedBy,
    secret_hash: invitation.secretHash,
    mailed: invitation.mailed,
    created_at: invitation.now,
    expires_at: invitation.expiresAt,
  };
  const { id } = await db
    .insertInto('organization_email_invitations')
    .values({ id: newId(), organization_id: organizationId, email: invitation.email, ...fields })
    .onConflict((oc) => oc.columns(['organization_id', 'email']).doUpdateSet(fields))
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The addresses among `emails` whose users are already members of the organization, disabled ones included. */
export async function memberEmails(db: Db, organizationId: string, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .selectFrom('organization_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.organization_id', '=', organizationId)
    .where('u.email', 'in', emails)
    .execute();
  return new Set(rows.map((row) => row.email));
}

/** A page of the organization's pending invitations, each row carrying the total count. */
export const listInvitationPage = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, organizationId: string) =>
  db
    .selectFrom('organization_email_invitations')
    .select(INVITATION_FIELDS)
    .where('organization_id', '=', organizationId)
    .select((eb) =>
      eb
        .selectFrom('organization_email_invitations as c')
        .select((c) => c.fn.countAll<string>().as('n'))
        .where('c.organization_id', '=', organizationId)
        .as(TOTAL_COUNT),
    ),
);

export async function countInvitations(db: Db, organizationId: string): Promise<number> {
  const { n } = await db
    .selectFrom('organization_email_invitations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Revokes a pending invitation; false when the organization has none with this id. */
export async function deleteInvitation(db: Db, organizationId: string, invitationId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('organization_email_invitations')
    .where('organization_id', '=', organizationId)
    .where('id', '=', invitationId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/**
 * The invitation the secret opens, with its organization's title and the
 * inviter's name, when id, organization and secret all match; undefined
 * otherwise, expired or not (the caller tells expiry apart).
 */
export async function findInvitationBySecret(db: Db, organizationId: string, invitationId: string, secretHash: Buffer) {
  return db
    .selectFrom('organization_email_invitations as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('users as inviter', 'inviter.id', 'i.invited_by')
    .leftJoin('users as owner', 'owner.email', 'i.email')
    .select([
      'i.id',
      'i.organization_id',
      'i.email',
      'i.role',
      'i.sso',
      'i.expires_at',
      'o.title as organization_title',
      'inviter.display_name as inviter_name',
      'owner.id as owner_id',
    ])
    .where('i.organization_id', '=', organizationId)
    .where('i.id', '=', invitationId)
    .where('i.secret_hash', '=', secretHash)
    .executeTakeFirst();
}

/**
 * Takes the invitation for accepting it: deleted, and returned, only when id,
 * organization and secret match and it has not expired at `now`. A second
 * acceptance finds nothing, so a secret opens one membership once.
 */
export async function takeInvitation(
  db: Db,
  organizationId: string,
  invitationId: string,
  secretHash: Buffer,
  now: Date,
) {
  return db
    .deleteFrom('organization_email_invitations')
    .where('organization_id', '=', organizationId)
    .where('id', '=', invitationId)
    .where('secret_hash', '=', secretHash)
    .where('expires_at', '>', now)
    .returning(['id', 'email', 'role', 'sso', 'mailed'])
    .executeTakeFirst();
}

/** Takes the pending, unexpired invitation of an address to the organization, if it has one. */
export async function takeInvitationForEmail(db: Db, organizationId: string, email: string, now: Date) {
  return db
    .deleteFrom('organization_email_invitations')
    .where('organization_id', '=', organizationId)
    .where('email', '=', email)
    .where('expires_at', '>', now)
    .returning(['id', 'role', 'sso'])
    .executeTakeFirst();
}

/** Adds the member; false when they were in the organization already (who keeps their role). */
export async function addMember(
  db: Db,
  organizationId: string,
  userId: string,
  member: { role: Role | null; sso: boolean },
  joinedAt: Date,
): Promise<boolean> {
  const inserted = await db
    .insertInto('organization_members')
    .values({
      organization_id: organizationId,
      user_id: userId,
      role: member.role,
      sso: member.sso,
      joined_at: joinedAt,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * What joining the organization by its e-mail domains needs to know: whether
 * it exists, the domains, whether it has proven the joiner's domain, and the
 * role a newcomer gets.
 */
export async function findJoinableOrganization(db: Db, organizationId: string, emailDomain: string) {
  return db
    .selectFrom('organizations')
    .select(['id', 'email_domains', 'default_role'])
    .select((eb) => domainProvenInOrganization(eb.ref('organizations.id'), emailDomain).as('domain_proven'))
    .where('id', '=', organizationId)
    .executeTakeFirst();
}

/** The user's address and whether it is proven, read now (not from a cached caller). */
export async function findUserEmail(db: Db, userId: string) {
  return db.selectFrom('users').select(['email', 'email_verified_at']).where('id', '=', userId).executeTakeFirst();
}

export async function organizationTitle(db: Db, organizationId: string): Promise<string> {
  const { title } = await db
    .selectFrom('organizations')
    .select('title')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return title;
}
