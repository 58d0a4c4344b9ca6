import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import { withoutStatementTimeout, type Db } from '../db/database.js';

/** Our advisory lock for the purge, taken per batch transaction: only one instance purges at a time. */
const PURGE_LOCK = 0x70757267; // "purg"

export interface PurgeOptions {
  retentionMs: number;
  batchSize: number;
}

export interface PurgeResult {
  /** Ids of the spaces removed for good. */
  purged: string[];
  /** True when another instance held the lock, so this run left the work to it. */
  busy: boolean;
}

/**
 * Removes for good the spaces deleted longer ago than the retention, a batch
 * per transaction. What belongs to a space goes with it through its foreign
 * keys (ON DELETE CASCADE).
 */
export async function purgeDeletedSpaces(
  db: Db,
  clock: Clock,
  options: PurgeOptions,
  log?: FastifyBaseLogger,
): Promise<PurgeResult> {
  const purged: string[] = [];
  const cutoff = new Date(clock.now().getTime() - options.retentionMs);
  for (;;) {
    const batch = await db.transaction().execute(async (tx) => {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${PURGE_LOCK}) as locked`.execute(tx);
      if (!rows[0]?.locked) return undefined;
      // A batch's cascade can outlast any request's statement; nobody waits on it.
      await withoutStatementTimeout(tx);
      const expired = await tx
        .selectFrom('spaces')
        .select('id')
        .where('deleted_at', '<=', cutoff)
        .orderBy('deleted_at')
        .limit(options.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (expired.length === 0) return { removed: [], siteSpaces: 0 };
      // Everything else of a space goes with its row (ON DELETE CASCADE); its places on sites are counted for the log.
      const unpublished = await tx
        .deleteFrom('site_spaces')
        .where(
          'space_id',
          'in',
          expired.map((row) => row.id),
        )
        .returning(['site_id'])
        .execute();
      const removed = await tx
        .deleteFrom('spaces')
        .where(
          'id',
          'in',
          expired.map((row) => row.id),
        )
        .returning(['id', 'organization_id', 'deleted_at'])
        .execute();
      return { removed, siteSpaces: unpublished.length };
    });
    if (batch === undefined) return { purged, busy: true };
    // Said once committed: a batch whose commit failed (the primary restarting) is purged again by a later run.
    if (batch.removed.length > 0) {
      log?.info(
        {
          spaces: batch.removed.map((row) => ({
            id: row.id,
            organization: row.organization_id,
            deletedAt: row.deleted_at,
          })),
          siteSpaces: batch.siteSpaces,
        },
        'purged deleted spaces',
      );
    }
    purged.push(...batch.removed.map((row) => row.id));
    if (batch.removed.length < options.batchSize) {
      await removeUnreferencedBlobs(db, clock, log);
      return { purged, busy: false };
    }
  }
}

/** A day's grace keeps bytes a write is about to reference out of reach of the sweep. */
const BLOB_GRACE_MS = 86_400_000;

/**
 * File bytes are shared by content hash, so they do not go with a space's
 * rows: once no file version references them, they are swept here.
 */
async function removeUnreferencedBlobs(db: Db, clock: Clock, log?: FastifyBaseLogger): Promise<void> {
  const removed = await db.transaction().execute(async (tx) => {
    await withoutStatementTimeout(tx);
    return (
      tx
        .deleteFrom('blobs')
        .where('created_at', '<', new Date(clock.now().getTime() - BLOB_GRACE_MS))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('file_versions').select('id').whereRef('file_versions.sha256', '=', 'blobs.sha256'),
            ),
          ),
        )
        // An organization's custom fonts keep their faces' bytes.
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('custom_font_faces')
                .select('weight')
                .whereRef('custom_font_faces.sha256', '=', 'blobs.sha256'),
            ),
          ),
        )
        .executeTakeFirst()
    );
  });
  if (removed.numDeletedRows > 0n)
    log?.info({ blobs: Number(removed.numDeletedRows) }, 'removed file bytes no file references');
}
