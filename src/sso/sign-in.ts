import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { refuse, type Refusal } from '../accounts/actions.js';
import { findIdentityUser, linkIdentity, touchIdentity } from '../accounts/identities.js';
import { addMember } from '../invitations/queries.js';
import { markSsoMember } from '../members/queries.js';
import { upsertTeamMembers } from '../teams/queries.js';
import { displayNameFor } from '../users/users.js';
import { createUser, findUserByEmail } from '../users/user-queries.js';
import type { ActiveSamlProvider, SamlIdentity } from './saml-client.js';
import { samlIssuer } from './queries.js';
import { membershipStanding } from './sign-in-queries.js';

/** The longest address an account takes from an assertion (RFC 5321's bound on a path). */
const MAX_EMAIL_LENGTH = 254;

/**
 * Checks a sign-in an organization's SAML provider vouched for: the user it
 * opens a session for, bound to the organization, or why not. The provider
 * speaks for its own organization only, so it opens an account that belongs
 * to that organization alone: one whose identity it linked before, a member
 * of it (invited, or made by it) and of no other, or a new account it makes
 * for an address no account has, with its default role and team. An account
 * elsewhere is never opened by an address an organization's provider names.
 */
export async function checkSamlSignIn(
  context: Context,
  provider: ActiveSamlProvider,
  identity: SamlIdentity,
): Promise<{ ok: true; userId: string } | Refusal> {
  const { db } = context;
  const now = context.clock.now();
  const issuer = samlIssuer(provider.id);
  const organizationId = provider.organization_id;
  const known = await findIdentityUser(db, issuer, identity.nameId);
  if (known) {
    const refusal = await standingRefusal(context, organizationId, known.userId);
    if (refusal) return refusal;
    await touchIdentity(db, issuer, identity.nameId, now);
    return { ok: true, userId: known.userId };
  }
  const email = identity.email?.trim().toLowerCase();
  if (!email || email.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    return refuse(403, 'Your identity provider named no e-mail address for you: ask its administrator to send one.');
  }
  const existing = await findUserByEmail(db, email);
  let userId: string;
  if (existing) {
    const refusal = await standingRefusal(context, organizationId, existing.id);
    if (refusal) return refusal;
    userId = existing.id;
  } else {
    userId = await newMember(context, provider, email, identity.name);
  }
  const linked = await linkIdentity(db, { issuer, subject: identity.nameId, userId, now });
  if (linked !== userId) return refuse(403, 'This identity opens another account here.');
  await markSsoMember(db, organizationId, userId);
  return { ok: true, userId };
}

/** Why the provider may not open this user's account, if it may not. */
async function standingRefusal(context: Context, organizationId: string, userId: string): Promise<Refusal | undefined> {
  const standing = await membershipStanding(context.db, organizationId, userId);
  if (standing.disabled) return refuse(403, 'Your membership of this organization is disabled.');
  if (!standing.member) {
    return refuse(
      403,
      'An account here has your address but is not a member of this organization: an admin of the organization invites it first.',
    );
  }
  if (standing.elsewhere > 0) {
    return refuse(
      403,
      'Your account belongs to other organizations too, which this organization’s identity provider does not speak for: sign in with your password.',
    );
  }
  return undefined;
}

/**
 * A new account for an address the provider named, a member of its
 * organization with the provider's default role and team. The address is
 * not proven: an organization's provider speaks for its members, not for
 * every mailbox. Of two first sign-ins at once, the second finds the first's.
 */
async function newMember(
  context: Context,
  provider: ActiveSamlProvider,
  email: string,
  name: string | undefined,
): Promise<string> {
  const displayName = displayNameFor(email, name);
  const now = context.clock.now();
  try {
    return await context.db.transaction().execute(async (tx) => {
      const user = await createUser(tx, context.clock, { email, displayName });
      await addMember(tx, provider.organization_id, user.id, { role: provider.default_role, sso: true }, now);
      if (provider.default_team_id) {
        await upsertTeamMembers(
          tx,
          provider.organization_id,
          provider.default_team_id,
          [{ userId: user.id, role: undefined }],
          now,
        );
      }
      await recordAuditEvent(tx, {
        organizationId: provider.organization_id,
        action: 'member.added',
        actorId: user.id,
        target: { type: 'user', id: user.id, label: displayName },
        at: now,
        after: { role: provider.default_role },
        details: { via: 'saml', samlProviderId: provider.id },
      });
      return user.id;
    });
  } catch (error) {
    if ((error as { code?: unknown }).code !== '23505') throw error;
    const user = await findUserByEmail(context.db, email);
    if (!user) throw error;
    return user.id;
  }
}
