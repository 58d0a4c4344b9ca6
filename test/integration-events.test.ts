import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomString } from '../src/core/ids.js';
import { Keyring } from '../src/core/keyring.js';
import {
  backoffAfter,
  DEFAULT_DELIVERY_OPTIONS,
  pruneDeliveries,
  runEventDeliveries,
  type DeliveryOptions,
} from '../src/integrations/events/deliver.js';
import { integrationSigningSecret, rotateEventSigningSecrets } from '../src/integrations/events/signing-secrets.js';
import { recordEvent } from '../src/events/record.js';
import { createGitSyncProcessor } from '../src/git-sync/processor.js';
import { fanOutEvents } from '../src/integrations/events/fan-out.js';
import { buildOwnApp, listen, testConfig, useTestApp } from './support/app.js';
import { startGitServer } from './support/git-server.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import { EventReceiver } from './support/event-receiver.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectNewestSpecSchema } from './support/spec.js';

const t = useTestApp();
const content = contentApi(() => t.app);
// Retries due at once: a test drives each attempt, never waiting on a clock.
const FAST: DeliveryOptions = { timeoutMs: 300, backoffMs: 0, maxBackoffMs: 0, batchSize: 20 };

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (account: Account, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });

/** Runs the worker until nothing is left to do now. */
async function drain(app = t.app, options = FAST) {
  for (let turn = 0; turn < 200 && (await runEventDeliveries(app.context, options)); turn += 1);
}

interface Setup {
  admin: Account;
  organizationId: string;
  spaceId: string;
  name: string;
  receiver: EventReceiver;
}

/** An organization publishing an integration with an endpoint, installed on itself and on one space. */
async function integrationOnSpace(): Promise<Setup> {
  const admin = await t.factory.account();
  const org = await t.factory.organization(admin.user.id);
  const receiver = await new EventReceiver().start();
  const name = `events-${randomString(8).toLowerCase()}`;
  const published = await call(admin, 'POST', `/integrations/${name}`, {
    title: 'Listener',
    description: 'Hears events',
    script: 'export default {}',
    organization: org.id,
    target: 'all',
    endpoint: receiver.url,
  });
  expect(published.statusCode, published.body).toBe(200);
  const secret = await call(admin, 'POST', `/integrations/${name}/signing-secret`);
  expect(secret.statusCode).toBe(200);
  receiver.secret = secret.json<{ secret: string }>().secret;
  const installed = await call(admin, 'POST', `/integrations/${name}/installations`, { organization: org.id });
  expect(installed.statusCode, installed.body).toBe(201);
  const space = await content.createSpace(admin, org.id);
  const spaceId = (space as { id: string }).id;
  const installationId = installed.json<{ id: string }>().id;
  const onSpace = await call(admin, 'POST', `/integrations/${name}/installations/${installationId}/spaces`, {
    space: spaceId,
  });
  expect(onSpace.statusCode, onSpace.body).toBeLessThan(300);
  return { admin, organizationId: org.id, spaceId, name, receiver };
}

const types = (receiver: EventReceiver) => receiver.received.map((r) => r.body.type);

