import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { auditHelpers } from './support/audit.js';
import { newestOfficialClient } from './support/client.js';
import { expectNewestSpecResponse } from './support/spec.js';
import { AUDIT_ACTIONS } from '../src/audit/catalog.js';
import { purgeAuditEvents } from '../src/audit/purge.js';
import { recordAuditEvent } from '../src/audit/record.js';
import { withOrigin } from '../src/audit/origin.js';

// What each action records is in audit-log-actions.test.ts; here, reading, keeping and naming who acted.
const t = useTestApp();
const { setup, call, rowsOf, createSpace } = auditHelpers(t);
let endpoint: string;

beforeAll(async () => {
  endpoint = await listen(t.app);
});

describe('who deleted this space', () => {
  it('names the admin, their token and address, through the newest official client', async () => {
    const s = await setup();
    const spaceId = await createSpace(s, 'Runbook');
    expect((await call(s.admin, 'DELETE', `/v1/spaces/${spaceId}`)).status).toBe(205);

    const client = newestOfficialClient(endpoint, s.admin.token);
    const list = await client.orgs.listOrganizationAuditEvents(s.organizationId, {
      action: 'space.deleted',
      target: spaceId,
    });
    expect(list.status).toBe(200);
    expectNewestSpecResponse('listOrganizationAuditEvents', 200, list.data);
    expect(list.data.count).toBe(1);
    const [event] = list.data.items;
    expect(event).toEqual({
      object: 'audit-event',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      occurredAt: expect.any(String),
      action: 'space.deleted',
      actor: { type: 'user', id: s.admin.user.id, label: s.admin.user.display_name },
      source: 'api',
      target: { type: 'space', id: spaceId, label: 'Runbook' },
      urls: { location: `http://docs.test/v1/orgs/${s.organizationId}/audit-events/${event!.id}` },
    });

    const details = await client.orgs.getOrganizationAuditEvent(s.organizationId, event!.id);
    expectNewestSpecResponse('getOrganizationAuditEvent', 200, details.data);
    expect(details.data.payload).toEqual({ tokenId: s.admin.tokenId, ip: '127.0.0.1' });
    expect(details.data.schemaVersion).toBe(1);
    expect(details.data.correlationId).toEqual(expect.any(String));

    expect((await call(s.admin, 'POST', `/v1/spaces/${spaceId}/restore`)).status).toBe(200);
    const restored = await client.orgs.listOrganizationAuditEvents(s.organizationId, { action: 'space.restored' });
    expect(restored.data.items.map((item) => item.target.id)).toEqual([spaceId]);
  });

  it('records nothing for a refused deletion', async () => {
    const s = await setup();
    const spaceId = await createSpace(s);
    const before = await rowsOf(s.organizationId);
    expect((await call(s.editor, 'DELETE', `/v1/spaces/${spaceId}`)).status).toBe(403);
    expect(await rowsOf(s.organizationId)).toEqual(before);
  });
});

