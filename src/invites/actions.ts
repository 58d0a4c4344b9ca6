import type { Role } from '../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { findMembership, requireOrganizationAdmin } from '../model/access/membership.js';
import type { Context } from '../model/context.js';
import { createUser } from '../model/people/user-queries.js';
import { presentInvite, presentInviteToAdmin } from './present.js';
import {
  addInvitedMember,
  countInvites,
  deleteInvite,
  findInvite,
  findUserIdByEmail,
  insertInvite,
  inviteLinksEnabled,
  joinOrganization,
  listInvites,
  updateInviteRole,
  type InviteFields,
} from './queries.js';
import type {
  CreateInviteLinkBody,
  InviteLink,
  InviteUsersBody,
  InviteUsersResponse,
  ListInvitesQuery,
  UpdateInviteLinkBody,
} from './schemas.js';

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

/** Adds people to the organization by e-mail (admins); users are created when new. */
export async function inviteUsers(
  context: Context,
  callerId: string,
  organizationId: string,
  body: InviteUsersBody,
): Promise<InviteUsersResponse> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Inviting people');
  const { emails, sso = false } = body;
  const defaultRole = body.role === undefined ? 'read' : body.role;
  const wanted = new Map<string, Role | null>();
  for (const entry of emails) {
    const email = (typeof entry === 'string' ? entry : entry.email).toLowerCase();
    wanted.set(email, typeof entry === 'string' ? defaultRole : entry.role);
  }
  const now = context.clock.now();
  const added = await context.db.transaction().execute(async (tx) => {
    const users: string[] = [];
    for (const [email, role] of wanted) {
      const userId =
        (await findUserIdByEmail(tx, email)) ??
        (await createUser(tx, context.clock, { email, displayName: email.split('@')[0]! })).id;
      if (await addInvitedMember(tx, organizationId, userId, { role, sso }, now)) users.push(userId);
    }
    return users;
  });
  return { users: added, invited: added.length };
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
  await insertInvite(context.db, organizationId, invite, callerId, context.clock.now());
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
  const updated = await updateInviteRole(context.db, organizationId, inviteId, body.role);
  if (!updated) throw inviteNotFound();
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
  if (!(await deleteInvite(context.db, organizationId, inviteId))) throw inviteNotFound();
}

/** Joins the organization with an invite link; a member already in it keeps their role. */
export async function joinWithInvite(
  context: Context,
  callerId: string,
  organizationId: string,
  inviteId: string,
): Promise<Record<string, never>> {
  const invite = await openInvite(context, organizationId, inviteId);
  await joinOrganization(context.db, organizationId, callerId, invite.role, context.clock.now());
  return {};
}
