import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { DefaultLevel, Role } from '../db/types.js';
import { ForbiddenError, NotFoundError } from '../core/errors.js';
import { strongestRole } from './roles.js';

/** What a user is to an organization: undefined when not an active member, role null for a guest. */
export async function findMembership(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<{ role: Role | null } | undefined> {
  return (await membership(db, organizationId, userId))[0];
}

/** The caller's role in the organization (null for a guest); 404 when they are not a member. */
export async function organizationRole(db: Db, organizationId: string, userId: string): Promise<Role | null> {
  const found = await findMembership(db, organizationId, userId);
  if (!found) throw organizationNotFound();
  return found.role;
}

/**
 * The caller's role, refusing guests (403) what the organization keeps to
 * its members with a role: `refused` completes "Guests cannot …". Non-members
 * get a 404.
 */
export async function requireFullMembership(
  db: Db,
  organizationId: string,
  userId: string,
  refused: string,
): Promise<Role> {
  return fullRoleOf(await findMembership(db, organizationId, userId), refused);
}

/** A membership's role: 404 for no membership, 403 for a guest (`refused` completes "Guests cannot …"). */
export function fullRoleOf(found: { role: Role | null } | null | undefined, refused: string): Role {
  if (!found) throw organizationNotFound();
  if (found.role === null) throw new ForbiddenError(`Guests cannot ${refused}`);
  return found.role;
}

/** The caller's role, refusing guests (403): they do not see the organization's rosters of members and teams. */
export function requireRosterAccess(db: Db, organizationId: string, userId: string): Promise<Role> {
  return requireFullMembership(db, organizationId, userId, ROSTER_REFUSED);
}

/** A membership's role for reading the rosters: 404 for none, 403 for a guest (as requireRosterAccess). */
export function rosterRole(found: { role: Role | null } | null | undefined): Role {
  return fullRoleOf(found, ROSTER_REFUSED);
}

const ROSTER_REFUSED = 'list the members or teams of the organization';

/** What membershipColumn carries: null when the caller is not an active member. */
export type CarriedMembership = { role: Role | null } | null;

/**
 * The caller's membership as a column of a query on the organization's rows
 * (SQL), so that a list and the check of who may read it cost one round trip.
 */
export function membershipColumn(organizationId: string, userId: string): RawBuilder<CarriedMembership> {
  return sql<CarriedMembership>`(select json_build_object('role', m.role) from organization_members m
    where m.organization_id = ${organizationId} and m.user_id = ${userId} and not m.disabled)`;
}

/**
 * requireFullMembership on the rows of a list that carried the caller's
 * membership (membershipColumn): no round trip when there are rows, one when
 * there are none to tell.
 */
export async function fullMembershipOf(
  db: Db,
  organizationId: string,
  userId: string,
  rows: readonly { caller: CarriedMembership }[],
  refused: string,
): Promise<Role> {
  if (rows.length === 0) return requireFullMembership(db, organizationId, userId, refused);
  return fullRoleOf(rows[0]!.caller, refused);
}

/** requireRosterAccess on the rows of a list that carried the caller's membership, as fullMembershipOf. */
export function rosterAccessOf(
  db: Db,
  organizationId: string,
  userId: string,
  rows: readonly { caller: CarriedMembership }[],
): Promise<Role> {
  return fullMembershipOf(db, organizationId, userId, rows, ROSTER_REFUSED);
}

const organizationNotFound = () => new NotFoundError('No organization with this id is visible to you');

/** 404 for non-members, 403 for members who are not admins; `action` names what they tried. */
export async function requireOrganizationAdmin(
  db: Db,
  organizationId: string,
  userId: string,
  action: string,
): Promise<void> {
  if ((await organizationRole(db, organizationId, userId)) !== 'admin') {
    throw new ForbiddenError(`${action} needs the admin role in the organization`);
  }
}

const membership = precompiled((db, organizationId: string, userId: string) =>
  db
    .selectFrom('organization_members')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('disabled', '=', false),
);

/**
 * The role a member gets on content from the organization and from the
 * default levels along its chain of collections: the strongest of them.
 * Guests (role null) get nothing from default levels, only from what is
 * shared with them.
 */
export function effectiveRole(memberRole: Role | null | undefined, chainLevels: readonly DefaultLevel[]): Role | null {
  if (memberRole == null) return null;
  const levels = chainLevels.filter((level): level is Role => level !== null && level !== 'inherit');
  return strongestRole(memberRole, ...levels);
}
