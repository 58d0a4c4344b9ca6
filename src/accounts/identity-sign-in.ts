import type { Context } from '../context.js';
import { displayNameFor } from '../users/users.js';
import { createUser, findUserByEmail, markEmailVerified } from '../users/user-queries.js';
import { refuse, type Refusal } from './actions.js';
import { findIdentityUser, isSsoOnly, linkIdentity, touchIdentity } from './identities.js';
import type { ProviderIdentity } from './oidc.js';

/** The longest address an account takes from a provider (RFC 5321's bound on a path). */
const MAX_PROVIDER_EMAIL_LENGTH = 254;

const SSO_ONLY = 'Your organization signs you in through its own identity provider: use its single sign-on.';

/**
 * Checks a sign-in the identity provider vouched for: the user it opens a
 * session for, or why not. An identity seen before opens its user. A new one
 * is linked by the address the provider says it has proven, to the account
 * of that address, or to a new account when `createUsers` allows; an address
 * it has not proven links nothing, since anyone may name any address there.
 */
export async function checkIdentitySignIn(
  context: Context,
  identity: ProviderIdentity,
  options: { createUsers: boolean },
): Promise<{ ok: true; userId: string } | Refusal> {
  const { db } = context;
  const now = context.clock.now();
  const known = await findIdentityUser(db, identity.issuer, identity.subject);
  if (known) {
    if (known.ssoOnly) return refuse(403, SSO_ONLY);
    await touchIdentity(db, identity.issuer, identity.subject, now);
    return { ok: true, userId: known.userId };
  }
  const email = identity.email?.trim().toLowerCase();
  if (!email || !identity.emailVerified || email.length > MAX_PROVIDER_EMAIL_LENGTH || !email.includes('@')) {
    return refuse(
      403,
      'Your identity provider did not vouch for your e-mail address, so this service cannot tell which account is yours. Prove your address there, or sign in another way.',
    );
  }
  const userId =
    (await findUserByEmail(db, email))?.id ??
    (options.createUsers ? await newUser(context, email, identity.name) : undefined);
  if (!userId) {
    return refuse(
      403,
      `No account here has the address ${email}: ask an administrator of your organization to invite you.`,
    );
  }
  if (await isSsoOnly(db, userId)) return refuse(403, SSO_ONLY);
  const linked = await linkIdentity(db, { issuer: identity.issuer, subject: identity.subject, userId, now });
  // The provider proved the address the account was found or made by.
  if (linked === userId) await markEmailVerified(db, userId, now);
  return { ok: true, userId: linked };
}

/** A new account for a person the provider proved `email` for; of two made at once, both get the one that was stored. */
async function newUser(context: Context, email: string, name: string | undefined): Promise<string | undefined> {
  const displayName = displayNameFor(email, name);
  try {
    const user = await createUser(context.db, context.clock, { email, displayName, emailVerified: true });
    return user.id;
  } catch (error) {
    if ((error as { code?: unknown }).code !== '23505') throw error;
    return (await findUserByEmail(context.db, email))?.id;
  }
}
