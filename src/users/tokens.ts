import type { Db } from '../db/database.js';
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { generateToken, hashToken } from '../core/tokens.js';

export interface NewTokenInput {
  userId: string;
  label?: string;
  /** Null or omitted: the token has its user's full rights. */
  scopes?: string[] | null;
  expiresAt?: Date | null;
  /** A token chosen by the operator (BOOTSTRAP_ADMIN_TOKEN); otherwise one is generated. */
  token?: string;
}

/** Creates a token and returns its secret, which is never stored and cannot be shown again. */
export async function createApiToken(
  db: Db,
  clock: Clock,
  input: NewTokenInput,
): Promise<{ id: string; token: string }> {
  const token = input.token ?? generateToken();
  const id = newId();
  await db
    .insertInto('api_tokens')
    .values({
      id,
      user_id: input.userId,
      token_hash: hashToken(token),
      label: input.label ?? '',
      scopes: input.scopes && input.scopes.length > 0 ? input.scopes : null,
      created_at: clock.now(),
      expires_at: input.expiresAt ?? null,
    })
    .execute();
  return { id, token };
}

/** Revokes a token given its id or its secret; returns the id, or undefined when no live token matched. */
export async function revokeApiToken(db: Db, clock: Clock, idOrToken: string): Promise<string | undefined> {
  const revoked = await db
    .updateTable('api_tokens')
    .set({ revoked_at: clock.now() })
    .where((eb) => eb.or([eb('id', '=', idOrToken), eb('token_hash', '=', hashToken(idOrToken))]))
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return revoked?.id;
}

export async function listApiTokens(db: Db, userId: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'scopes', 'created_at', 'expires_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
