import { markEmailVerified } from '../users/user-queries.js';
import type { Db } from '../db/database.js';
import type { Role } from '../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '../core/errors.js';
import { randomString } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { hashToken } from '../core/tokens.js';
import type { Caller } from '../access/auth.js';
import { requireOrganizationAdmin } from '../access/membership.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { createUser, findUserByEmail } from '../users/user-queries.js';
import { everyEmailShown, presentUser } from '../users/users.js';
import { presentApiToken } from '../users/api-tokens.js';
import { createApiToken } from '../users/api-token-queries.js';
import { invitationMail } from './mail.js';
import { presentInvitation, presentInvitationView } from './present.js';
import {
  addMember,
  countInvitations,
  deleteInvitation,
  findInvitationBySecret,
  findJoinableOrganization,
  findUserEmail,
  listInvitationPage,
  memberEmails,
  organizationTitle,
  takeInvitation,
  takeInvitationForEmail,
  upsertInvitation,
} from './queries.js';
import {
  INVITATION_DAYS,
  type AcceptInvitationBody,
  type AcceptLink,
  type AcceptedInvitation,
  type EmailInvitation,
  type InvitationView,
  type InviteUsersBody,
  type InviteUsersResponse,
  type ListEmailInvitationsQuery,
} from './schemas.js';

const DAY_MS = 86_400_000;
const FIRST_TOKEN_LABEL = 'First token';

const invitationNotFound = () =>
  new NotFoundError(
    'No open invitation has this id and secret: it may have expired, been accepted, renewed or revoked; ask for a new one',
  );

/**
 * Invites people to the organization by e-mail (admins). Each address not
 * already a member gets a pending invitation, or its invitation renewed: a
 * new secret and expiry. No user and no membership is made: the address's
 * owner accepts with the secret. With SMTP configured the accept links go by
 * mail after the answer; without, they are in the answer, for this admin to
 * hand over.
 */
export async function inviteUsers(
  context: Context,
  caller: Caller,
  organizationId: string,
  body: InviteUsersBody,
): Promise<InviteUsersResponse> {
  await requireOrganizationAdmin(context.db, organizationId, caller.userId, 'Inviting people');
  const { emails, sso = false } = body;
  const defaultRole = body.role === undefined ? 'read' : body.role;
  const wanted = new Map<string, Role | null>();
  for (const entry of emails) {
    const email = (typeof entry === 'string' ? entry : entry.email).toLowerCase();
    wanted.set(email, typeof entry === 'string' ? defaultRole : entry.role);
  }
  const now = context.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS);
  const { title, issued } = await context.db.transaction().execute(async (tx) => {
    const members = await memberEmails(tx, organizationId, [...wanted.keys()]);
    const made: Array<{ id: string; email: string; role: Role | null; secret: string }> = [];
    for (const [email, role] of wanted) {
      if (members.has(email)) continue;
      const secret = randomString(40);
      const id = await upsertInvitation(tx, organizationId, {
        email,
        role,
        sso,
        invitedBy: caller.userId,
        secretHash: hashToken(secret),
        mailed: context.mailer !== undefined,
        now,
        expiresAt,
      });
      made.push({ id, email, role, secret });
      await recordAuditEvent(tx, {
        organizationId,
        action: 'invitation.created',
        actorId: caller.userId,
        target: { type: 'invitation', id, label: email },
        at: now,
        after: { email, role, sso },
      });
    }
    return { title: await organizationTitle(tx, organizationId), issued: made };
  });
  const links: AcceptLink[] = issued.map((invitation) => ({
    email: invitation.email,
    invitation: invitation.id,
    url: acceptUrl(context, organizationId, invitation.id, invitation.secret),
    expiresAt: expiresAt.toISOString(),
  }));
  const { mailer } = context;
  if (mailer) {
    issued.forEach((invitation, i) =>
      mailer.send(
        invitationMail({
          to: invitation.email,
          organizationTitle: title,
          inviterName: caller.displayName,
          role: invitation.role,
          acceptUrl: links[i]!.url,
          expiresAt,
        }),
        { organization: organizationId, invitation: invitation.id, purpose: 'invitation' },
      ),
    );
  }
  // Nobody is added yet: each invitee joins when they accept.
  return { users: [], invited: issued.length, ...(mailer ? {} : { acceptLinks: links }) };
}

/** The link an invitee opens: the invitation's API address with its secret. */
function acceptUrl(context: Context, organizationId: string, invitationId: string, secret: string): string {
  return `${context.urls.api('orgs', organizationId, 'email-invites', invitationId)}?secret=${secret}`;
}

