import { sql } from 'kysely';
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

/** An identity of a provider linked to a user, as the account page lists it. */
export interface LinkedIdentity {
  issuer: string;
  subject: string;
  /** The SAML provider's label, for an organization's SAML identity (`saml:<provider id>`). */
  samlLabel: string | null;
  createdAt: Date;
  lastSignedInAt: Date;
}

/** The identities linked to the user, oldest first (a person has a few at most). */
export async function listIdentities(db: Db, userId: string): Promise<LinkedIdentity[]> {
  return db
    .selectFrom('user_identities as i')
    .leftJoin('saml_providers as p', (join) => join.on(sql<boolean>`i.issuer = 'saml:' || p.id`))
    .select([
      'i.issuer',
      'i.subject',
      'p.label as samlLabel',
      'i.created_at as createdAt',
      'i.last_signed_in_at as lastSignedInAt',
    ])
    .where('i.user_id', '=', userId)
    .orderBy('i.created_at')
    .orderBy('i.issuer')
    .execute();
}

/** The identities linked to the user, with the user's row locked until the transaction ends, so that of two unlinks at once the second sees the first's. */
export async function lockedIdentities(tx: Db, userId: string): Promise<Array<{ issuer: string; subject: string }>> {
  await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
  return tx.selectFrom('user_identities').select(['issuer', 'subject']).where('user_id', '=', userId).execute();
}

export async function deleteIdentity(tx: Db, userId: string, issuer: string, subject: string): Promise<void> {
  await tx
    .deleteFrom('user_identities')
    .where('user_id', '=', userId)
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .execute();
}
