import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Mail } from '../core/mailer.js';
import { escapeHtml } from '../document/html-tag.js';

/** What a link mailed to an account's address does. */
export type LinkPurpose = 'password-reset' | 'email-proof';

/** How long a mailed link works. */
export const LINK_MINUTES = 60;

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

/** Makes a link's secret for the user, replacing their earlier one of the same purpose; only its hash is kept. */
export async function createLink(db: Db, userId: string, purpose: LinkPurpose, now: Date): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('account_links').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
    await tx
      .insertInto('account_links')
      .values({
        id_hash: secretHash(secret),
        user_id: userId,
        purpose,
        created_at: now,
        expires_at: new Date(now.getTime() + LINK_MINUTES * 60_000),
      })
      .execute();
  });
  return secret;
}

/** The user a live link is for; undefined for an unknown, used, expired or other-purpose one. */
export async function findLink(db: Db, secret: string, purpose: LinkPurpose, now: Date) {
  return db
    .selectFrom('account_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['u.id as userId', 'u.email', 'u.email_verified_at as emailVerifiedAt'])
    .where('l.id_hash', '=', secretHash(secret))
    .where('l.purpose', '=', purpose)
    .where('l.expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses the link up: true when it was still there, so that two posts of one link do its work once. */
export async function consumeLink(db: Db, secret: string, purpose: LinkPurpose, userId: string): Promise<boolean> {
  const used = await db
    .deleteFrom('account_links')
    .where('id_hash', '=', secretHash(secret))
    .where('purpose', '=', purpose)
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  return used !== undefined;
}

const WORDS: Record<LinkPurpose, { subject: string; asked: (to: string) => string; ignore: string }> = {
  'password-reset': {
    subject: 'Set a new password for Quire',
    asked: (to) => `Someone asked to set a new password for the Quire account of ${to}. To set it`,
    ignore: 'your password stays as it is',
  },
  'email-proof': {
    subject: 'Prove your address for Quire',
    asked: (to) => `Someone asked to prove that ${to} is the address of their Quire account. If it is yours`,
    ignore: 'the address stays unproven',
  },
};

/** The message with the link, in plain text and simple HTML. */
export function linkMail(purpose: LinkPurpose, fields: { to: string; name: string; link: string }): Mail {
  const words = WORDS[purpose];
  const asked = `${words.asked(fields.to)}, open this link within ${LINK_MINUTES} minutes:`;
  const ignore = `The link works once. If you did not ask for it, ignore this message: ${words.ignore}.`;
  const text = [`Hello ${fields.name},`, '', asked, fields.link, '', ignore].join('\n');
  const link = escapeHtml(fields.link);
  const html = [
    '<!doctype html><html><body>',
    `<p>Hello ${escapeHtml(fields.name)},</p>`,
    `<p>${escapeHtml(asked)}</p>`,
    `<p><a href="${link}">${link}</a></p>`,
    `<p>${escapeHtml(ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: fields.to, subject: words.subject, text, html };
}
