import type { Db } from '../../db/database.js';

export interface PublishingAuthRow {
  auth_backend: 'custom' | 'integration';
  auth_fallback_url: string | null;
  auth_logout_url: string | null;
  auth_private_key_encrypted: string;
}

const AUTH_FIELDS = ['auth_backend', 'auth_fallback_url', 'auth_logout_url', 'auth_private_key_encrypted'] as const;

/**
 * Sets how a site's visitors are authenticated. `fallbackUrl` and
 * `logoutUrl`: a new address, null to remove it, undefined to leave it. Undefined when there is no such site.
 */
export async function updatePublishingAuth(
  db: Db,
  organizationId: string,
  siteId: string,
  changes: {
    backend: 'custom' | 'integration';
    fallbackUrl: string | null | undefined;
    logoutUrl: string | null | undefined;
  },
  now: Date,
): Promise<PublishingAuthRow | undefined> {
  return db
    .updateTable('sites')
    .set({
      auth_backend: changes.backend,
      ...(changes.fallbackUrl === undefined ? {} : { auth_fallback_url: changes.fallbackUrl }),
      ...(changes.logoutUrl === undefined ? {} : { auth_logout_url: changes.logoutUrl }),
      updated_at: now,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .returning(AUTH_FIELDS)
    .executeTakeFirst();
}

/** Replaces the sealed key that signs the site's visitor tokens; undefined when there is no such site. */
export async function replaceVisitorKey(
  db: Db,
  organizationId: string,
  siteId: string,
  sealedKey: string,
  now: Date,
): Promise<PublishingAuthRow | undefined> {
  return db
    .updateTable('sites')
    .set({ auth_private_key_encrypted: sealedKey, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .returning(AUTH_FIELDS)
    .executeTakeFirst();
}