describe('events sent to an integration', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await integrationOnSpace();
  });
  afterAll(() => s.receiver.stop());

  it('sends its installation, a merge and a visibility change, signed, in order, each once', async () => {
    await content.change(s.admin, s.spaceId, [
      { operation: 'insert_page', title: 'One', document: { markdown: 'Hello' } },
    ]);
    const patched = await call(s.admin, 'PATCH', `/spaces/${s.spaceId}`, { visibility: 'public' });
    expect(patched.statusCode, patched.body).toBe(200);
    await drain();
    // The organization's stream and the space's go side by side; within the space's, in order.
    expect(types(s.receiver).filter((type) => type !== 'installation_setup')).toEqual([
      'space_installation_setup',
      'space_content_updated',
      'space_visibility_updated',
    ]);
    expect(types(s.receiver)).toContain('installation_setup');
    for (const received of s.receiver.received) {
      expect(received.verified).toBe(true);
      expect(received.headers['x-gitbook-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expectNewestSpecSchema('Event', received.body);
    }
    expect(s.receiver.received.find((r) => r.body.type === 'space_visibility_updated')!.body).toMatchObject({
      previousVisibility: 'private',
      visibility: 'public',
    });
    const ids = s.receiver.received.map((r) => r.body.eventId);
    expect(new Set(ids).size).toBe(4);
  });

  it('lists the deliveries for the publishing admins, spec-valid, and shows one with its trace', async () => {
    const list = await call(s.admin, 'GET', `/integrations/${s.name}/events?limit=2`);
    expect(list.statusCode).toBe(200);
    expectNewestSpecResponse('listIntegrationEvents', 200, list.json());
    const page = list.json<{
      items: Array<{ id: string; status: string; delivery: { attempts: number } }>;
      count: number;
    }>();
    expect(page.count).toBe(4);
    expect(page.items.map((item) => item.status)).toEqual(['success', 'success']);
    const one = await call(s.admin, 'GET', `/integrations/${s.name}/events/${page.items[0]!.id}`);
    expect(one.statusCode).toBe(200);
    expectNewestSpecResponse('getIntegrationEvent', 200, one.json());
    expect(one.json().trace.logs[0].message).toMatch(/delivered \(200\)/);
  });

  it('retries an endpoint that fails or is down until it recovers: every event once, in order', async () => {
    s.receiver.received = [];
    s.receiver.mode = 'fail';
    for (const title of ['A', 'B', 'C']) {
      await content.change(s.admin, s.spaceId, [{ operation: 'insert_page', title, document: { markdown: title } }]);
    }
    await runEventDeliveries(t.app.context, FAST);
    await runEventDeliveries(t.app.context, FAST);
    s.receiver.mode = 'down';
    await runEventDeliveries(t.app.context, FAST);
    // Only the head of the space's stream was tried: the next ones wait behind it.
    const pending = await t.db
      .selectFrom('event_deliveries')
      .select(['attempts', 'last_error'])
      .where('status', '=', 'pending')
      .orderBy('seq')
      .execute();
    expect(pending.map((row) => row.attempts)).toEqual([3, 0, 0]);
    expect(pending[0]!.last_error).toBeTruthy();
    s.receiver.mode = 'ok';
    await drain();
    const revisions = s.receiver.received.map((r) => r.body.revisionId);
    expect(types(s.receiver)).toEqual(['space_content_updated', 'space_content_updated', 'space_content_updated']);
    expect(new Set(revisions).size).toBe(3);
    expect(s.receiver.received.every((r) => r.verified)).toBe(true);
  });

  it('gives up on an answer slower than the timeout and sends the event again', async () => {
    s.receiver.received = [];
    s.receiver.mode = 'slow';
    s.receiver.slowMs = 1_000;
    await content.change(s.admin, s.spaceId, [
      { operation: 'insert_page', title: 'Slow', document: { markdown: 'x' } },
    ]);
    await runEventDeliveries(t.app.context, FAST);
    const row = await t.db
      .selectFrom('event_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(row.last_error).toMatch(/did not answer within 300 ms/);
    s.receiver.mode = 'ok';
    await drain();
    expect(s.receiver.received.map((r) => r.body.eventId)).toEqual([row.id]);
  });

  it('is delivered once by two instances on one database', async () => {
    s.receiver.received = [];
    const other = await buildOwnApp(testConfig(t.database.url));
    await other.ready();
    try {
      for (let i = 0; i < 5; i += 1) {
        await content.change(s.admin, s.spaceId, [
          { operation: 'insert_page', title: `P${i}`, document: { markdown: 'x' } },
        ]);
      }
      await Promise.all([drain(t.app), drain(other)]);
      const ids = s.receiver.received.map((r) => r.body.eventId);
      expect(ids).toHaveLength(5);
      expect(new Set(ids).size).toBe(5);
    } finally {
      await other.close();
    }
  });

  it('signs with the current secret only: a receiver keeping the old one after a rotation refuses', async () => {
    s.receiver.received = [];
    const rotated = await call(s.admin, 'POST', `/integrations/${s.name}/signing-secret`);
    expect(rotated.json().secret).not.toBe(s.receiver.secret);
    await content.change(s.admin, s.spaceId, [{ operation: 'insert_page', title: 'Z', document: { markdown: 'z' } }]);
    await runEventDeliveries(t.app.context, FAST);
    expect(s.receiver.received.map((r) => r.verified)).toEqual([false]);
    const failed = await t.db
      .selectFrom('event_deliveries')
      .select('last_status')
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(failed.last_status).toBe(401);
    s.receiver.secret = rotated.json().secret;
    await drain();
    expect(s.receiver.received.map((r) => r.verified)).toEqual([false, true]);
  });

  it('redelivers a delivered event on request, and refuses one still pending (409)', async () => {
    const [first] = await t.db
      .selectFrom('event_deliveries')
      .select('id')
      .where('status', '=', 'success')
      .limit(1)
      .execute();
    s.receiver.received = [];
    const again = await call(s.admin, 'POST', `/integrations/${s.name}/events/${first!.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().delivery.state).toBe('pending');
    const twice = await call(s.admin, 'POST', `/integrations/${s.name}/events/${first!.id}/redeliver`);
    expect(twice.statusCode).toBe(409);
    await drain();
    expect(s.receiver.received.map((r) => r.body.eventId)).toEqual([first!.id]);
  });

  it('delivers a queued task to the integration', async () => {
    s.receiver.received = [];
    const queued = await call(s.admin, 'POST', `/integrations/${s.name}/tasks`, { task: { kind: 'sync', n: 1 } });
    expect(queued.statusCode, queued.body).toBe(204);
    await drain();
    expect(s.receiver.received.map((r) => r.body)).toEqual([
      expect.objectContaining({ type: 'task', task: { kind: 'sync', n: 1 } }),
    ]);
    expectNewestSpecSchema('Event', s.receiver.received[0]!.body);
  });

  it('tells the installation of its deletion', async () => {
    s.receiver.received = [];
    const list = await call(s.admin, 'GET', `/integrations/${s.name}/installations`);
    const installationId = list.json().items[0].id as string;
    const removed = await call(s.admin, 'DELETE', `/integrations/${s.name}/installations/${installationId}`);
    expect(removed.statusCode).toBeLessThan(300);
    await drain();
    expect(s.receiver.received.map((r) => r.body)).toEqual([
      expect.objectContaining({ type: 'installation_deleted', installationId }),
    ]);
  });
});

describe('who sees what', () => {
  it('an attacker’s integration hears nothing of an organization that did not install it, nor reads its events', async () => {
    const victim = await integrationOnSpace();
    const attacker = await integrationOnSpace();
    try {
      await content.change(victim.admin, victim.spaceId, [
        { operation: 'insert_page', title: 'Secret', document: { markdown: 's' } },
      ]);
      await drain();
      expect(attacker.receiver.received.every((r) => r.body.spaceId !== victim.spaceId)).toBe(true);
      expect(victim.receiver.received.some((r) => r.body.type === 'space_content_updated')).toBe(true);
      const read = await call(attacker.admin, 'GET', `/integrations/${victim.name}/events`);
      expect([403, 404]).toContain(read.statusCode);
      const redeliver = await call(attacker.admin, 'POST', `/integrations/${victim.name}/signing-secret`);
      expect([403, 404]).toContain(redeliver.statusCode);
    } finally {
      await victim.receiver.stop();
      await attacker.receiver.stop();
    }
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const admin = await t.factory.account();
    const org = await t.factory.organization(admin.user.id);
    const name = `bad-${randomString(8).toLowerCase()}`;
    const before = await sql<{ n: string }>`select count(*) as n from integrations`.execute(t.db);
    for (const endpoint of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/', '']) {
      const res = await call(admin, 'POST', `/integrations/${name}`, {
        title: 'Bad',
        description: 'x',
        script: 'x',
        organization: org.id,
        endpoint,
      });
      expect(res.statusCode, endpoint).toBe(400);
    }
    const after = await sql<{ n: string }>`select count(*) as n from integrations`.execute(t.db);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    const s = await integrationOnSpace();
    await s.receiver.stop();
    for (const body of [{ task: {}, schedule: 86401 }, { task: 'x' }, {}, { task: { a: 'x'.repeat(70_000) } }]) {
      const res = await call(s.admin, 'POST', `/integrations/${s.name}/tasks`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 50)).toBe(400);
    }
    expect(await t.db.selectFrom('events').select('id').where('type', '=', 'task').execute()).toEqual([]);
  });

  it('answers, through the official client, what `gitbook tail` reads and prints', async () => {
    const s = await integrationOnSpace();
    try {
      s.receiver.mode = 'fail';
      await drain(t.app, { ...FAST, backoffMs: 60_000, maxBackoffMs: 60_000 });
      const base = await listen(t.app);
      const client = newestOfficialClient(base, s.admin.token);
      // What @gitbook/cli's `tail` does: the two newest events, then each one's trace, printed as lines.
      const { data } = await client.integrations.listIntegrationEvents(s.name, { limit: 2 });
      const lines: string[] = [];
      for (const event of data.items.reverse()) {
        const { data: one } = await client.integrations.getIntegrationEvent(s.name, event.id);
        lines.push(`[${event.status}] ${event.payload.type}`);
        for (const log of one.trace?.logs ?? []) lines.push(`[${log.level}] ${log.message}`);
      }
      // Each tried once (the organization's and the space's are two streams), and waiting to be tried again.
      expect(lines).toEqual([
        '[failed] installation_setup',
        '[error] Attempt 1: The endpoint answered 500',
        '[failed] space_installation_setup',
        '[error] Attempt 1: The endpoint answered 500',
      ]);
    } finally {
      await s.receiver.stop();
    }
  });
});

describe('retries', () => {
  it('wait 10 s, then twice as long each time up to an hour, each between half and all of it', () => {
    const waits = (random: () => number) =>
      [1, 2, 3, 4, 9, 10, 20].map((attempts) => backoffAfter(attempts, DEFAULT_DELIVERY_OPTIONS, random));
    expect(waits(() => 1)).toEqual([10_000, 20_000, 40_000, 80_000, 2_560_000, 3_600_000, 3_600_000]);
    expect(waits(() => 0)).toEqual([5_000, 10_000, 20_000, 40_000, 1_280_000, 1_800_000, 1_800_000]);
    // At full waits, the 32nd ends past a day: an endpoint that never answers is tried some 32 times.
    let elapsed = 0;
    let attempts = 0;
    while (elapsed <= 24 * 3_600_000) elapsed += backoffAfter(++attempts, DEFAULT_DELIVERY_OPTIONS, () => 1);
    expect(attempts).toBe(32);
  });
});

describe('the outbox', () => {
  it('fans out an event whose transaction commits after a later event was fanned out', async () => {
    const s = await integrationOnSpace();
    await s.receiver.stop();
    const { id: integrationId, organization_id: organizationId } = await t.db
      .selectFrom('integrations')
      .select(['id', 'organization_id'])
      .where('name', '=', s.name)
      .executeTakeFirstOrThrow();
    const task = (n: number) => ({ organizationId, integrationId, type: 'task' as const, fields: { task: { n } } });
    let release!: () => void;
    let recorded!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const written = new Promise<void>((resolve) => (recorded = resolve));
    // The first takes its seq, then stays uncommitted while the second commits and is fanned out.
    const first = t.db.transaction().execute(async (tx) => {
      await recordEvent(tx, { ...task(1), at: new Date() });
      recorded();
      await held;
    });
    await written;
    await recordEvent(t.db, { ...task(2), at: new Date() });
    while ((await fanOutEvents(t.db)) === 0);
    release();
    await first;
    while ((await fanOutEvents(t.db)) === 0);
    const sent = await t.db
      .selectFrom('event_deliveries')
      .select(sql<number>`(payload->'task'->>'n')::int`.as('n'))
      .where('integration_id', '=', integrationId)
      .where('type', '=', 'task')
      .orderBy('seq')
      .execute();
    expect(sent.map((row) => row.n)).toEqual([2, 1]);
    expect(await t.db.selectFrom('events').select('id').where('integration_id', '=', integrationId).execute()).toEqual(
      [],
    );
  });
});

describe('Git Sync', () => {
  it('tells of an import: started, the content it merged, completed with its commit', async () => {
    const s = await integrationOnSpace();
    const git = await startGitServer({ auth: { username: 'bot', password: 'git-token' } });
    try {
      await drain();
      s.receiver.received = [];
      await git.create('events');
      const tip = await git.commit('events', 'main', {
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
        'README.md': '# Welcome\n',
      });
      const url = git.url('events').replace('http://', 'http://bot:git-token@');
      const queued = await call(s.admin, 'POST', `/spaces/${s.spaceId}/git/import`, { url, ref: 'refs/heads/main' });
      expect(queued.statusCode, queued.body).toBe(204);
      const processor = createGitSyncProcessor(t.app.context);
      while (await processor.runNext());
      await drain();
      expect(types(s.receiver)).toEqual(['space_gitsync_started', 'space_content_updated', 'space_gitsync_completed']);
      const completed = s.receiver.received[2]!.body;
      expect(completed).toMatchObject({ spaceId: s.spaceId, state: 'success', commitId: tip });
      for (const received of s.receiver.received) expectNewestSpecSchema('Event', received.body);
    } finally {
      await git.close();
      await s.receiver.stop();
    }
  });
});

describe('retention', () => {
  it('forgets delivered and failed deliveries 30 days after their event, never pending ones', async () => {
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    const rows = await t.db.selectFrom('event_deliveries').select(['seq', 'status']).orderBy('seq').limit(3).execute();
    const [kept, failed, pending] = rows.map((row) => row.seq);
    await t.db
      .updateTable('event_deliveries')
      .set({ created_at: old, status: 'success' })
      .where('seq', '=', kept!)
      .execute();
    await t.db
      .updateTable('event_deliveries')
      .set({ created_at: old, status: 'failed' })
      .where('seq', '=', failed!)
      .execute();
    await t.db
      .updateTable('event_deliveries')
      .set({ created_at: old, status: 'pending', next_attempt_at: new Date(Date.now() + 3_600_000) })
      .where('seq', '=', pending!)
      .execute();
    const before = await t.db.selectFrom('event_deliveries').select('seq').execute();
    // What the worker does on a turn with nothing to send.
    expect(await pruneDeliveries(t.app.context)).toBe(2);
    const after = (await t.db.selectFrom('event_deliveries').select('seq').execute()).map((row) => row.seq);
    expect(after).toHaveLength(before.length - 2);
    expect(after).toContain(pending);
    expect(after).not.toContain(kept);
    expect(after).not.toContain(failed);
  });
});

// Last: the rotation re-seals every secret under a key the running app does not hold.
describe('a rotation of the encryption key', () => {
  it('keeps signing with the same secret once `secrets rotate` re-sealed it under a new key', async () => {
    const key = randomBytes(32);
    const rotating = Keyring.fromConfig({ key: key.toString('base64') }, t.app.context.serviceSecret);
    const s = await integrationOnSpace();
    await s.receiver.stop();
    const result = await rotateEventSigningSecrets(t.db, rotating, { batchSize: 1 });
    expect(result.failed).toEqual([]);
    expect(result.rotated).toBeGreaterThanOrEqual(1);
    const { id } = await t.db
      .selectFrom('integrations')
      .select('id')
      .where('name', '=', s.name)
      .executeTakeFirstOrThrow();
    expect(await integrationSigningSecret(t.db, new Keyring(key), id)).toBe(s.receiver.secret);
    expect(await rotateEventSigningSecrets(t.db, rotating)).toEqual({ rotated: 0, failed: [] });
  });
});
