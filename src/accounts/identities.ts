import type { Db } from '../db/database.js';
import { signsInThroughSso } from './queries.js';

/** Who signs in as an identity of a provider (its issuer and subject): the user, and whether password-less SSO-only rules them. */
export async function findIdentityUser(db: Db, issuer: string, subject: string) {
  return db
    .selectFrom('user_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['u.id as userId', signsInThroughSso('u.id').as('ssoOnly')])
    .where('i.issuer', '=', issuer)
    .where('i.subject', '=', subject)
    .executeTakeFirst();
}

/**
 * Links an identity to a user, unless it already is: of two first sign-ins
 * at once, one links. Returns the user the identity opens afterwards.
 */
export async function linkIdentity(
  db: Db,
  identity: { issuer: string; subject: string; userId: string; now: Date },
): Promise<string> {
  await db
    .insertInto('user_identities')
    .values({
      issuer: identity.issuer,
      subject: identity.subject,
      user_id: identity.userId,
      created_at: identity.now,
      last_signed_in_at: identity.now,
    })
    .onConflict((conflict) => conflict.columns(['issuer', 'subject']).doNothing())
    .execute();
  const linked = await db
    .selectFrom('user_identities')
    .select('user_id')
    .where('issuer', '=', identity.issuer)
    .where('subject', '=', identity.subject)
    .executeTakeFirstOrThrow();
  return linked.user_id;
}

/** Notes a sign-in through the identity. */
export async function touchIdentity(db: Db, issuer: string, subject: string, now: Date): Promise<void> {
  await db
    .updateTable('user_identities')
    .set({ last_signed_in_at: now })
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .execute();
}

/** Whether an organization the user belongs to signs its members in through its own identity provider only. */
export async function isSsoOnly(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users as u')
    .select(signsInThroughSso('u.id').as('ssoOnly'))
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return row?.ssoOnly ?? false;
}