/** The organization's pending invitations by e-mail (admins), never a secret. */
export async function listInvitations(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListEmailInvitationsQuery,
): Promise<Page<EmailInvitation>> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Listing invitations');
  const page = context.cursors.request(`email-invites:${organizationId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listInvitationPage(context.db, page, organizationId),
    count: () => countInvitations(context.db, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: presentInvitation,
  });
}

/** Revokes a pending invitation (admins): its link opens nothing afterwards. */
export async function revokeInvitation(
  context: Context,
  callerId: string,
  organizationId: string,
  invitationId: string,
): Promise<void> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Revoking an invitation');
  await context.db.transaction().execute(async (tx) => {
    if (!(await deleteInvitation(tx, organizationId, invitationId))) {
      throw new NotFoundError('No pending invitation with this id in the organization');
    }
    await recordAuditEvent(tx, {
      organizationId,
      action: 'invitation.revoked',
      actorId: callerId,
      target: { type: 'invitation', id: invitationId },
      at: context.clock.now(),
    });
  });
}

/** What an invitation gives, to whoever holds its link: no secret, nothing changed. */
export async function viewInvitation(
  context: Context,
  organizationId: string,
  invitationId: string,
  secret: string,
): Promise<InvitationView> {
  const found = await findInvitationBySecret(context.db, organizationId, invitationId, hashToken(secret));
  if (!found || found.expires_at <= context.clock.now()) throw invitationNotFound();
  return presentInvitationView(found);
}

/**
 * Accepts an invitation. A mailed secret proves control of the invited
 * mailbox; one the inviting admin handed over (no SMTP) proves only their
 * choice, and verifies no address. When no account has the address, the
 * secret is enough: the account is made (its address verified when the
 * secret was mailed), with the membership and a first token of its own.
 * When one has it, the request must also come with that very account's
 * token (its consent): a membership is never attached to an account
 * otherwise. A refused acceptance leaves the invitation as it was.
 */
export async function acceptInvitation(
  context: Context,
  caller: Caller | null,
  organizationId: string,
  invitationId: string,
  body: AcceptInvitationBody,
): Promise<AcceptedInvitation> {
  const now = context.clock.now();
  return context.db.transaction().execute(async (tx) => {
    const invitation = await takeInvitation(tx, organizationId, invitationId, hashToken(body.secret), now);
    if (!invitation) throw invitationNotFound();
    const member = { role: invitation.role, sso: invitation.sso };
    const owner = await findUserByEmail(tx, invitation.email);
    if (owner) {
      if (!caller) throw new UnauthorizedError();
      if (caller.userId !== owner.id) {
        throw new ForbiddenError(
          'This invitation is for an address of another account: only that account, with its own token, may accept it',
        );
      }
      if (await addMember(tx, organizationId, owner.id, member, now))
        await recordJoin(tx, now, organizationId, owner, member.role, invitation.id);
      if (invitation.mailed) await markEmailVerified(tx, owner.id, now);
      return accepted(context, organizationId, member.role, owner);
    }
    const user = await createUser(tx, context.clock, {
      email: invitation.email,
      displayName: body.displayName ?? invitation.email.split('@')[0]!,
      // A secret the inviting admin was shown proves only that they chose this person, not the mailbox.
      emailVerified: invitation.mailed,
    });
    await addMember(tx, organizationId, user.id, member, now);
    await recordJoin(tx, now, organizationId, user, member.role, invitation.id);
    const made = await createApiToken(tx, { now: () => now }, { userId: user.id, label: FIRST_TOKEN_LABEL });
    const token = {
      ...presentApiToken(
        { id: made.id, label: FIRST_TOKEN_LABEL, scopes: null, created_at: now, expires_at: null, revoked_at: null },
        now,
        // Not the token that made this request: there was none.
        '',
      ),
      token: made.token,
    };
    return { ...accepted(context, organizationId, member.role, user), token };
  });
}

/** The audit events of someone joining: the membership, and the invitation it took if any. */
async function recordJoin(
  tx: Db,
  at: Date,
  organizationId: string,
  user: { id: string; display_name?: string },
  role: Role | null,
  invitationId: string | null,
): Promise<void> {
  const target = { type: 'user', id: user.id, label: user.display_name } as const;
  const via = invitationId === null ? { via: 'email-domain' } : { via: 'invitation', invitationId };
  await recordAuditEvent(tx, {
    organizationId,
    action: 'member.added',
    actorId: user.id,
    target,
    at,
    after: { role },
    details: via,
  });
  if (invitationId === null) return;
  await recordAuditEvent(tx, {
    organizationId,
    action: 'invitation.accepted',
    actorId: user.id,
    target: { type: 'invitation', id: invitationId },
    at,
    details: { userId: user.id },
  });
}

function accepted(
  context: Context,
  organizationId: string,
  role: Role | null,
  user: { id: string; email: string; display_name: string; photo_url: string | null },
): AcceptedInvitation {
  return {
    object: 'membership',
    organization: organizationId,
    role,
    user: presentUser(
      { id: user.id, email: user.email, displayName: user.display_name, photoUrl: user.photo_url },
      context.urls,
      everyEmailShown,
    ),
  };
}

/**
 * GitBook's joinOrganization: a user whose verified address is at one of the
 * organization's e-mail domains, or who holds a pending invitation to it at
 * that address, joins; with the invitation's role, else the organization's
 * default role, else `read`. A member already keeps their role. An address
 * not verified joins nothing (400), as one at another domain.
 */
export async function joinOrganization(context: Context, callerId: string, organizationId: string): Promise<void> {
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    // Before the organization is looked up: an address not proven learns nothing, not even which ids exist.
    const user = await findUserEmail(tx, callerId);
    if (!user?.email_verified_at) {
      throw new BadRequestError(
        'Your e-mail address is not verified, so it joins nothing; accept an invitation sent to it first',
      );
    }
    const domain = user.email.slice(user.email.lastIndexOf('@') + 1);
    const organization = await findJoinableOrganization(tx, organizationId, domain);
    if (!organization) throw new NotFoundError('No organization with this id');
    const invitation = await takeInvitationForEmail(tx, organizationId, user.email, now);
    const joiner = { id: callerId };
    if (invitation) {
      if (await addMember(tx, organizationId, callerId, { role: invitation.role, sso: invitation.sso }, now))
        await recordJoin(tx, now, organizationId, joiner, invitation.role, invitation.id);
      return;
    }
    // A domain any admin may list is proven by an admin's verified address at it (domainProvenInOrganization).
    if (!organization.email_domains.includes(domain) || !organization.domain_proven) {
      throw new BadRequestError(
        'Your verified e-mail address is not at one of the organization’s proven e-mail domains, and you hold no invitation to it',
      );
    }
    const role = organization.default_role ?? 'read';
    if (await addMember(tx, organizationId, callerId, { role, sso: false }, now))
      await recordJoin(tx, now, organizationId, joiner, role, null);
  });
}
