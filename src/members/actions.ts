import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Db } from '../db/database.js';
import { ConflictError } from '../core/errors.js';
import { paginate, type Page } from '../core/pagination.js';
import { findMembership, organizationRole, requireOrganizationAdmin, rosterRole } from '../access/membership.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { memberOrNotFound } from './member-queries.js';
import { presentMember } from './members.js';
import { listMembersByName } from './name-order.js';
import type { Member } from './member-schemas.js';
import { visitorClaims } from './present.js';
import {
  countActiveAdmins,
  countMembers,
  deleteMember,
  listMembers,
  lockActiveAdmins,
  markSsoMember,
  recordLastSeen,
  setMemberRole,
} from './queries.js';
import type { ListMembersQuery, PingResponse, UpdateMemberBody } from './schemas.js';

/** How long the visitor claims of a ping stay valid. */
const VISITOR_CLAIMS_SECONDS = 3600;

export async function listOrganizationMembers(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListMembersQuery,
): Promise<Page<Member>> {
  const { role, search, sort = 'joinedAt' } = query;
  const filters = { role, search, sort };
  if (sort === 'name') {
    rosterRole(await findMembership(context.db, organizationId, callerId));
    return listMembersByName(context, organizationId, filters, query);
  }
  const page = context.cursors.request(`members:${organizationId}:${sort}:${role ?? ''}:${search ?? ''}`, query);
  rosterRole(await findMembership(context.db, organizationId, callerId));
  return paginate(context.cursors, page, {
    rows: () => listMembers(context.db, page, organizationId, filters),
    count: () => countMembers(context.db, organizationId, filters),
    keyOf: (row) => ({ createdAt: sort === 'lastSeenAt' ? row.last_seen_at! : row.joined_at, id: row.user_id }),
    toItem: (row) => presentMember(row, context.urls),
  });
}

export async function getMember(
  context: Context,
  callerId: string,
  organizationId: string,
  userId: string,
): Promise<Member> {
  rosterRole(await findMembership(context.db, organizationId, callerId));
  return presentMember(await memberOrNotFound(context.db, organizationId, userId), context.urls);
}

/** Changes a member's role (admins); null makes them a guest. */
export async function updateMember(
  context: Context,
  callerId: string,
  organizationId: string,
  userId: string,
  body: UpdateMemberBody,
): Promise<Member> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Changing a member’s role');
  const member = await memberOrNotFound(context.db, organizationId, userId);
  const { role } = body;
  if (role !== undefined) {
    await keepingAnAdmin(context.db, organizationId, userId, async (tx) => {
      await setMemberRole(tx, organizationId, userId, role);
      if (member.role === role) return;
      await recordAuditEvent(tx, {
        organizationId,
        action: 'member.role_changed',
        actorId: callerId,
        target: { type: 'user', id: userId, label: member.display_name },
        at: context.clock.now(),
        before: { role: member.role },
        after: { role },
      });
    });
  }
  return presentMember(await memberOrNotFound(context.db, organizationId, userId), context.urls);
}

/**
 * Removes a member (admins, or the member leaving); their team memberships and
 * review requests go with them, their comments stay.
 */
export async function removeMember(
  context: Context,
  callerId: string,
  organizationId: string,
  userId: string,
): Promise<void> {
  if (userId !== callerId) await requireOrganizationAdmin(context.db, organizationId, callerId, 'Removing a member');
  else await organizationRole(context.db, organizationId, callerId);
  const member = await memberOrNotFound(context.db, organizationId, userId);
  await keepingAnAdmin(context.db, organizationId, userId, async (tx) => {
    await deleteMember(tx, organizationId, userId);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'member.removed',
      actorId: callerId,
      target: { type: 'user', id: userId, label: member.display_name },
      at: context.clock.now(),
      before: { role: member.role },
    });
  });
}

/**
 * Records that the caller is active in the organization, and answers with
 * their visitor claims signed by a key derived from the service secret.
 */
export async function recordActivity(
  context: Context,
  callerId: string,
  organizationId: string,
  callerEmail: string,
): Promise<PingResponse> {
  const role = await organizationRole(context.db, organizationId, callerId);
  const now = context.clock.now();
  await recordLastSeen(context.db, organizationId, callerId, now);
  const key = createHash('sha256').update(`visitor-claims:${context.serviceSecret}`).digest();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const serviceVisitorClaims = await new SignJWT({ ...visitorClaims(organizationId, role, callerEmail) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(callerId)
    .setIssuer(context.config.publicUrl)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + VISITOR_CLAIMS_SECONDS)
    .sign(key);
  return { serviceVisitorClaims };
}

/** Marks a member as signing in with SSO (admins). */
export async function setSsoMember(
  context: Context,
  callerId: string,
  organizationId: string,
  userId: string,
): Promise<Member> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Setting a member as SSO member');
  const member = await memberOrNotFound(context.db, organizationId, userId);
  await context.db.transaction().execute(async (tx) => {
    await markSsoMember(tx, organizationId, userId);
    if (member.sso) return;
    await recordAuditEvent(tx, {
      organizationId,
      action: 'member.sso_enabled',
      actorId: callerId,
      target: { type: 'user', id: userId, label: member.display_name },
      at: context.clock.now(),
      before: { sso: false },
      after: { sso: true },
    });
  });
  return presentMember(await memberOrNotFound(context.db, organizationId, userId), context.urls);
}

/**
 * Runs a change to a member's role or membership that must leave the
 * organization an admin. The organization's admins are locked first, so two
 * admins demoting each other at once cannot both succeed.
 */
async function keepingAnAdmin<T>(
  db: Db,
  organizationId: string,
  userId: string,
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  const run = async (tx: Db) => {
    const admins = await lockActiveAdmins(tx, organizationId);
    const result = await change(tx);
    if ((await countActiveAdmins(tx, organizationId)) === 0 && admins.includes(userId)) {
      throw new ConflictError('The organization must keep at least one admin');
    }
    return result;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
