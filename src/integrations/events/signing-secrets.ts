import { KeyringError, type Keyring } from '../../core/keyring.js';
import type { Db } from '../../db/database.js';
import { newSigningSecret } from './signature.js';

/**
 * An integration's signing secret and a webhook's, sealed with the keyring and
 * bound to their row: a sealed value copied to another row does not open.
 */
export const integrationSecretContext = (integrationId: string) => `integration-signing\u0000${integrationId}`;
export const webhookSecretContext = (webhookId: string) => `webhook-signing\u0000${webhookId}`;

/** Replaces the integration's signing secret with a new one and answers it: the only time it is shown. */
export async function rotateIntegrationSigningSecret(
  db: Db,
  keyring: Keyring,
  organizationId: string,
  integrationId: string,
): Promise<string> {
  const secret = newSigningSecret();
  await db
    .updateTable('integrations')
    .set({
      signing_secret_sealed: keyring.seal(secret, integrationSecretContext(integrationId)),
      signing_secret_key_id: keyring.currentKeyId,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', integrationId)
    .execute();
  return secret;
}

/**
 * The secret the integration's deliveries are signed with. One that never had
 * one gets one now (its publisher reads it by rotating it); of two workers
 * doing so at once, the first one's stays.
 */
export async function integrationSigningSecret(db: Db, keyring: Keyring, integrationId: string): Promise<string> {
  const row = await db
    .selectFrom('integrations')
    .select('signing_secret_sealed')
    .where('id', '=', integrationId)
    .executeTakeFirst();
  if (row?.signing_secret_sealed)
    return keyring.open(row.signing_secret_sealed, integrationSecretContext(integrationId));
  await db
    .updateTable('integrations')
    .set({
      signing_secret_sealed: keyring.seal(newSigningSecret(), integrationSecretContext(integrationId)),
      signing_secret_key_id: keyring.currentKeyId,
    })
    .where('id', '=', integrationId)
    .where('signing_secret_sealed', 'is', null)
    .execute();
  const made = await db
    .selectFrom('integrations')
    .select('signing_secret_sealed')
    .where('id', '=', integrationId)
    .executeTakeFirstOrThrow();
  return keyring.open(made.signing_secret_sealed!, integrationSecretContext(integrationId));
}

export async function webhookSigningSecret(db: Db, keyring: Keyring, webhookId: string): Promise<string> {
  const row = await db
    .selectFrom('webhooks')
    .select('secret_sealed')
    .where('id', '=', webhookId)
    .executeTakeFirstOrThrow();
  return keyring.open(row.secret_sealed, webhookSecretContext(webhookId));
}

export interface SigningRotationResult {
  rotated: number;
  /** Secrets no key of the keyring opens, left as they are. */
  failed: Array<{ what: string; reason: string }>;
}

/**
 * Re-seals under the keyring's current key every integration signing secret
 * and webhook secret sealed under another one, a batch per transaction, the
 * rows locked (and rows another rotation holds skipped) as they are rewritten.
 */
export async function rotateEventSigningSecrets(
  db: Db,
  keyring: Keyring,
  options: { batchSize: number } = { batchSize: 500 },
): Promise<SigningRotationResult> {
  const result: SigningRotationResult = { rotated: 0, failed: [] };
  const failedIds = new Set<string>();
  const reseal = (sealed: string, context: string, what: string): string | undefined => {
    try {
      return keyring.seal(keyring.open(sealed, context), context);
    } catch (error) {
      if (!(error instanceof KeyringError)) throw error;
      result.failed.push({ what, reason: error.message });
      return undefined;
    }
  };
  for (;;) {
    const done = await db.transaction().execute(async (tx) => {
      const rows = await tx
        .selectFrom('integrations')
        .select(['id', 'signing_secret_sealed'])
        .where('signing_secret_key_id', '<>', keyring.currentKeyId)
        .where('id', 'not in', failedIds.size > 0 ? [...failedIds] : [''])
        .limit(options.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      for (const row of rows) {
        const sealed = reseal(row.signing_secret_sealed!, integrationSecretContext(row.id), `integration ${row.id}`);
        if (sealed === undefined) {
          failedIds.add(row.id);
          continue;
        }
        await tx
          .updateTable('integrations')
          .set({ signing_secret_sealed: sealed, signing_secret_key_id: keyring.currentKeyId })
          .where('id', '=', row.id)
          .execute();
        result.rotated += 1;
      }
      return rows.length === 0;
    });
    if (done) break;
  }
  for (;;) {
    const done = await db.transaction().execute(async (tx) => {
      const rows = await tx
        .selectFrom('webhooks')
        .select(['id', 'organization_id', 'secret_sealed'])
        .where('secret_key_id', '<>', keyring.currentKeyId)
        .where('id', 'not in', failedIds.size > 0 ? [...failedIds] : [''])
        .limit(options.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      for (const row of rows) {
        const sealed = reseal(row.secret_sealed, webhookSecretContext(row.id), `webhook ${row.id}`);
        if (sealed === undefined) {
          failedIds.add(row.id);
          continue;
        }
        await tx
          .updateTable('webhooks')
          .set({ secret_sealed: sealed, secret_key_id: keyring.currentKeyId })
          .where('organization_id', '=', row.organization_id)
          .where('id', '=', row.id)
          .execute();
        result.rotated += 1;
      }
      return rows.length === 0;
    });
    if (done) break;
  }
  return result;
}
