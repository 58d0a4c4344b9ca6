import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { KeyringError, type Keyring } from '../core/keyring.js';
import { unseal } from '../core/sealed.js';

/**
 * A site's secrets at rest: the key that signs its visitor tokens, and the
 * keys of its share links. Each is sealed with the keyring (so that it
 * rotates with ENCRYPTION_KEY), bound to its site or link: a sealed value
 * copied to another row does not open. Values sealed before the keyring
 * (`v1.`, under a key derived from the service secret) still open, until
 * `secrets rotate` moves them to the keyring.
 */
const VISITOR_KEY = 'site-visitor-signing-key';
const SHARE_KEY = 'site-share-link-key';

const visitorKeyContext = (siteId: string) => `${VISITOR_KEY}\u0000${siteId}`;
const shareKeyContext = (linkId: string) => `${SHARE_KEY}\u0000${linkId}`;

/** What opens a site's secrets: the keyring, and the service secret for values sealed before it. */
export interface SiteSecretKeys {
  keyring: Keyring;
  serviceSecret: string;
}

function isLegacy(sealed: string): boolean {
  return sealed.startsWith('v1.');
}

function open(keys: SiteSecretKeys, purpose: string, context: string, sealed: string): string {
  return isLegacy(sealed) ? unseal(keys.serviceSecret, purpose, sealed) : keys.keyring.open(sealed, context);
}

/** A new key for signing a site's visitor tokens (HS256), sealed for storage. */
export function newSealedVisitorKey(keyring: Keyring, siteId: string): string {
  return keyring.seal(randomBytes(32).toString('base64url'), visitorKeyContext(siteId));
}

export function openVisitorKey(keys: SiteSecretKeys, siteId: string, sealed: string): string {
  return open(keys, VISITOR_KEY, visitorKeyContext(siteId), sealed);
}

export function sealShareKey(keyring: Keyring, linkId: string, key: string): string {
  return keyring.seal(key, shareKeyContext(linkId));
}

export function openShareKey(keys: SiteSecretKeys, linkId: string, sealed: string): string {
  return open(keys, SHARE_KEY, shareKeyContext(linkId), sealed);
}

export interface SiteSecretsRotation {
  /** Values now sealed under the keyring's current key. */
  rotated: number;
  /** Values no key opens, left as they are, and why. */
  failed: Array<{ what: string; reason: string }>;
}

/** One kind of sealed value of a site, as the rotation reads and writes it. */
interface SealedColumn {
  table: 'sites' | 'site_share_links';
  column: 'auth_private_key_encrypted' | 'key_encrypted';
  purpose: string;
  context: (id: string) => string;
  describe: (id: string) => string;
}

const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'sites',
    column: 'auth_private_key_encrypted',
    purpose: VISITOR_KEY,
    context: visitorKeyContext,
    describe: (id) => `the visitor key of site ${id}`,
  },
  {
    table: 'site_share_links',
    column: 'key_encrypted',
    purpose: SHARE_KEY,
    context: shareKeyContext,
    describe: (id) => `the key of share link ${id}`,
  },
];

/**
 * Re-seals under the keyring's current key every visitor key and share-link
 * key sealed under another one (or before the keyring), a batch per
 * transaction. A value no key opens is left as it is and reported.
 */
export async function rotateSiteSecrets(
  db: Db,
  keys: SiteSecretKeys,
  options: { batchSize: number } = { batchSize: 500 },
): Promise<SiteSecretsRotation> {
  const result: SiteSecretsRotation = { rotated: 0, failed: [] };
  // The sealed format starts with the key's id: values under the current key are the only ones left alone.
  const current = `k1.${keys.keyring.currentKeyId}.%`;
  for (const sealed of SEALED_COLUMNS) {
    const table = sql.table(sealed.table);
    const column = sql.ref(sealed.column);
    let after = '';
    for (;;) {
      const last = await db.transaction().execute(async (tx) => {
        // Rows being written right now are skipped: a write seals under the current key.
        const { rows } = await sql<{ id: string; organization_id: string; sealed: string }>`
          select id, organization_id, ${column} as sealed from ${table}
          where ${column} not like ${current} and id > ${after}
          order by id limit ${options.batchSize}
          for update skip locked
        `.execute(tx);
        if (rows.length === 0) return undefined;
        const resealed: Array<{ id: string; organizationId: string; sealed: string }> = [];
        for (const row of rows) {
          try {
            const plaintext = open(keys, sealed.purpose, sealed.context(row.id), row.sealed);
            resealed.push({
              id: row.id,
              organizationId: row.organization_id,
              sealed: keys.keyring.seal(plaintext, sealed.context(row.id)),
            });
          } catch (error) {
            if (!(error instanceof KeyringError) && !isLegacy(row.sealed)) throw error;
            result.failed.push({ what: sealed.describe(row.id), reason: (error as Error).message });
          }
        }
        if (resealed.length > 0) {
          await sql`
            update ${table} as t set ${column} = v.sealed
            from unnest(
              ${resealed.map((value) => value.id)}::text[],
              ${resealed.map((value) => value.organizationId)}::text[],
              ${resealed.map((value) => value.sealed)}::text[]
            ) as v(id, organization_id, sealed)
            where t.id = v.id and t.organization_id = v.organization_id
          `.execute(tx);
        }
        result.rotated += resealed.length;
        return rows.at(-1)!.id;
      });
      if (last === undefined) break;
      after = last;
    }
  }
  return result;
}
