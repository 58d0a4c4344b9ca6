import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { createDatabase, type Db, type DatabaseOptions } from './database.js';

/**
 * Where a read that may lag runs: a streaming replica of the primary, unless
 * that would hide from a caller a write of their own, or show a visitor
 * pages older than a bound; then the primary.
 *
 * - Each instance polls the replica's replay position
 *   (`pg_last_wal_replay_lsn()`) and the primary's WAL position every
 *   `pollMs`: one pair of statements per instance and tick, none per request.
 * - After a caller's acknowledged write, the primary's WAL position is kept
 *   for that caller in Redis (the rate limit's connection), where every
 *   instance reads it: a read of that caller goes to the replica only once
 *   the replica has replayed past it (read-your-writes across instances).
 *   Without Redis there is nowhere all instances see, so callers read the
 *   primary and only visitors read the replica.
 * - A read with no write of its own to wait for (a visitor, or a caller
 *   with none in the last `rememberMs`) goes to the replica while it is at
 *   most `maxLagMs` behind the primary.
 * - A replica that has not answered for a second, or a Redis that fails,
 *   sends reads to the primary.
 */
export interface LagTolerantReads {
  /** The database for a lag-tolerant read of `callerKey` (undefined: a visitor). */
  forCaller(callerKey: string | undefined): Promise<Db>;
  /** After an acknowledged write of `callerKey`: its later reads wait for the replica to replay it. Never throws. */
  wrote(callerKey: string): Promise<void>;
  /** What the routing saw: reads sent to each database, and the replica's state. */
  stats(): { replicaReads: number; primaryReads: number; lagMs: number | null; replicaUp: boolean };
  close(): Promise<void>;
}

export interface ReplicaOptions extends Omit<DatabaseOptions, 'url' | 'logger'> {
  replicaUrl: string;
  primary: Db;
  /** Where callers' WAL positions are kept for every instance; undefined: callers read the primary. */
  redis?: Redis;
  logger: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  pollMs?: number;
  maxLagMs?: number;
  /** How long a caller's write position is kept: past it, the replica has long replayed it. */
  rememberMs?: number;
}

/** A WAL position (`16/B374D848`) as a number; exact below 2^53 bytes of WAL. */
export function lsnValue(lsn: string): number {
  const [high, low] = lsn.split('/');
  return parseInt(high!, 16) * 2 ** 32 + parseInt(low!, 16);
}

