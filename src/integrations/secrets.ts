import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { KeyringError, type Keyring } from '../core/keyring.js';

/**
 * An integration's secrets are sealed with the keyring, each bound to its
 * integration and name: a sealed value copied to another row does not open.
 */
const secretContext = (integrationId: string, name: string) => `integration-secret\u0000${integrationId}\u0000${name}`;

export interface SealedSecret {
  name: string;
  sealed: string;
  keyId: string;
}

export function sealSecrets(keyring: Keyring, integrationId: string, secrets: Record<string, string>): SealedSecret[] {
  return Object.entries(secrets).map(([name, value]) => ({
    name,
    sealed: keyring.seal(value, secretContext(integrationId, name)),
    keyId: keyring.currentKeyId,
  }));
}

/** Opens one secret; a KeyringError when its key is not in the keyring or it was altered. */
export function openSecret(keyring: Keyring, integrationId: string, name: string, sealed: string): string {
  return keyring.open(sealed, secretContext(integrationId, name));
}

export interface RotationResult {
  /** Secrets now sealed under the current key. */
  rotated: number;
  /** Secrets that could not be opened with any key of the keyring, and why. */
  failed: Array<{ integrationId: string; name: string; reason: string }>;
}

/**
 * Re-seals under the keyring's current key every integration secret sealed
 * under another one, a batch per transaction. A secret that no key of the
 * keyring opens is left as it is and reported.
 */
export async function rotateIntegrationSecrets(
  db: Db,
  keyring: Keyring,
  options: { batchSize: number } = { batchSize: 500 },
): Promise<RotationResult> {
  const result: RotationResult = { rotated: 0, failed: [] };
  let after: { integrationId: string; name: string } | undefined;
  for (;;) {
    const last = await db.transaction().execute(async (tx) => {
      let query = tx
        .selectFrom('integration_secrets')
        .select(['integration_id', 'name', 'sealed'])
        .where('key_id', '<>', keyring.currentKeyId);
      if (after) {
        query = query.where(sql<boolean>`(integration_id, name) > (${after.integrationId}, ${after.name})`);
      }
      // Rows a publish is replacing right now are skipped: it writes them under the current key.
      const rows = await query
        .orderBy('integration_id')
        .orderBy('name')
        .limit(options.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return undefined;
      const resealed: Array<{ integrationId: string; name: string; sealed: string }> = [];
      for (const row of rows) {
        try {
          const plaintext = openSecret(keyring, row.integration_id, row.name, row.sealed);
          resealed.push({
            integrationId: row.integration_id,
            name: row.name,
            sealed: keyring.seal(plaintext, secretContext(row.integration_id, row.name)),
          });
        } catch (error) {
          if (!(error instanceof KeyringError)) throw error;
          result.failed.push({ integrationId: row.integration_id, name: row.name, reason: error.message });
        }
      }
      if (resealed.length > 0) {
        await sql`
          update integration_secrets as s
          set sealed = v.sealed, key_id = ${keyring.currentKeyId}
          from unnest(
            ${resealed.map((secret) => secret.integrationId)}::text[],
            ${resealed.map((secret) => secret.name)}::text[],
            ${resealed.map((secret) => secret.sealed)}::text[]
          ) as v(integration_id, name, sealed)
          where s.integration_id = v.integration_id and s.name = v.name
        `.execute(tx);
      }
      result.rotated += resealed.length;
      const end = rows.at(-1)!;
      return { integrationId: end.integration_id, name: end.name };
    });
    if (!last) return result;
    after = last;
  }
}
