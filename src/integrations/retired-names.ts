import { ConflictError } from '../core/errors.js';
import type { Db } from '../db/database.js';
import { lockName } from '../db/name-locks.js';

/**
 * An integration's name never changes owner: once its organization
 * unpublishes it, the name stays theirs (retired_integration_names), so that
 * no other organization publishes under the name others install it by and
 * its links point to. These run inside the publish's or unpublish's
 * transaction, under a transaction lock on the name, so that a publish
 * racing an unpublish waits for it and then sees the name retired.
 */
export async function claimIntegrationName(tx: Db, organizationId: string, name: string): Promise<void> {
  await lockName(tx, 'integration-name', name);
  const retired = await tx
    .selectFrom('retired_integration_names')
    .select('organization_id')
    .where('name', '=', name)
    .executeTakeFirst();
  if (!retired) return;
  if (retired.organization_id !== organizationId) {
    throw new ConflictError(`The integration name "${name}" was another organization’s`);
  }
  await tx
    .deleteFrom('retired_integration_names')
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .execute();
}

/** Keeps the name of an integration being unpublished as its organization's. */
export async function retireIntegrationName(tx: Db, organizationId: string, name: string, now: Date): Promise<void> {
  await lockName(tx, 'integration-name', name);
  await tx
    .insertInto('retired_integration_names')
    .values({ organization_id: organizationId, name, retired_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
