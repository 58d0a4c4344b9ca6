import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

const SETTING = 'service_secret';

/**
 * The key that signs page cursors. SECRET_KEY when set; otherwise one secret
 * generated on first start and kept in the database, so every instance on the
 * same database agrees on it.
 */
export async function loadServiceSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('service_settings')
    .values({ key: SETTING, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('key', '=', SETTING)
    .executeTakeFirstOrThrow();
  return row.value;
}
