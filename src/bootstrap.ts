import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import type { Db } from './db/database.js';
import { createOrganization } from './orgs/queries.js';
import { createApiToken } from './users/api-token-queries.js';
import { createUser } from './users/user-queries.js';

export interface BootstrapResult {
  organizationId: string;
  email: string;
  token: string;
}

/** A lock id of our own, so that two instances starting together bootstrap once. */
const BOOTSTRAP_LOCK = 0x71756972; // "quir"

/**
 * On the first start against an empty database, creates an organization, its
 * admin user and a token, so the service is usable without SQL. Returns
 * undefined when the database already has users.
 */
export async function bootstrapFirstStart(
  db: Db,
  clock: Clock,
  settings: Config['bootstrap'],
): Promise<BootstrapResult | undefined> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`.execute(tx);
    const existing = await tx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return undefined;
    const admin = await createUser(tx, clock, {
      email: settings.adminEmail,
      displayName: 'Administrator',
      // The operator set this address: it counts as proven.
      emailVerified: true,
    });
    const organization = await createOrganization(tx, clock, { title: settings.organizationTitle }, admin.id);
    const { token } = await createApiToken(tx, clock, {
      userId: admin.id,
      label: 'bootstrap admin token',
      ...(settings.adminToken ? { token: settings.adminToken } : {}),
    });
    return { organizationId: organization.id, email: admin.email, token };
  });
}
