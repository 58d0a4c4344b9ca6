import type { Db } from '../../db/database.js';
import { pageQuery, TOTAL_COUNT } from '../../core/pagination.js';
import { secretHash } from '../../core/sealed.js';

export interface ShareLinkRow {
  id: string;
  name: string;
  active: boolean;
  key_encrypted: string;
  created_at: Date;
}

const SHARE_LINK_FIELDS = ['id', 'name', 'active', 'key_encrypted', 'created_at'] as const;

/** A page of a site's share links, each row carrying the total count. */
export const listShareLinks = pageQuery(
  { createdAt: 'created_at', id: 'id' },
  (db, organizationId: string, siteId: string) =>
    db
      .selectFrom('site_share_links')
      .select(SHARE_LINK_FIELDS)
      .where('organization_id', '=', organizationId)
      .where('site_id', '=', siteId)
      .select((eb) =>
        eb
          .selectFrom('site_share_links as c')
          .select((c) => c.fn.countAll<string>().as('n'))
          .where('c.organization_id', '=', organizationId)
          .where('c.site_id', '=', siteId)
          .as(TOTAL_COUNT),
      ),
);

/**
 * A page of the share links whose name holds the search (an ILIKE pattern),
 * or whose key is the one searched for (by its hash), with their count.
 */
export const listShareLinksMatching = pageQuery(
  { createdAt: 'created_at', id: 'id' },
  (db, organizationId: string, siteId: string, pattern: string, keyHash: Buffer) => {
    const matching = db
      .selectFrom('site_share_links')
      .where('organization_id', '=', organizationId)
      .where('site_id', '=', siteId)
      .where((eb) => eb.or([eb('name', 'ilike', pattern), eb('key_hash', '=', keyHash)]));
    return matching
      .select(SHARE_LINK_FIELDS)
      .select(() => matching.select((eb) => eb.fn.countAll<string>().as('n')).as(TOTAL_COUNT));
  },
);

export async function countShareLinks(db: Db, organizationId: string, siteId: string): Promise<number> {
  const { n } = await db
    .selectFrom('site_share_links')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertShareLink(
  db: Db,
  organizationId: string,
  link: { id: string; siteId: string; name: string; keyHash: Buffer; keyEncrypted: string },
  now: Date,
): Promise<ShareLinkRow> {
  return db
    .insertInto('site_share_links')
    .values({
      id: link.id,
      organization_id: organizationId,
      site_id: link.siteId,
      name: link.name,
      key_hash: link.keyHash,
      key_encrypted: link.keyEncrypted,
      created_at: now,
    })
    .returning(SHARE_LINK_FIELDS)
    .executeTakeFirstOrThrow();
}

/** Renames a share link or turns it on or off; undefined when the site has no such link. */
export async function updateShareLink(
  db: Db,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  changes: { name?: string; active?: boolean },
): Promise<ShareLinkRow | undefined> {
  return db
    .updateTable('site_share_links')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('id', '=', shareLinkId)
    .returning(SHARE_LINK_FIELDS)
    .executeTakeFirst();
}

/** Deletes a share link; false when the site had no such link. */
export async function deleteShareLink(
  db: Db,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('site_share_links')
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('id', '=', shareLinkId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Whether `key` is the key of an active share link of the site; looked up by its hash, never by the key itself. */
export async function activeShareLinkExists(
  db: Db,
  organizationId: string,
  siteId: string,
  key: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('site_share_links')
    .select('id')
    .where('key_hash', '=', secretHash(key))
    .where('organization_id', '=', organizationId)
    .where('site_id', '=', siteId)
    .where('active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}
