import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import { consumeLink, createLink, findLink, findResettableUser, linkMail } from './mailed-links.js';
import { hashPassword, passwordMatches, passwordProblem } from './passwords.js';
import { deleteIdentity, lockedIdentities } from './identities.js';
import { endSessions, findPasswordHash, findSignInAccount, savePassword } from './queries.js';
import type { SignInLimits } from './sign-in-limits.js';
import { markEmailVerified } from '../users/user-queries.js';

/** What an account action refuses, in words for the person, with the status that says why. */
export interface Refusal {
  ok: false;
  status: 400 | 401 | 403 | 404 | 429;
  message: string;
  /** Seconds to wait, for a 429. */
  retryAfter?: number;
}

export const refuse = (status: Refusal['status'], message: string, retryAfter?: number): Refusal => ({
  ok: false,
  status,
  message,
  ...(retryAfter !== undefined ? { retryAfter } : {}),
});

/**
 * Whether a session may set its user's password, which opens every right
 * they have: one opened with the password, or with a token of all their
 * rights in every organization; not one a scoped token or an admin's token
 * for one organization opened, which would otherwise reach further than it.
 */
export function maySetPassword(caller: Caller): boolean {
  return caller.scopes === null && caller.organizationId === null && caller.installation === undefined;
}

/**
 * Checks a password sign-in from the client address `from`: the user it
 * opens a session for, or why not. An unknown address is checked against a
 * decoy hash, so that it takes as long as a wrong password and is answered alike.
 */
export async function checkPasswordSignIn(
  context: Context,
  limits: SignInLimits,
  attempt: { from: string; email: string; password: string },
): Promise<{ ok: true; userId: string } | Refusal> {
  const now = context.clock.now().getTime();
  const wait = limits.waitSeconds(attempt.from, attempt.email, now);
  if (wait !== undefined) {
    return refuse(429, `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minutes.`, wait);
  }
  const account = await findSignInAccount(context.db, attempt.email);
  if (!(await passwordMatches(account?.passwordHash ?? undefined, attempt.password)) || !account) {
    limits.recordFailure(attempt.from, attempt.email, now);
    return refuse(401, 'That e-mail address and password do not match.');
  }
  // Said only to whoever knows the password: an organization of theirs signs its members in through its identity provider.
  if (account.ssoOnly) {
    return refuse(403, 'Your organization signs you in through its identity provider: use its single sign-on.');
  }
  return { ok: true, userId: account.userId };
}

export interface NewPassword {
  password: string;
  confirm: string;
}

/** Why a new password cannot be used, as a refusal that changed nothing; undefined when it can. */
function newPasswordRefusal(form: NewPassword, email: string): Refusal | undefined {
  if (form.password !== form.confirm) return refuse(400, 'The two new passwords differ; nothing changed.');
  const problem = passwordProblem(form.password, email);
  return problem ? refuse(400, `${problem} Nothing changed.`) : undefined;
}

/**
 * Sets or changes the caller's password (a change needs the current one),
 * then ends their other sessions opened with a password: whoever had the old
 * one loses what it opened. The session of `keep` stays.
 */
export async function changePassword(
  context: Context,
  caller: Caller,
  keep: Buffer,
  form: NewPassword & { current?: string | undefined },
): Promise<{ ok: true; first: boolean; ended: number; tokenIds: string[] } | Refusal> {
  if (!maySetPassword(caller)) return refuse(403, 'This session cannot set your password.');
  const stored = await findPasswordHash(context.db, caller.userId);
  if (stored !== undefined && !(await passwordMatches(stored, form.current ?? ''))) {
    return refuse(400, 'The current password is not right; nothing changed.');
  }
  const refusal = newPasswordRefusal(form, caller.email);
  if (refusal) return refusal;
  await savePassword(context.db, caller.userId, await hashPassword(form.password), context.clock.now());
  const ended = await endSessions(context.db, caller.userId, { allBut: keep, passwordOnly: true });
  return { ok: true, first: stored === undefined, ...ended };
}

/**
 * Mails a link to set a new password to the account of `email`, when its
 * address is proven. Every ask counts against the client address and the
 * account, whether or not a mail went, and is answered alike.
 */
