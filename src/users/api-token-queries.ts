import { NotFoundError } from '../core/errors.js';
import type { Db } from '../db/database.js';
import type { ApiTokenRow } from '../db/types.js';
import type { Clock } from '../core/clock.js';
import { newId } from '../core/ids.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { generateToken, hashToken } from '../core/tokens.js';

export interface NewTokenInput {
  userId: string;
  label?: string;
  /** Null or omitted: the token has its user's full rights. */
  scopes?: string[] | null;
  expiresAt?: Date | null;
  /** A token chosen by the operator (BOOTSTRAP_ADMIN_TOKEN); otherwise one is generated. */
  token?: string;
  /** The organization an admin issued the token in: it works only there. */
  organizationId?: string;
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
      organization_id: input.organizationId ?? null,
    })
    .execute();
  return { id, token };
}

/**
 * Revokes a token given its id or its secret, only among `ownerId`'s tokens
 * when given; returns the id, or undefined when no live token matched.
 */
export async function revokeApiToken(
  db: Db,
  clock: Clock,
  idOrToken: string,
  ownerId?: string,
): Promise<string | undefined> {
  let query = db
    .updateTable('api_tokens')
    .set({ revoked_at: clock.now() })
    .where((eb) => eb.or([eb('id', '=', idOrToken), eb('token_hash', '=', hashToken(idOrToken))]))
    // A session's own token ends with its session (accounts/), never through the API.
    .where('kind', '=', 'api')
    .where('revoked_at', 'is', null);
  if (ownerId !== undefined) query = query.where('user_id', '=', ownerId);
  const revoked = await query.returning('id').executeTakeFirst();
  return revoked?.id;
}

export async function listApiTokens(db: Db, userId: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'scopes', 'created_at', 'expires_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'api')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** What a token is shown as: never its hash. Named, never `*`, as a prepared statement's columns must be. */
const TOKEN_FIELDS = ['id', 'label', 'scopes', 'created_at', 'expires_at', 'revoked_at'] as const;
export type ApiTokenFields = Pick<ApiTokenRow, (typeof TOKEN_FIELDS)[number]>;

/** A page of a user's tokens, each row carrying the count of them all. */
export const listApiTokenPage = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, userId: string) =>
  db
    .selectFrom('api_tokens')
    .select(TOKEN_FIELDS)
    .where('user_id', '=', userId)
    .where('kind', '=', 'api')
    .select((eb) =>
      eb
        .selectFrom('api_tokens as c')
        .select((c) => c.fn.countAll<string>().as('n'))
        .where('c.user_id', '=', userId)
        .where('c.kind', '=', 'api')
        .as(TOTAL_COUNT),
    ),
);

export async function countApiTokens(db: Db, userId: string): Promise<number> {
  const { n } = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'api')
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** One of the user's tokens; undefined for another user's, as for an unknown id. */
export async function findApiToken(db: Db, userId: string, tokenId: string): Promise<ApiTokenFields | undefined> {
  return db
    .selectFrom('api_tokens')
    .select(TOKEN_FIELDS)
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'api')
    .executeTakeFirst();
}

/** How many of the user's tokens still authenticate at `now`: neither revoked nor expired. */
export async function countLiveApiTokens(db: Db, userId: string, now: Date): Promise<number> {
  const { n } = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * Locks the user's row until the transaction ends, so that two requests
 * making tokens for one user count their live tokens one after the other.
 * `no key update` leaves alone the rows that only refer to the user.
 */
export async function lockUserForTokens(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirst();
  return row !== undefined;
}

/** The user's membership of the organization (whether it is disabled there), or 404 when they are not a member. */
export async function membershipOrNotFound(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<{ disabled: boolean }> {
  const found = await db
    .selectFrom('organization_members')
    .select('disabled')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!found) throw new NotFoundError('No member with this id in the organization');
  return found;
}

/** How many organizations other than `organizationId` the user belongs to, disabled memberships included. */
export async function countOtherMemberships(db: Db, userId: string, organizationId: string): Promise<number> {
  const { n } = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('organization_id', '<>', organizationId)
    .executeTakeFirstOrThrow();
  return Number(n);
}