/** Raises a caller's kept position, never lowers it (two instances may record out of order), and renews its expiry. */
const RAISE_POSITION = `
local current = redis.call('GET', KEYS[1])
if (not current) or tonumber(current) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

/**
 * How far behind the primary a replica that replayed up to `replayed` is, from
 * the primary's positions read at times (oldest first): 0 when it has replayed
 * the newest one (also while the primary is away: nothing newer exists), else
 * the age of the oldest position it has not replayed. Null with no position read.
 */
export function replicaLagMs(samples: ReadonlyArray<{ at: number; lsn: number }>, replayed: number, now: number) {
  if (samples.length === 0) return null;
  let behindSince: number | undefined;
  for (let i = samples.length - 1; i >= 0 && samples[i]!.lsn > replayed; i--) behindSince = samples[i]!.at;
  return behindSince === undefined ? 0 : now - behindSince;
}

/**
 * Whether a lag-tolerant read may go to the replica: never while its lag is
 * unknown; for a caller with a kept write position, once the replica has
 * replayed it; otherwise (a visitor, a caller with no recent write) while the
 * replica is at most `maxLagMs` behind.
 */
export function readsReplica(state: {
  lagMs: number | null;
  maxLagMs: number;
  replayed: number;
  callerPosition: number | null;
}): boolean {
  // The lag bound holds for everyone: what others wrote (a member removed, a grant revoked) shows within it.
  if (state.lagMs === null || state.lagMs > state.maxLagMs) return false;
  return state.callerPosition === null || state.replayed >= state.callerPosition;
}

const KEY_PREFIX = 'quire-wal:';
/** A replica not heard from in this long is taken as gone. */
const REPLICA_SILENCE_MS = 1_000;

export function createLagTolerantReads(options: ReplicaOptions): LagTolerantReads {
  const { primary, redis, logger } = options;
  const pollMs = options.pollMs ?? 10;
  const maxLagMs = options.maxLagMs ?? 1_000;
  const rememberMs = options.rememberMs ?? 60_000;
  const replica = createDatabase({ ...options, url: options.replicaUrl, logger });

  let replayed = -1;
  let heardAt = 0;
  /** The primary's positions by the time they were read, oldest first, spanning a little more than maxLagMs. */
  const samples: Array<{ at: number; lsn: number }> = [];
  let replicaReads = 0;
  let primaryReads = 0;
  let unrecordedAt = 0;
  let stopped = false;

  const pollReplica = async () => {
    const { rows } = await sql<{
      lsn: string | null;
    }>`select pg_last_wal_replay_lsn()::text as lsn`.execute(replica);
    // null: not a standby (promoted, or a misconfigured URL): nothing it serves lags, but nothing says it follows the primary either.
    if (rows[0]?.lsn) {
      replayed = lsnValue(rows[0].lsn);
      heardAt = Date.now();
    }
  };
  const pollPrimary = async () => {
    const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
    const at = Date.now();
    samples.push({ at, lsn: lsnValue(rows[0]!.lsn) });
    while (samples.length > 2 && samples[1]!.at < at - maxLagMs - 1_000) samples.shift();
  };
  let warned = false;
  const loop = (async () => {
    while (!stopped) {
      const results = await Promise.allSettled([pollReplica(), pollPrimary()]);
      const failed = results.find((result) => result.status === 'rejected');
      if (failed && !warned) {
        warned = true;
        logger.warn(
          { cause: (failed.reason as Error).message },
          'polling the replica or the primary failed; reads go to the primary',
        );
      } else if (!failed) warned = false;
      await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
    }
  })();

  /** How far behind the replica is (replicaLagMs); null while it is not heard from. */
  const lagMs = (): number | null => {
    if (replayed < 0 || Date.now() - heardAt > REPLICA_SILENCE_MS) return null;
    return replicaLagMs(samples, replayed, Date.now());
  };

  const toReplica = (): Db => {
    replicaReads++;
    return replica;
  };
  const toPrimary = (): Db => {
    primaryReads++;
    return primary;
  };

  return {
    async forCaller(callerKey) {
      const lag = lagMs();
      if (lag === null) return toPrimary();
      if (callerKey === undefined)
        return readsReplica({ lagMs: lag, maxLagMs, replayed, callerPosition: null }) ? toReplica() : toPrimary();
      // A write Redis may have missed is on the replica once the replica is within maxLagMs and the write older than that.
      if (!redis || Date.now() - unrecordedAt < maxLagMs + REPLICA_SILENCE_MS) return toPrimary();
      let kept: string | null;
      try {
        kept = await redis.get(KEY_PREFIX + callerKey);
      } catch {
        unrecordedAt = Date.now();
        return toPrimary();
      }
      return readsReplica({ lagMs: lag, maxLagMs, replayed, callerPosition: kept === null ? null : Number(kept) })
        ? toReplica()
        : toPrimary();
    },

    async wrote(callerKey) {
      if (!redis) return;
      try {
        const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
        await redis.eval(RAISE_POSITION, 1, KEY_PREFIX + callerKey, String(lsnValue(rows[0]!.lsn)), String(rememberMs));
      } catch (error) {
        // The write is done and answered; unrecorded, the caller's next reads could miss it: every caller reads the primary for a while.
        unrecordedAt = Date.now();
        logger.warn(
          { cause: (error as Error).message },
          'recording a write’s position failed; callers read the primary',
        );
      }
    },

    stats: () => ({
      replicaReads,
      primaryReads,
      lagMs: lagMs(),
      replicaUp: Date.now() - heardAt <= REPLICA_SILENCE_MS,
    }),

    async close() {
      stopped = true;
      logger.info({ replicaReads, primaryReads }, 'lag-tolerant reads: how many went to the replica and the primary');
      await loop;
      await replica.destroy();
    },
  };
}