export async function askPasswordReset(
  context: Context,
  limits: SignInLimits,
  ask: { from: string; email: string },
): Promise<{ ok: true } | Refusal> {
  const { mailer, db, urls } = context;
  if (!mailer) return refuse(404, 'This service sends no e-mail.');
  const now = context.clock.now();
  const wait = limits.mailWaitSeconds(ask.from, ask.email, now.getTime());
  if (wait !== undefined) {
    return refuse(429, `Too many links were asked for. Try again in ${Math.ceil(wait / 60)} minutes.`, wait);
  }
  limits.recordMail(ask.from, ask.email, now.getTime());
  const user = await findResettableUser(db, ask.email);
  if (user) {
    const link = urls.app('password-reset', await createLink(db, user.id, 'password-reset', now));
    mailer.send(linkMail('password-reset', { to: user.email, name: user.displayName, link }), {
      about: 'password reset',
      userId: user.id,
    });
  }
  return { ok: true };
}

/**
 * Sets a new password through a mailed link, which it uses up before the
 * password is saved (of two posts of one link, one sets it), and ends every
 * session opened with the old password.
 */
export async function resetPassword(
  context: Context,
  secret: string,
  form: NewPassword,
): Promise<{ ok: true; email: string; tokenIds: string[] } | Refusal> {
  const { db } = context;
  const link = await findLink(db, secret, 'password-reset', context.clock.now());
  if (!link) return refuse(404, 'This link has been used, has expired, or was replaced by a newer one.');
  const refusal = newPasswordRefusal(form, link.email);
  if (refusal) return refusal;
  const hash = await hashPassword(form.password);
  if (!(await consumeLink(db, secret, 'password-reset', link.userId))) {
    return refuse(404, 'This link has been used, has expired, or was replaced by a newer one.');
  }
  await savePassword(db, link.userId, hash, context.clock.now());
  const ended = await endSessions(db, link.userId, { allBut: NO_SESSION, passwordOnly: true });
  return { ok: true, email: link.email, tokenIds: ended.tokenIds };
}

/**
 * Mails the caller a link that proves their address once confirmed. Counted
 * against the client address and the account, as links to set a password are.
 */
export async function askEmailProof(
  context: Context,
  limits: SignInLimits,
  caller: Caller,
  from: string,
): Promise<{ ok: true } | Refusal> {
  const { mailer, db, urls } = context;
  if (!mailer)
    return refuse(404, 'This service sends no e-mail: its operator can prove your address (cli users verify).');
  const now = context.clock.now();
  const wait = limits.mailWaitSeconds(from, caller.email, now.getTime());
  if (wait !== undefined) {
    return refuse(429, `Too many links were asked for. Try again in ${Math.ceil(wait / 60)} minutes.`, wait);
  }
  limits.recordMail(from, caller.email, now.getTime());
  const link = urls.app('email-proof', await createLink(db, caller.userId, 'email-proof', now));
  mailer.send(linkMail('email-proof', { to: caller.email, name: caller.displayName, link }), {
    about: 'email proof',
    userId: caller.userId,
  });
  return { ok: true };
}

/** Proves the address a live link was mailed to, using the link up: the address, or undefined for a dead link. */
export async function proveEmail(context: Context, secret: string): Promise<string | undefined> {
  const { db } = context;
  const link = await findLink(db, secret, 'email-proof', context.clock.now());
  if (!link || !(await consumeLink(db, secret, 'email-proof', link.userId))) return undefined;
  await markEmailVerified(db, link.userId, context.clock.now());
  return link.email;
}

/** Matches no session's stored hash: ending all but it ends all. */
const NO_SESSION = Buffer.alloc(32);

/** What unlinking an identity did: nothing for an identity the user has not, or for the last way into an account without a password. */
export type Unlinked = 'unlinked' | 'unknown' | 'last-way-in';

/** Unlinks one of the user's identities, unless it is the last way into an account without a password. */
export async function unlinkIdentity(
  context: Context,
  userId: string,
  issuer: string,
  subject: string,
): Promise<Unlinked> {
  return context.db.transaction().execute(async (tx) => {
    const linked = await lockedIdentities(tx, userId);
    if (!linked.some((identity) => identity.issuer === issuer && identity.subject === subject)) return 'unknown';
    if (linked.length === 1 && (await findPasswordHash(tx, userId)) === undefined) return 'last-way-in';
    await deleteIdentity(tx, userId, issuer, subject);
    return 'unlinked';
  });
}
