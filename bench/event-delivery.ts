/**
 * Events delivered to a webhook on 127.0.0.1 that verifies every signature,
 * with the delivery worker running as an instance runs it:
 *
 * - lag under a write load: EVENT_WRITERS clients each merging change
 *   requests into a space of their own, back to back, for EVENT_MERGES merges
 *   in all; each merge's `change_request_merged` event is timed from the
 *   merge's answer to its arrival;
 * - throughput: a backlog of EVENT_BACKLOG events over 20 spaces written at
 *   once, then drained, timed from the worker's start to the last arrival.
 *
 * Runs within `npm run bench`, or alone: `npx tsx bench/event-delivery.ts`
 * (with TEST_DATABASE_URL or BENCH_DATABASE_URL, else embedded PostgreSQL).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { recordEvent } from '../src/events/record.js';
import { startEventDeliveryWorker } from '../src/integrations/events/deliver.js';
import { verifySignature } from '../src/integrations/events/signature.js';
import { median } from './step-table.js';

export const EVENT_BENCH_NAME = 'Event delivery';
const WRITERS = Number(process.env.EVENT_WRITERS ?? 8);
const MERGES = Number(process.env.EVENT_MERGES ?? 200);
const BACKLOG = Number(process.env.EVENT_BACKLOG ?? 5000);
const BACKLOG_SPACES = 20;
/** How often an idle worker looks, as GIT_SYNC_POLL_INTERVAL_MS sets it for a server. */
const POLL_MS = 100;

export interface EventMeasurement {
  merges: number;
  mergeSeconds: number;
  lagMs: number[];
  backlog: number;
  drainMs: number;
  badSignatures: number;
  duplicates: number;
}

const percentile = (values: readonly number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

/** A webhook receiver: arrival time of each event by id, and what did not verify. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const byChangeRequest = new Map<string, number>();
  let secret = '';
  let bad = 0;
  let duplicates = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = String(request.headers['x-gitbook-signature'] ?? '');
      if (!verifySignature(secret, raw, header, Math.floor(Date.now() / 1000))) {
        bad += 1;
        response.writeHead(401).end();
        return;
      }
      const body = JSON.parse(raw) as { eventId: string; changeRequestId?: string };
      const now = performance.now();
      if (arrivals.has(body.eventId)) duplicates += 1;
      arrivals.set(body.eventId, now);
      if (body.changeRequestId) byChangeRequest.set(body.changeRequestId, now);
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    byChangeRequest,
    setSecret: (value: string) => (secret = value),
    counts: () => ({ bad, duplicates }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function measureEventDelivery(
  app: FastifyInstance,
  base: string,
  authorization: string,
  organizationId: string,
  log: (message: string) => void,
): Promise<EventMeasurement> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/v1${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
  const receiver = await startReceiver();
  const worker = startEventDeliveryWorker(app.context, app.log, POLL_MS);
  try {
    const hook = await call('POST', `/orgs/${organizationId}/webhooks`, {
      url: receiver.url,
      events: ['change_request_merged', 'space_content_updated'],
    });
    receiver.setSecret(hook.secret as string);

    log(`${EVENT_BENCH_NAME}: ${WRITERS} writers merging ${MERGES} change requests`);
    const lagMs: number[] = [];
    const merged = new Map<string, number>();
    const mergeStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        const space = await call('POST', `/orgs/${organizationId}/spaces`, { title: `Events ${writer}` });
        const spaceId = space.id as string;
        while (next < MERGES) {
          const n = next++;
          const changeRequest = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `Edit ${n}` });
          const id = changeRequest.id as string;
          await call('POST', `/spaces/${spaceId}/change-requests/${id}/content?compat=false`, {
            changes: [{ operation: 'insert_page', title: `Page ${n}`, document: { markdown: `Text ${n}` } }],
          });
          await call('POST', `/spaces/${spaceId}/change-requests/${id}/merge`);
          merged.set(id, performance.now());
        }
      }),
    );
    const mergeSeconds = (performance.now() - mergeStart) / 1000;
    await until(() => receiver.byChangeRequest.size >= MERGES, 120_000, 'every merge’s event arriving');
    for (const [id, at] of merged) lagMs.push(receiver.byChangeRequest.get(id)! - at);

    log(`${EVENT_BENCH_NAME}: a backlog of ${BACKLOG} events over ${BACKLOG_SPACES} spaces`);
    await worker.stop();
    const spaces = await Promise.all(
      Array.from({ length: BACKLOG_SPACES }, async (_, n) => {
        const space = await call('POST', `/orgs/${organizationId}/spaces`, { title: `Backlog ${n}` });
        return space.id as string;
      }),
    );
    const before = receiver.arrivals.size;
    const now = new Date();
    for (let at = 0; at < BACKLOG; at += 500) {
      await app.context.db.transaction().execute(async (tx) => {
        for (let n = at; n < Math.min(BACKLOG, at + 500); n++) {
          await recordEvent(tx, {
            organizationId,
            type: 'change_request_merged',
            spaceId: spaces[n % BACKLOG_SPACES],
            fields: { changeRequestId: `backlog-${n}`, revisionId: 'r', mergedBy: null },
            at: now,
          });
        }
      });
    }
    const drainStart = performance.now();
    const drainer = startEventDeliveryWorker(app.context, app.log, POLL_MS);
    try {
      await until(() => receiver.arrivals.size >= before + BACKLOG, 600_000, 'the backlog draining');
    } finally {
      await drainer.stop();
    }
    const drainMs = performance.now() - drainStart;
    const { bad, duplicates } = receiver.counts();
    return { merges: MERGES, mergeSeconds, lagMs, backlog: BACKLOG, drainMs, badSignatures: bad, duplicates };
  } finally {
    await worker.stop();
    await receiver.close();
  }
}

export function eventDeliveryTable(measured: EventMeasurement): string {
  const ms = (value: number) => value.toFixed(0);
  return [
    `${EVENT_BENCH_NAME}: ${measured.badSignatures} bad signatures, ${measured.duplicates} duplicates`,
    '',
    '| Measure | Value |',
    '| --- | --- |',
    `| Merges under load (${WRITERS} writers) | ${measured.merges} in ${measured.mergeSeconds.toFixed(1)} s (${(measured.merges / measured.mergeSeconds).toFixed(1)}/s) |`,
    `| Lag, merge answered → event received: p50 / p99 / max (ms) | ${ms(median(measured.lagMs))} / ${ms(percentile(measured.lagMs, 99))} / ${ms(Math.max(...measured.lagMs))} |`,
    `| Backlog of ${measured.backlog} events over ${BACKLOG_SPACES} spaces drained | ${(measured.drainMs / 1000).toFixed(1)} s (${((measured.backlog * 1000) / measured.drainMs).toFixed(0)} deliveries/s) |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startService } = await import('./gitbook-docs-service.js');
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const service = await startService(log);
  try {
    const measured = await measureEventDelivery(
      service.app,
      service.base,
      `Bearer ${service.token}`,
      service.organizationId,
      log,
    );
    process.stdout.write(`${eventDeliveryTable(measured)}\n`);
  } finally {
    await service.close();
  }
}
