import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEventDeliveries, type DeliveryOptions } from '../src/integrations/events/deliver.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import { EventReceiver } from './support/event-receiver.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectNewestSpecSchema } from './support/spec.js';

const t = useTestApp();
const content = contentApi(() => t.app);
const FAST: DeliveryOptions = { timeoutMs: 2_000, backoffMs: 0, maxBackoffMs: 0, batchSize: 20 };

type Method = 'GET' | 'POST' | 'DELETE';
const call = (account: Account, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });

async function drain() {
  for (let turn = 0; turn < 200 && (await runEventDeliveries(t.app.context, FAST)); turn += 1);
}

interface Webhook {
  id: string;
  object: 'webhook';
  url: string;
  events: string[];
  spaceId?: string;
  secret?: string;
}

let team: Awaited<ReturnType<typeof t.factory.team>>;
let spaceId: string;
let otherSpaceId: string;
const receivers: EventReceiver[] = [];

async function receiver(): Promise<EventReceiver> {
  const started = await new EventReceiver().start();
  receivers.push(started);
  return started;
}

async function webhook(body: object): Promise<Webhook> {
  const res = await call(team.admin, 'POST', `/orgs/${team.organization.id}/webhooks`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Webhook>();
}

const webhookRows = async () =>
  (await sql<{ row: string }>`select t::text as row from webhooks t order by 1`.execute(t.db)).rows.map((r) => r.row);

beforeAll(async () => {
  team = await t.factory.team(['edit', 'read']);
  spaceId = (await content.createSpace(team.admin, team.organization.id)).id;
  otherSpaceId = (await content.createSpace(team.admin, team.organization.id)).id;
});
afterAll(async () => {
  for (const started of receivers) await started.stop();
});

describe('webhooks', () => {
  it('send an organization’s events, and a space’s only those it asked for, each signed with its own secret', async () => {
    const everything = await receiver();
    const spaceOnly = await receiver();
    const all = await webhook({ url: everything.url });
    const onSpace = await webhook({ url: spaceOnly.url, space: spaceId, events: ['space_content_updated'] });
    expect(all).toMatchObject({ object: 'webhook', url: everything.url, events: [] });
    expect(all.secret).toMatch(/^whsec_/);
    expect(onSpace.secret).not.toBe(all.secret);
    everything.secret = all.secret!;
    spaceOnly.secret = onSpace.secret!;

    await content.change(team.admin, spaceId, [
      { operation: 'insert_page', title: 'Hello', document: { markdown: 'x' } },
    ]);
    await content.change(team.admin, otherSpaceId, [
      { operation: 'insert_page', title: 'Other', document: { markdown: 'y' } },
    ]);
    await drain();

    // In order within each space; two spaces' streams go side by side.
    const of = (space: string) => everything.received.filter((r) => r.body.spaceId === space).map((r) => r.body.type);
    const merge = ['change_request_opened', 'space_content_updated', 'change_request_merged'];
    expect(everything.received).toHaveLength(6);
    expect(of(spaceId)).toEqual(merge);
    expect(of(otherSpaceId)).toEqual(merge);
    expect(spaceOnly.received.map((r) => [r.body.type, r.body.spaceId])).toEqual([['space_content_updated', spaceId]]);
    for (const r of [...everything.received, ...spaceOnly.received]) expect(r.verified).toBe(true);
    const updated = spaceOnly.received[0]!.body;
    expectNewestSpecSchema('Event', updated);
    expect(updated).toMatchObject({ installationId: onSpace.id, updatedBy: [{ id: team.admin.user.id }] });
    // Events leave the service: the users they name carry no e-mail address.
    expect(JSON.stringify(updated)).not.toContain(team.admin.user.email);
  });

  it('send what GitBook has no event object for: a change request opened, a comment posted, a site published', async () => {
    const hears = await receiver();
    const hook = await webhook({
      url: hears.url,
      events: ['change_request_opened', 'comment_posted', 'site_published'],
    });
    hears.secret = hook.secret!;
    const opened = await call(team.admin, 'POST', `/spaces/${spaceId}/change-requests`, { subject: 'Proposal' });
    expect(opened.statusCode).toBe(201);
    const posted = await call(team.admin, 'POST', `/spaces/${spaceId}/comments`, { body: { markdown: 'Looks good' } });
    expect(posted.statusCode, posted.body).toBe(200);
    const site = await insertSite(t.db, team.organization.id);
    const published = await call(team.admin, 'POST', `/orgs/${team.organization.id}/sites/${site.id}/publish`);
    expect(published.statusCode, published.body).toBe(200);
    await drain();
    const bodies = hears.received.map((r) => r.body);
    expect(bodies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'change_request_opened',
          spaceId,
          changeRequestId: opened.json().id,
          subject: 'Proposal',
          installationId: hook.id,
        }),
        expect.objectContaining({ type: 'comment_posted', spaceId, commentId: posted.json().id }),
        expect.objectContaining({ type: 'site_published', siteId: site.id }),
      ]),
    );
    expect(bodies).toHaveLength(3);
    expect(hears.received.every((r) => r.verified)).toBe(true);
    await call(team.admin, 'DELETE', `/orgs/${team.organization.id}/webhooks/${hook.id}`);
  });

  it('list their deliveries for admins, and never show a secret again', async () => {
    const list = await call(team.admin, 'GET', `/orgs/${team.organization.id}/webhooks`);
    expect(list.statusCode).toBe(200);
    const hooks = list.json<{ items: Webhook[]; count: number }>();
    expect(hooks.count).toBe(2);
    expect(hooks.items.every((hook) => hook.secret === undefined)).toBe(true);
    const one = await call(team.admin, 'GET', `/orgs/${team.organization.id}/webhooks/${hooks.items[0]!.id}`);
    expect(one.json().secret).toBeUndefined();
    const deliveries = await call(
      team.admin,
      'GET',
      `/orgs/${team.organization.id}/webhooks/${hooks.items[1]!.id}/deliveries`,
    );
    expect(deliveries.statusCode).toBe(200);
    const page = deliveries.json<{ items: Array<{ delivery: { state: string; attempts: number } }>; count: number }>();
    // Every event of the organization so far: two merges (three each), a change request, a comment, a site.
    expect(page.count).toBe(9);
    expect(page.items.map((item) => item.delivery)).toEqual(
      Array.from({ length: 9 }, () => expect.objectContaining({ state: 'success', attempts: 1 })),
    );
  });

  it('refuse bad input with a 400, members without admin with a 403, strangers with a 404, making nothing', async () => {
    const before = await webhookRows();
    const org = `/orgs/${team.organization.id}/webhooks`;
    const site = await insertSite(t.db, team.organization.id);
    for (const body of [
      { url: 'ftp://hooks.example.com/' },
      { url: 'https://user:secret@hooks.example.com/' },
      { url: 'not a url' },
      { url: 'https://hooks.example.com/', events: ['no_such_event'] },
      { url: 'https://hooks.example.com/', events: ['task', 'task'] },
      { url: 'https://hooks.example.com/', space: spaceId, site: site.id },
      { url: 'https://hooks.example.com/', extra: true },
      { url: `https://hooks.example.com/${'x'.repeat(2048)}` },
    ]) {
      const res = await call(team.admin, 'POST', org, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error.code).toBe(400);
    }
    const stranger = await t.factory.account();
    const strangerOrg = await t.factory.organization(stranger.user.id);
    const foreignSpace = (await content.createSpace(stranger, strangerOrg.id)).id;
    const foreign = await call(team.admin, 'POST', org, { url: 'https://hooks.example.com/', space: foreignSpace });
    expect(foreign.statusCode).toBe(404);
    const member = await call(team.member('edit'), 'POST', org, { url: 'https://hooks.example.com/' });
    expect(member.statusCode).toBe(403);
    expect((await call(team.member('read'), 'GET', org)).statusCode).toBe(403);
    expect((await call(stranger, 'POST', org, { url: 'https://hooks.example.com/' })).statusCode).toBe(404);
    expect((await call(stranger, 'GET', org)).statusCode).toBe(404);
    expect(await webhookRows()).toEqual(before);
  });

  it('of another organization hear nothing of this one', async () => {
    const stranger = await t.factory.account();
    const strangerOrg = await t.factory.organization(stranger.user.id);
    const spy = await receiver();
    const res = await call(stranger, 'POST', `/orgs/${strangerOrg.id}/webhooks`, { url: spy.url });
    expect(res.statusCode).toBe(201);
    // Naming this organization's space is a 404, not a subscription.
    const named = await call(stranger, 'POST', `/orgs/${strangerOrg.id}/webhooks`, { url: spy.url, space: spaceId });
    expect(named.statusCode).toBe(404);
    await content.change(team.admin, spaceId, [
      { operation: 'insert_page', title: 'Private', document: { markdown: 'p' } },
    ]);
    await drain();
    expect(spy.requests).toBe(0);
    const deliveries = await call(
      stranger,
      'GET',
      `/orgs/${team.organization.id}/webhooks/${(await call(team.admin, 'GET', `/orgs/${team.organization.id}/webhooks`)).json().items[0].id}/deliveries`,
    );
    expect(deliveries.statusCode).toBe(404);
  });

  it('once removed, send nothing more, not even what was pending', async () => {
    const down = await receiver();
    down.mode = 'down';
    const hook = await webhook({ url: down.url, space: otherSpaceId });
    await content.change(team.admin, otherSpaceId, [
      { operation: 'insert_page', title: 'Gone', document: { markdown: 'g' } },
    ]);
    await runEventDeliveries(t.app.context, FAST);
    const tried = down.requests;
    expect(tried).toBeGreaterThan(0);
    const removed = await call(team.admin, 'DELETE', `/orgs/${team.organization.id}/webhooks/${hook.id}`);
    expect(removed.statusCode).toBe(204);
    down.mode = 'ok';
    await drain();
    expect(down.requests).toBe(tried);
    expect(await t.db.selectFrom('event_deliveries').select('id').where('webhook_id', '=', hook.id).execute()).toEqual(
      [],
    );
  });
});
