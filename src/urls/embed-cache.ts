import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Embed } from './schemas.js';

const keyOf = (url: string) => createHash('sha256').update(url).digest();

/** Expired entries one write clears, so that the table holds about what is still in use. */
const EXPIRED_BATCH = 100;

/** The embed kept for an outside address, while it has not expired. */
export async function findCachedEmbed(db: Db, url: string, now: Date): Promise<Embed | undefined> {
  const row = await db
    .selectFrom('url_embeds')
    .select('embed')
    .where('url_sha256', '=', keyOf(url))
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.embed as Embed | undefined;
}

/** Keeps an outside address's embed until `expiresAt` (replacing what was kept), and clears a batch of expired ones. */
export async function keepEmbed(db: Db, url: string, embed: Embed, now: Date, expiresAt: Date): Promise<void> {
  await db
    .insertInto('url_embeds')
    .values({ url_sha256: keyOf(url), url, embed: JSON.stringify(embed), fetched_at: now, expires_at: expiresAt })
    .onConflict((conflict) =>
      conflict.column('url_sha256').doUpdateSet((excluded) => ({
        embed: excluded.ref('excluded.embed'),
        fetched_at: excluded.ref('excluded.fetched_at'),
        expires_at: excluded.ref('excluded.expires_at'),
      })),
    )
    .execute();
  await db
    .deleteFrom('url_embeds')
    .where('url_sha256', 'in', (expired) =>
      expired
        .selectFrom('url_embeds')
        .select('url_sha256')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(EXPIRED_BATCH),
    )
    .execute();
}