describe('reading the audit log', () => {
  it('filters by actor, action and time, and pages', async () => {
    const s = await setup();
    const first = await createSpace(s, 'One');
    const second = await createSpace(s, 'Two');
    await call(s.admin, 'DELETE', `/v1/spaces/${first}`);
    await call(s.admin, 'DELETE', `/v1/spaces/${second}`);
    await call(s.admin, 'PATCH', `/v1/orgs/${s.organizationId}/members/${s.reader.user.id}`, { role: 'edit' });
    const base = `/v1/orgs/${s.organizationId}/audit-events`;

    const page1 = await call(s.admin, 'GET', `${base}?limit=2`);
    expect(page1.status).toBe(200);
    const body1 = page1.body as unknown as {
      count: number;
      items: { id: string; action: string }[];
      next: { page: string };
    };
    expect(body1.count).toBe(3);
    const page2 = await call(s.admin, 'GET', `${base}?limit=2&page=${body1.next.page}`);
    const body2 = page2.body as unknown as { items: { id: string }[]; next?: unknown };
    expect(body2.next).toBeUndefined();
    // Newest first, ties of the same millisecond broken by id, as the table orders them.
    const newestFirst = (await rowsOf(s.organizationId)).reverse();
    expect([...body1.items, ...body2.items].map((item) => item.id)).toEqual(newestFirst.map((row) => row.id));
    expect(newestFirst.map((row) => row.action)).toEqual(['member.role_changed', 'space.deleted', 'space.deleted']);
    expect(
      newestFirst
        .slice(1)
        .map((row) => row.target_id)
        .sort(),
    ).toEqual([first, second].sort());

    const byActor = await call(s.admin, 'GET', `${base}?actor=${s.reader.user.id}`);
    expect((byActor.body as unknown as { count: number }).count).toBe(0);
    const byAction = await call(s.admin, 'GET', `${base}?action=space.deleted&actor=${s.admin.user.id}`);
    expect((byAction.body as unknown as { count: number }).count).toBe(2);

    const rows = await rowsOf(s.organizationId);
    const at = rows[1]!.occurred_at.toISOString();
    const window = await call(s.admin, 'GET', `${base}?from=${at}&to=${at}`);
    expect((window.body as unknown as { items: { id: string }[] }).items.map((item) => item.id)).toEqual(
      rows
        .filter((row) => row.occurred_at.toISOString() === at)
        .map((row) => row.id)
        .reverse(),
    );
    expect((await call(s.admin, 'GET', `${base}?page=${body1.next.page}&action=space.deleted`)).status).toBe(400);
  });

  it('refuses bad filters with 400', async () => {
    const s = await setup();
    const base = `/v1/orgs/${s.organizationId}/audit-events`;
    for (const query of [
      'limit=0',
      'limit=101',
      'action=space.exploded',
      'from=yesterday',
      'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
    ]) {
      const answer = await call(s.admin, 'GET', `${base}?${query}`);
      expect(answer.status, query).toBe(400);
      expectNewestSpecResponse('listOrganizationAuditEvents', 400, answer.body);
    }
    expect((await call(s.admin, 'GET', `${base}/not-a-uuid`)).status).toBe(404);
    expect((await call(s.admin, 'GET', `${base}/8f14e45f-ceea-467a-9b1e-6a1f2b3c4d5e`)).status).toBe(404);
  });

  it('lists the actions it records', async () => {
    const s = await setup();
    const answer = await newestOfficialClient(endpoint, s.admin.token).orgs.listOrganizationAuditEventActions(
      s.organizationId,
    );
    expectNewestSpecResponse('listOrganizationAuditEventActions', 200, answer.data);
    expect(answer.data.items).toContainEqual({
      object: 'audit-event-action',
      id: 'space.deleted',
      label: 'Space deleted',
    });
    expect(answer.data.items).toHaveLength(Object.keys(AUDIT_ACTIONS).length);
  });

  it('is for the organization’s admins: members get 403, another organization’s admin 404', async () => {
    const s = await setup();
    const spaceId = await createSpace(s);
    await call(s.admin, 'DELETE', `/v1/spaces/${spaceId}`);
    const [row] = await rowsOf(s.organizationId);
    const stranger = await setup();
    for (const path of ['audit-events', `audit-events/${row!.id}`, 'audit-event-actions']) {
      const url = `/v1/orgs/${s.organizationId}/${path}`;
      const member = await call(s.editor, 'GET', url);
      expect(member.status, path).toBe(403);
      expectNewestSpecResponse('listOrganizationAuditEvents', 403, member.body);
      expect((await call(stranger.admin, 'GET', url)).status, path).toBe(404);
    }
    // Another organization's event is not found through one's own organization either.
    expect(
      (await call(stranger.admin, 'GET', `/v1/orgs/${stranger.organizationId}/audit-events/${row!.id}`)).status,
    ).toBe(404);
  });

  it('can be neither changed nor deleted, through the API or in the table', async () => {
    const s = await setup();
    const spaceId = await createSpace(s);
    await call(s.admin, 'DELETE', `/v1/spaces/${spaceId}`);
    const [row] = await rowsOf(s.organizationId);
    const url = `/v1/orgs/${s.organizationId}/audit-events/${row!.id}`;
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      expect((await call(s.admin, method, url, method === 'DELETE' ? undefined : {})).status, method).toBe(405);
    }
    await expect(
      t.db.updateTable('audit_events').set({ action: 'space.restored' }).where('id', '=', row!.id).execute(),
    ).rejects.toThrow(/never changed/);
    expect(await rowsOf(s.organizationId)).toEqual([row]);
  });
});

