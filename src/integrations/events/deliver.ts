import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../../core/errors.js';
import { OutboundError } from '../../core/outbound.js';
import { startPollLoop, type PollLoop } from '../../core/poll-loop.js';
import type { Context } from '../../context.js';
import { fanOutEvents } from './fan-out.js';
import { signRequest } from './signature.js';
import { integrationSigningSecret, webhookSigningSecret } from './signing-secrets.js';

export interface DeliveryOptions {
  /** How long an endpoint has to answer; the lease on a delivery outlasts it. */
  timeoutMs: number;
  /** The first retry's wait; each next one doubles it, up to `maxBackoffMs`, each with jitter. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Deliveries sent at once by one turn (each to a different stream). */
  batchSize: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  timeoutMs: 10_000,
  backoffMs: 10_000,
  maxBackoffMs: 60 * 60 * 1000,
  batchSize: 20,
};

/** How long a delivered or failed delivery is kept, to be read and redelivered. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_BATCH = 1000;

/** An answer's body read, at most: only its status counts. */
const MAX_ANSWER_BYTES = 16 * 1024;

interface Claimed {
  seq: string;
  id: string;
  integration_id: string | null;
  webhook_id: string | null;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  give_up_at: Date;
  lease_expires_at: Date;
}

/**
 * Claims due deliveries, each the oldest pending one of its stream (an
 * endpoint's deliveries about one space go one at a time, in order), under a
 * lease: the other instances skip them while it runs, and take them again if
 * this one stops before recording the answer.
 */
async function claimDue(context: Context, options: DeliveryOptions): Promise<Claimed[]> {
  const now = context.clock.now();
  const lease = new Date(now.getTime() + options.timeoutMs + 30_000);
  const { rows } = await sql<Claimed>`
    with due as (
      select d.seq from event_deliveries d
      where d.status = 'pending' and d.next_attempt_at <= ${now}
        and (d.lease_expires_at is null or d.lease_expires_at <= ${now})
        and not exists (
          select 1 from event_deliveries e
          where e.stream = d.stream and e.status = 'pending' and e.seq < d.seq
        )
      order by d.next_attempt_at, d.seq
      limit ${options.batchSize}
      for update skip locked
    )
    update event_deliveries d set lease_expires_at = ${lease}
    from due where d.seq = due.seq
    returning d.seq, d.id, d.integration_id, d.webhook_id, d.url, d.payload, d.attempts, d.give_up_at, d.lease_expires_at
  `.execute(context.db);
  return rows;
}

/** The wait before attempt `attempts + 1`: doubling, capped, between half and all of it (jitter). */
export function backoffAfter(attempts: number, options: DeliveryOptions, random = Math.random): number {
  const full = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

interface Outcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

async function send(context: Context, delivery: Claimed, options: DeliveryOptions): Promise<Outcome> {
  const secret = delivery.webhook_id
    ? await webhookSigningSecret(context.db, context.keyring, delivery.webhook_id)
    : await integrationSigningSecret(context.db, context.keyring, delivery.integration_id!);
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(context.clock.now().getTime() / 1000);
  try {
    const answer = await context.outbound.request(delivery.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signRequest(secret, body, timestamp) },
      body: Buffer.from(body, 'utf8'),
      maxBytes: MAX_ANSWER_BYTES,
      timeoutMs: options.timeoutMs,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return { ok, status: answer.status, error: ok ? null : `The endpoint answered ${answer.status}` };
  } catch (error) {
    if (error instanceof OutboundError) return { ok: false, status: null, error: error.message.slice(0, 1000) };
    throw error;
  }
}

/** Records an attempt, if the lease is still this worker's: success, a retry later, or failed after a day. */
async function record(context: Context, delivery: Claimed, outcome: Outcome, options: DeliveryOptions) {
  const now = context.clock.now();
  const attempts = delivery.attempts + 1;
  const next = new Date(now.getTime() + backoffAfter(attempts, options));
  const status = outcome.ok ? 'success' : next > delivery.give_up_at ? 'failed' : 'pending';
  await context.db
    .updateTable('event_deliveries')
    .set({
      status,
      attempts,
      last_attempt_at: now,
      last_status: outcome.status,
      last_error: outcome.error,
      delivered_at: outcome.ok ? now : null,
      next_attempt_at: status === 'pending' ? next : now,
      lease_expires_at: null,
    })
    .where('seq', '=', delivery.seq)
    .where('lease_expires_at', '=', delivery.lease_expires_at)
    .execute();
}

const RECORD_RETRIES = 12;

/**
 * Records the attempt, again while the database is out of reach (a primary's
 * restart takes a second or so) and the lease is still this worker's: an
 * answer left unrecorded is sent again by whoever takes the lease next, and
 * the endpoint then receives the event twice.
 */
async function recordWhileLeased(context: Context, delivery: Claimed, outcome: Outcome, options: DeliveryOptions) {
  let waitMs = 200;
  for (let attempt = 1; ; attempt++) {
    try {
      return await record(context, delivery, outcome, options);
    } catch (error) {
      const leaseLeftMs = delivery.lease_expires_at.getTime() - context.clock.now().getTime();
      if (!isDatabaseUnavailable(error) || attempt >= RECORD_RETRIES || leaseLeftMs <= waitMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      waitMs = Math.min(waitMs * 2, 2_000);
    }
  }
}

/** Removes a batch of deliveries finished before the retention; answers how many. */
export async function pruneDeliveries(context: Context): Promise<number> {
  const before = new Date(context.clock.now().getTime() - DELIVERY_RETENTION_MS);
  const result = await context.db
    .deleteFrom('event_deliveries')
    .where('seq', 'in', (eb) =>
      eb
        .selectFrom('event_deliveries')
        .select('seq')
        .where('status', '<>', 'pending')
        .where('created_at', '<', before)
        .orderBy('created_at')
        .limit(PRUNE_BATCH),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * One turn of the worker: fans the outbox out, then sends what is due;
 * when there was nothing to do, removes deliveries past their retention.
 * Answers whether it did anything (the loop looks again at once if so).
 */
export async function runEventDeliveries(
  context: Context,
  options: DeliveryOptions = DEFAULT_DELIVERY_OPTIONS,
): Promise<boolean> {
  const fanned = await fanOutEvents(context.db);
  const due = await claimDue(context, options);
  await Promise.all(
    due.map(async (delivery) => {
      let outcome: Outcome;
      try {
        outcome = await send(context, delivery, options);
      } catch (error) {
        // The service's own failure (a secret that no key opens): retried as a refusal would be, and logged.
        context.log.error({ err: error, deliveryId: delivery.id }, 'sending an event failed');
        outcome = { ok: false, status: null, error: 'The delivery failed on the service; it was logged' };
      }
      await recordWhileLeased(context, delivery, outcome, options);
    }),
  );
  if (fanned > 0 || due.length > 0) return true;
  // Idle: old deliveries go, a batch a turn.
  return (await pruneDeliveries(context)) > 0;
}

export function startEventDeliveryWorker(
  context: Context,
  log: FastifyBaseLogger,
  pollIntervalMs: number,
  options: DeliveryOptions = DEFAULT_DELIVERY_OPTIONS,
): PollLoop {
  return startPollLoop({
    next: () => runEventDeliveries(context, options),
    idleMs: pollIntervalMs,
    log,
    what: 'delivering events',
  });
}
