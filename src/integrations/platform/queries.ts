import type { Db } from '../../db/database.js';

/**
 * A new installation token, stored as its hash. The integration's expired
 * tokens go at the same time: its publisher is who makes them, so they never
 * pile up beyond an hour's worth past its last one.
 */
export async function insertInstallationToken(
  db: Db,
  values: {
    id: string;
    organization_id: string;
    installation_id: string;
    integration_id: string;
    token_hash: Buffer;
    scopes: string[];
    created_by: string;
    created_at: Date;
    expires_at: Date;
  },
): Promise<void> {
  await db
    .deleteFrom('integration_installation_tokens')
    .where('integration_id', '=', values.integration_id)
    .where('expires_at', '<=', values.created_at)
    .execute();
  await db.insertInto('integration_installation_tokens').values(values).execute();
}

/** Sets or clears (null) the integration's development tunnel; false when the integration is gone. */
export async function setDevelopmentTunnel(
  db: Db,
  organizationId: string,
  integrationId: string,
  tunnel: { url: string; all: boolean } | null,
): Promise<boolean> {
  const result = await db
    .updateTable('integrations')
    .set({ dev_tunnel_url: tunnel?.url ?? null, dev_all_organizations: tunnel?.all ?? false })
    .where('organization_id', '=', organizationId)
    .where('id', '=', integrationId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface IntegrationEndpoint {
  id: string;
  organization_id: string;
  endpoint_url: string | null;
  dev_tunnel_url: string | null;
  dev_all_organizations: boolean;
}

/** Where an integration's requests go: its endpoint and its development tunnel. */
export async function findIntegrationEndpoint(db: Db, integrationId: string): Promise<IntegrationEndpoint | undefined> {
  return db
    .selectFrom('integrations')
    .select(['id', 'organization_id', 'endpoint_url', 'dev_tunnel_url', 'dev_all_organizations'])
    .where('id', '=', integrationId)
    .executeTakeFirst();
}
