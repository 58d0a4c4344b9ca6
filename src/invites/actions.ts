import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { findMembership, requireOrganizationAdmin } from '../access/membership.js';
import type { Context } from '../context.js';
import { recordAuditEvent, secretIdFingerprint } from '../audit/record.js';
import { presentInvite, presentInviteToAdmin } from './present.js';
import {
  countInvites,
  deleteInvite,
  findInvite,
  insertInvite,
  inviteLinksEnabled,
  joinOrganization,
  listInvites,
  updateInviteRole,
  type InviteFields,
} from './queries.js';
import type { CreateInviteLinkBody, InviteLink, ListInvitesQuery, UpdateInviteLinkBody } from './schemas.js';

const inviteNotFound = () => new NotFoundError('No invite with this id is open in the organization');

/** The invite as the caller sees it: whether it gives them anything depends on their membership. */
async function presentToCaller(
  context: Context,
  callerId: string,
  organizationId: string,
  invite: InviteFields,
): Promise<InviteLink> {
  return presentInvite(invite, await findMembership(context.db, organizationId, callerId));
}

/** An invite link that can be used: it exists and the organization allows invite links. */
async function openInvite(context: Context, organizationId: string, inviteId: string): Promise<InviteFields> {
  const invite = await findInvite(context.db, organizationId, inviteId);
  if (!invite || !(await inviteLinksEnabled(context.db, organizationId))) throw inviteNotFound();
  return invite;
}

/** Creates an invite link to the organization (admins, while invite links are on). */
export async function createInviteLink(
  context: Context,
  callerId: string,
  organizationId: string,
  body: CreateInviteLinkBody,
): Promise<InviteLink> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Creating an invite link');
  if (body.space !== undefined || body.collection !== undefined || body.level !== undefined) {
    throw new BadRequestError(
      'body: invite links to one space or collection are not supported; invite to the organization with a role',
    );
  }
  if (body.role === undefined) throw new BadRequestError('body/role is required');
  if (!(await inviteLinksEnabled(context.db, organizationId))) {
    throw new ForbiddenError('Invite links are turned off for this organization (inviteLinks)');
  }
  const invite = { id: newId(), role: body.role };
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await insertInvite(tx, organizationId, invite, callerId, now);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'invite_link.created',
      actorId: callerId,
      target: { type: 'invite-link', id: secretIdFingerprint(invite.id) },
      at: now,
      after: { role: invite.role },
    });
  });
  return presentToCaller(context, callerId, organizationId, invite);
}

/** The organization's invite links (admins). */
export async function listInviteLinks(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListInvitesQuery,
): Promise<Page<InviteLink>> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Listing invite links');
  const page = context.cursors.request(`invites:${organizationId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listInvites(context.db, page, organizationId),
    count: () => countInvites(context.db, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: presentInviteToAdmin,
  });
}

/** Reads an invite link; its id is the secret that lets one join. */
export async function getInviteLink(
  context: Context,
  callerId: string,
  organizationId: string,
  inviteId: string,
): Promise<InviteLink> {
  const invite = await openInvite(context, organizationId, inviteId);
  return presentToCaller(context, callerId, organizationId, invite);
}

/** Changes the role an invite link gives (admins). */
export async function updateInviteLink(
  context: Context,
  callerId: string,
  organizationId: string,
  inviteId: string,
  body: UpdateInviteLinkBody,
): Promise<InviteLink> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Changing an invite link');
  const updated = await context.db.transaction().execute(async (tx) => {
    const before = await findInvite(tx, organizationId, inviteId);
    const after = await updateInviteRole(tx, organizationId, inviteId, body.role);
    if (!before || !after) throw inviteNotFound();
    await recordAuditEvent(tx, {
      organizationId,
      action: 'invite_link.updated',
      actorId: callerId,
      target: { type: 'invite-link', id: secretIdFingerprint(inviteId) },
      at: context.clock.now(),
      before: { role: before.role },
      after: { role: after.role },
    });
    return after;
  });
  return presentToCaller(context, callerId, organizationId, updated);
}

/** Deletes an invite link (admins); it can no longer be used. */
export async function deleteInviteLink(
  context: Context,
  callerId: string,
  organizationId: string,
  inviteId: string,
): Promise<void> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Deleting an invite link');
  await context.db.transaction().execute(async (tx) => {
    if (!(await deleteInvite(tx, organizationId, inviteId))) throw inviteNotFound();
    await recordAuditEvent(tx, {
      organizationId,
      action: 'invite_link.deleted',
      actorId: callerId,
      target: { type: 'invite-link', id: secretIdFingerprint(inviteId) },
      at: context.clock.now(),
    });
  });
}

/** Joins the organization with an invite link; a member already in it keeps their role. */
export async function joinWithInvite(
  context: Context,
  callerId: string,
  organizationId: string,
  inviteId: string,
): Promise<Record<string, never>> {
  const invite = await openInvite(context, organizationId, inviteId);
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    // A member already in it keeps their role: nothing to record.
    if (await findMembership(tx, organizationId, callerId)) return;
    await joinOrganization(tx, organizationId, callerId, invite.role, now);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'member.added',
      actorId: callerId,
      target: { type: 'user', id: callerId },
      at: now,
      after: { role: invite.role },
      details: { via: 'invite-link', inviteLink: secretIdFingerprint(inviteId) },
    });
  });
  return {};
}
