import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { newId } from '../core/ids.js';
import { hashToken } from '../core/tokens.js';

/**
 * Whether an organization the user (the column `userId` names) belongs to
 * signs its members in through its own identity provider only: `sso` on the
 * organization, for a member who is not disabled.
 */
export function signsInThroughSso(userId: 'u.id') {
  return sql<boolean>`exists (select 1 from organization_members m
    join organizations o on o.id = m.organization_id
    where m.user_id = ${sql.ref(userId)} and not m.disabled and o.sso)`;
}

/**
 * Who an e-mail address signs in as: the user, their password's hash if they
 * set one, and whether an organization they belong to signs its members in
 * through its identity provider only (`sso` on the organization).
 */
export async function findSignInAccount(db: Db, email: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_passwords as p', 'p.user_id', 'u.id')
    .select(['u.id as userId', 'u.email', 'p.password_hash as passwordHash', signsInThroughSso('u.id').as('ssoOnly')])
    .where('u.email', '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function findPasswordHash(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_passwords')
    .select('password_hash')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}

export async function savePassword(db: Db, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .insertInto('user_passwords')
    .values({ user_id: userId, password_hash: passwordHash, updated_at: now })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: now }))
    .execute();
}

/** How a person, not a token, opened a session: with their password, the operator's OpenID Connect provider, or an organization's SAML provider. */
export type PersonSignIn = 'password' | 'oidc' | 'saml';

const SESSION_TOKEN_LABELS: Record<PersonSignIn, string> = {
  password: 'Signed in with a password',
  oidc: 'Signed in through single sign-on',
  saml: 'Signed in through the organization’s SAML provider',
};

/**
 * Opens a person's session: a `session` token made for it, whose secret is
 * thrown away at once (the session's cookie is the only way in), and the
 * session on it, both ending at `until`. The user's ended sessions go. An
 * organization's provider opens a session bound to it (`organizationId`),
 * which holds only while the user belongs to that organization alone, as a
 * token an admin issued does.
 */
export async function insertPersonSession(
  db: Db,
  session: {
    idHash: Buffer;
    id: string;
    userId: string;
    signedInWith: PersonSignIn;
    organizationId?: string;
    /** The provider's ID token, sealed to the session (id-token-hints.ts): handed back when the person signs out. */
    providerIdTokenSealed?: string;
    userAgent: string | null;
    now: Date;
    until: Date;
  },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('api_tokens')
      .where('user_id', '=', session.userId)
      .where('kind', '=', 'session')
      .where('expires_at', '<=', session.now)
      .execute();
    const tokenId = newId();
    await tx
      .insertInto('api_tokens')
      .values({
        id: tokenId,
        user_id: session.userId,
        token_hash: hashToken(randomBytes(32).toString('base64url')),
        label: SESSION_TOKEN_LABELS[session.signedInWith],
        kind: 'session',
        organization_id: session.organizationId ?? null,
        created_at: session.now,
        expires_at: session.until,
      })
      .execute();
    await tx
      .insertInto('app_sessions')
      .values({
        id_hash: session.idHash,
        id: session.id,
        user_id: session.userId,
        token_id: tokenId,
        created_at: session.now,
        expires_at: session.until,
        signed_in_with: session.signedInWith,
        user_agent: session.userAgent,
        provider_id_token_sealed: session.providerIdTokenSealed ?? null,
      })
      .execute();
  });
}

/** How many of a user's sessions the account page lists: the newest. */
export const LISTED_SESSIONS = 100;

/** The user's open sessions, newest first, the one of `currentIdHash` marked. */
export async function listSessions(db: Db, userId: string, currentIdHash: Buffer, now: Date) {
  return db
    .selectFrom('app_sessions')
    .select([
      'id',
      'signed_in_with as signedInWith',
      'user_agent as userAgent',
      'created_at as createdAt',
      'expires_at as expiresAt',
      sql<boolean>`id_hash = ${currentIdHash}`.as('current'),
    ])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LISTED_SESSIONS)
    .execute();
}

/**
 * Ends sessions of the user: the one named `id`, or all but the one of
 * `keepIdHash` (with `passwordOnly`, of those only the ones a password
 * opened). A person's session goes with its token; one opened with an API
 * token ends alone, and the token stays. Returns the tokens that went.
 */
export async function endSessions(
  db: Db,
  userId: string,
  which: { id: string } | { allBut: Buffer; passwordOnly?: boolean },
): Promise<{ ended: number; tokenIds: string[] }> {
  return db.transaction().execute(async (tx) => {
    let query = tx
      .deleteFrom('app_sessions')
      .where('user_id', '=', userId)
      .returning(['token_id as tokenId', 'signed_in_with as signedInWith']);
    if ('id' in which) query = query.where('id', '=', which.id);
    else {
      query = query.where('id_hash', '<>', which.allBut);
      if (which.passwordOnly) query = query.where('signed_in_with', '=', 'password');
    }
    const ended = await query.execute();
    const tokenIds = ended.filter((row) => row.signedInWith !== 'token').map((row) => row.tokenId);
    if (tokenIds.length > 0) {
      await tx
        .deleteFrom('api_tokens')
        .where('user_id', '=', userId)
        .where('kind', '=', 'session')
        .where('id', 'in', tokenIds)
        .execute();
    }
    return { ended: ended.length, tokenIds };
  });
}