describe('retention', () => {
  it('purges the events older than AUDIT_RETENTION_DAYS, and keeps the others', async () => {
    const s = await setup();
    const now = new Date();
    const day = 86_400_000;
    const event = (daysAgo: number) =>
      recordAuditEvent(t.db, {
        organizationId: s.organizationId,
        action: 'space.deleted',
        actorId: s.admin.user.id,
        target: { type: 'space', id: `space${daysAgo}` },
        at: new Date(now.getTime() - daysAgo * day),
      });
    for (const daysAgo of [400, 366, 364, 1]) await event(daysAgo);
    const clock = { now: () => now };
    expect(t.app.context.config.auditRetentionDays).toBe(365);
    expect(await purgeAuditEvents(t.db, clock, 365)).toBeGreaterThanOrEqual(2);
    const kept = await rowsOf(s.organizationId);
    expect(kept.map((row) => row.target_id)).toEqual(['space364', 'space1']);
    // Recorded outside a request: by the command line, with no token or address.
    expect(kept[0]).toMatchObject({ source: 'script', token_id: null, ip: null, actor_id: s.admin.user.id });
    expect(kept[0]!.actor_label).toBe(s.admin.user.display_name);
  });
});

describe('who acted', () => {
  it('names an integration calling as its installation by the installation, from an integration', async () => {
    const s = await setup();
    const origin = {
      userId: 'installation:inst1',
      userLabel: null,
      tokenId: 'installtoken1',
      installation: { id: 'inst1', integrationName: 'tidy-up' },
      ip: '203.0.113.9',
      requestId: 'req-1',
    };
    await withOrigin(origin, () =>
      recordAuditEvent(t.db, {
        organizationId: s.organizationId,
        action: 'space.deleted',
        actorId: origin.userId,
        target: { type: 'space', id: 'space1' },
        at: new Date(),
      }),
    );
    const [row] = await rowsOf(s.organizationId);
    expect(row).toMatchObject({
      actor_type: 'installation',
      actor_id: 'inst1',
      actor_label: 'tidy-up',
      token_id: 'installtoken1',
      ip: '203.0.113.9',
      source: 'integration',
      correlation_id: 'req-1',
    });
  });

  it('records a request’s token only for its caller, not for someone the action names', async () => {
    const s = await setup();
    const origin = {
      userId: s.admin.user.id,
      userLabel: 'Admin',
      tokenId: s.admin.tokenId,
      installation: null,
      ip: '198.51.100.7',
      requestId: 'req-2',
    };
    await withOrigin(origin, () =>
      recordAuditEvent(t.db, {
        organizationId: s.organizationId,
        action: 'member.added',
        actorId: s.reader.user.id,
        target: { type: 'user', id: s.reader.user.id },
        at: new Date(),
        details: { apiToken: 'leaked', nested: { password: 'hunter2', kept: true } },
      }),
    );
    const [row] = await rowsOf(s.organizationId);
    expect(row).toMatchObject({ actor_id: s.reader.user.id, token_id: null, ip: '198.51.100.7', source: 'api' });
    expect(row!.actor_label).toBe(s.reader.user.display_name);
    expect(row!.payload).toEqual({ nested: { kept: true } });
  });
});
