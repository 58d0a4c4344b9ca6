import { sql } from 'kysely';
import { ApiError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Db } from '../../db/database.js';
import type { Context } from '../../context.js';

/** IMPORT_MAX_RUNNING_PER_ORGANIZATION and IMPORT_MAX_RUNNING when the configuration names none. */
const DEFAULT_SLOTS = { perOrganization: 2, total: 8 };

/** Beyond the crawl's own time limit: its pages' parsing and the write of its revision. */
const LEASE_MARGIN_MS = 120_000;

/** Serializes the taking of slots across instances, for the length of one short transaction. */
const LEASE_LOCK_KEY = 'quire:import-leases';

interface Holder {
  organizationId: string;
  spaceId: string;
  userId: string;
}

function busy(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, `${message}; retry after the time in Retry-After`, {
    'retry-after': String(retryAfterSeconds),
  });
}

/**
 * Takes a slot, or refuses with 429: in one short transaction, under a
 * transaction-scoped advisory lock (so that two instances cannot both take the
 * last slot), live leases are counted and one is added. Nothing is held while
 * the import runs: the row is the slot.
 */
async function takeSlot(context: Context, holder: Holder, now: Date): Promise<string> {
  const slots = context.config.importSlots ?? DEFAULT_SLOTS;
  const leaseMs = context.config.importLimits.timeoutMs + LEASE_MARGIN_MS;
  return context.db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${LEASE_LOCK_KEY}))`.execute(tx);
    await tx.deleteFrom('import_leases').where('expires_at', '<=', now).execute();
    const live = await countLiveLeases(tx, holder.organizationId);
    // A running import ends by its crawl's time limit (and its lease at the latest): a retry then finds room.
    const crawlSeconds = Math.ceil(context.config.importLimits.timeoutMs / 1000);
    const leaseSeconds = Math.ceil(((live.soonestEnd ?? Infinity) - now.getTime()) / 1000);
    const retryAfter = Math.max(1, Math.min(crawlSeconds, leaseSeconds));
    if (live.inOrganization >= slots.perOrganization) {
      throw busy(
        `This organization already runs ${live.inOrganization} imports, as many as it may at once ` +
          `(IMPORT_MAX_RUNNING_PER_ORGANIZATION)`,
        retryAfter,
      );
    }
    if (live.total >= slots.total) {
      throw busy(
        `This service already runs ${live.total} imports, as many as it may at once (IMPORT_MAX_RUNNING)`,
        retryAfter,
      );
    }
    const id = newId();
    await tx
      .insertInto('import_leases')
      .values({
        id,
        organization_id: holder.organizationId,
        space_id: holder.spaceId,
        user_id: holder.userId,
        started_at: now,
        expires_at: new Date(now.getTime() + leaseMs),
      })
      .execute();
    return id;
  });
}

/** The leases counting now: the organization's, all, and when the soonest of the organization's will have ended. */
async function countLiveLeases(tx: Db, organizationId: string) {
  const row = await tx
    .selectFrom('import_leases')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      eb.fn.countAll<string>().filterWhere('organization_id', '=', organizationId).as('inOrganization'),
      eb.fn.min('expires_at').filterWhere('organization_id', '=', organizationId).as('soonestEnd'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    inOrganization: Number(row.inOrganization),
    soonestEnd: row.soonestEnd === null ? undefined : new Date(row.soonestEnd).getTime(),
  };
}

/**
 * Runs an import in one of its organization's slots, ending the lease
 * however the import ends. A slot that cannot be taken is a 429 with
 * Retry-After, before anything is fetched.
 */
export async function inImportSlot<T>(context: Context, holder: Holder, work: () => Promise<T>): Promise<T> {
  const leaseId = await takeSlot(context, holder, context.clock.now());
  try {
    return await work();
  } finally {
    await context.db
      .deleteFrom('import_leases')
      .where('organization_id', '=', holder.organizationId)
      .where('id', '=', leaseId)
      .execute();
  }
}
