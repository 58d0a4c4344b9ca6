import type { Db } from '../../src/db/database.js';
import { newId } from '../../src/core/ids.js';
import type { SiteVisibility } from '../../src/db/types.js';
import { Keyring } from '../../src/core/keyring.js';
import { newSealedVisitorKey } from '../../src/sites/secrets.js';
import { testConfig } from './app.js';

/** A site row straight in the database, for tests of parts that do not create sites themselves. */
export async function insertSite(
  db: Db,
  organizationId: string,
  fields: { title?: string; visibility?: SiteVisibility; published?: boolean } = {},
): Promise<{ id: string }> {
  const id = newId();
  const config = testConfig('');
  await db
    .insertInto('sites')
    .values({
      id,
      organization_id: organizationId,
      title: fields.title ?? 'Docs',
      visibility: fields.visibility ?? 'public',
      published: fields.published ?? false,
      // Sealed as the test apps seal: under the key derived from testConfig's SECRET_KEY.
      auth_private_key_encrypted: newSealedVisitorKey(Keyring.fromConfig(config.encryption, config.secretKey!), id),
    })
    .execute();
  return { id };
}
