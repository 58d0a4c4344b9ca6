import { sql } from 'kysely';
import { KeyringError, type Keyring } from '../core/keyring.js';
import type { Db } from '../db/database.js';

/**
 * The ID token a session opened through the OpenID Connect provider keeps, to
 * hand back as `id_token_hint` when the person signs out: sealed with the
 * keyring and bound to its session, so that a sealed token copied onto
 * another session does not open there.
 */
const hintContext = (sessionId: string) => `app-session-id-token\u0000${sessionId}`;

/** The longest ID token kept (app_sessions holds a sealed one of up to 16 KiB): a longer one is not, and its sign-out goes without. */
const MAX_KEPT_ID_TOKEN = 8192;

/** The ID token sealed to its session, or undefined for one too long to keep. */
export function sealIdTokenHint(keyring: Keyring, sessionId: string, idToken: string): string | undefined {
  return idToken.length <= MAX_KEPT_ID_TOKEN ? keyring.seal(idToken, hintContext(sessionId)) : undefined;
}

/** The session's ID token, or undefined where none was kept or no key of the keyring opens it: the sign-out goes on without it. */
export function openIdTokenHint(
  keyring: Keyring,
  sessionId: string,
  sealed: string | null | undefined,
): string | undefined {
  if (!sealed) return undefined;
  try {
    return keyring.open(sealed, hintContext(sessionId));
  } catch (error) {
    if (error instanceof KeyringError) return undefined;
    throw error;
  }
}

export interface IdTokenHintRotation {
  rotated: number;
  /** Hints no key of the keyring opens: dropped, as a sign-out needs none. */
  dropped: number;
}

/**
 * Re-seals under the keyring's current key every kept ID token sealed under
 * another one, a batch per transaction, skipping rows another writer holds.
 */
export async function rotateIdTokenHints(
  db: Db,
  keyring: Keyring,
  options: { batchSize: number } = { batchSize: 500 },
): Promise<IdTokenHintRotation> {
  const result: IdTokenHintRotation = { rotated: 0, dropped: 0 };
  // The sealed format starts with the key's id: values under the current key are the only ones left alone.
  const current = `k1.${keyring.currentKeyId}.%`;
  let after: Buffer = Buffer.alloc(0);
  for (;;) {
    const last = await db.transaction().execute(async (tx) => {
      const rows = await tx
        .selectFrom('app_sessions')
        .select(['id_hash', 'id', 'provider_id_token_sealed'])
        .where('provider_id_token_sealed', 'is not', null)
        .where('provider_id_token_sealed', 'not like', current)
        .where('id_hash', '>', after)
        .orderBy('id_hash')
        .limit(options.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return undefined;
      const resealed = rows.map((row) => {
        const idToken = openIdTokenHint(keyring, row.id, row.provider_id_token_sealed);
        return { idHash: row.id_hash, sealed: idToken && sealIdTokenHint(keyring, row.id, idToken) };
      });
      await sql`
        update app_sessions as s set provider_id_token_sealed = v.sealed
        from unnest(${resealed.map((row) => row.idHash)}::bytea[], ${resealed.map((row) => row.sealed ?? null)}::text[])
          as v(id_hash, sealed)
        where s.id_hash = v.id_hash
      `.execute(tx);
      for (const row of resealed) {
        if (row.sealed) result.rotated += 1;
        else result.dropped += 1;
      }
      return rows.at(-1)!.id_hash;
    });
    if (!last) return result;
    after = last;
  }
}
