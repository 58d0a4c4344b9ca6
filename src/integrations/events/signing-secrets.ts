import type { Keyring } from '../../core/keyring.js';
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
