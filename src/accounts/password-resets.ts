import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Mail } from '../core/mailer.js';
import { escapeHtml } from '../document/html-tag.js';

/** How long a mailed link to set a new password works. */
export const RESET_LINK_MINUTES = 60;

const secretHash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

/**
 * The user a reset link may be mailed to: one whose address was proven
 * (its mailbox, or the operator, vouched for it). An address nobody proved
 * gets no link: its mailbox's owner is not known to be the account's.
 */
export async function findResettableUser(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'display_name as displayName'])
    .where('email', '=', email.toLowerCase())
    .where('email_verified_at', 'is not', null)
    .executeTakeFirst();
}

/** Makes a link's secret for the user, replacing any earlier one; only its hash is kept. */
export async function createPasswordReset(db: Db, userId: string, now: Date): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
    await tx
      .insertInto('password_resets')
      .values({
        id_hash: secretHash(secret),
        user_id: userId,
        created_at: now,
        expires_at: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
      })
      .execute();
  });
  return secret;
}

/** The user a live link's secret is for; undefined for an unknown, used or expired one. */
export async function findPasswordReset(db: Db, secret: string, now: Date) {
  return db
    .selectFrom('password_resets as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.id as userId', 'u.email'])
    .where('r.id_hash', '=', secretHash(secret))
    .where('r.expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses the link up: true when it was still there, so that two posts of one link set one password. */
export async function consumePasswordReset(db: Db, secret: string, userId: string): Promise<boolean> {
  const used = await db
    .deleteFrom('password_resets')
    .where('id_hash', '=', secretHash(secret))
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  if (!used) return false;
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  return true;
}

/** The message with the link, in plain text and simple HTML. */
export function passwordResetMail(fields: { to: string; name: string; link: string }): Mail {
  const text = [
    `Hello ${fields.name},`,
    '',
    `Someone asked to set a new password for the Quire account of ${fields.to}. To set it, open this link within ${RESET_LINK_MINUTES} minutes:`,
    fields.link,
    '',
    'The link works once. If you did not ask for it, ignore this message: your password stays as it is.',
  ].join('\n');
  const link = escapeHtml(fields.link);
  const html = [
    '<!doctype html><html><body>',
    `<p>Hello ${escapeHtml(fields.name)},</p>`,
    `<p>Someone asked to set a new password for the Quire account of ${escapeHtml(fields.to)}. To set it, open this link within ${RESET_LINK_MINUTES} minutes:</p>`,
    `<p><a href="${link}">${link}</a></p>`,
    '<p>The link works once. If you did not ask for it, ignore this message: your password stays as it is.</p>',
    '</body></html>',
  ].join('\n');
  return { to: fields.to, subject: 'Set a new password for Quire', text, html };
}
