import { beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequestStatus } from '@gitbook/api-next';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);
let endpoint: string;

beforeAll(async () => {
  endpoint = await listen(t.app);
});

const get = (account: Account, url: string, query: Record<string, string | string[]> = {}) =>
  t.app.inject({ method: 'GET', url, headers: account.headers, query });
const ids = (body: { items: Array<{ id: string }> }) => body.items.map((item) => item.id);

/** Sets a change request's times, so that orders are exact whatever the clock did. */
async function at(changeRequestId: string, createdAt: string, updatedAt: string) {
  await t.db
    .updateTable('change_requests')
    .set({ created_at: new Date(createdAt), updated_at: new Date(updatedAt) })
    .where('id', '=', changeRequestId)
    .execute();
}

/**
 * An organization with two spaces and a guest granted the first: four change
 * requests (two open, a draft, a merged one) by the editor and the admin, one
 * with a reviewer asked, one another member wrote in.
 */
async function setUp() {
  const team = await t.factory.team([null, 'read', 'review', 'edit']);
  const { admin, organization, member } = team;
  const editor = member('edit');
  const reviewer = member('review');
  const first = await api.createSpace(admin, organization.id, { title: 'First' });
  const second = await api.createSpace(admin, organization.id, { title: 'Second' });
  const granted = await t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${first.id}/permissions`,
    headers: admin.headers,
    payload: { role: 'read', users: [member(null).user.id] },
  });
  expect(granted.statusCode, granted.body).toBeLessThan(300);

  /** A change request set to open (they start as drafts). */
  const opened = async (account: Account, spaceId: string, subject: string) => {
    const id = await api.openChangeRequest(account, spaceId, subject);
    expect((await api.patchChangeRequest(account, spaceId, id, { status: 'open' })).statusCode).toBe(200);
    return id;
  };
  const open1 = await opened(editor, first.id, 'Open in first');
  const open2 = await opened(admin, second.id, 'Open in second');
  const draft = (await api.createChangeRequest(editor, second.id, { subject: 'Draft' })).json().id as string;
  const merged = await api.openChangeRequest(admin, first.id, 'Merged');
  expect((await api.merge(admin, first.id, merged)).json().result).toBe('merge');
  const asked = await t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${second.id}/change-requests/${open2}/requested-reviewers`,
    headers: admin.headers,
    payload: { users: [reviewer.user.id] },
  });
  expect(asked.statusCode).toBe(200);
  const wrote = await api.writeContent(admin, first.id, open1, [
    { operation: 'insert_page', title: 'By the admin', document: { markdown: 'Text.' } },
  ]);
  expect(wrote.statusCode).toBe(200);
  await at(open1, '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z');
  await at(open2, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
  await at(draft, '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z');
  await at(merged, '2026-01-04T00:00:00.000Z', '2026-01-04T00:00:00.000Z');
  return { ...team, editor, reviewer, first, second, open1, open2, draft, merged };
}

describe('the organization’s change requests', () => {
  it('lists the open ones by last update by default, through the official client, with the filters of the spec', async () => {
    const o = await setUp();
    const url = `/v1/orgs/${o.organization.id}/change-requests`;
    const client = newestOfficialClient(endpoint, o.admin.token);
    const { data } = await client.orgs.listChangeRequestsForOrganization(o.organization.id);
    expectNewestSpecResponse('listChangeRequestsForOrganization', 200, data);
    expect(ids(data)).toEqual([o.open1, o.open2]);
    expect(data.count).toBe(2);
    expect(data.items[0]).toMatchObject({
      object: 'change-request',
      space: o.first.id,
      status: 'open',
      urls: { location: `${PUBLIC_URL}/v1/spaces/${o.first.id}/change-requests/${o.open1}` },
    });

    const byCreation = await client.orgs.listChangeRequestsForOrganization(o.organization.id, {
      orderBy: 'createdAt' as never,
      status: [ChangeRequestStatus.Open, ChangeRequestStatus.Draft, ChangeRequestStatus.Merged],
    });
    expect(ids(byCreation.data)).toEqual([o.merged, o.draft, o.open2, o.open1]);
    expect(ids((await get(o.admin, url, { status: ['draft', 'open'] })).json())).toEqual([o.open1, o.draft, o.open2]);
    expect(ids((await get(o.admin, url, { creator: o.editor.user.id })).json())).toEqual([o.open1]);
    expect(ids((await get(o.admin, url, { contributor: o.admin.user.id })).json())).toEqual([o.open1]);
    expect(ids((await get(o.admin, url, { contributor: o.editor.user.id })).json())).toEqual([]);
    expect(ids((await get(o.admin, url, { space: o.second.id, status: 'draft' })).json())).toEqual([o.draft]);
    // What waits for my review: one call.
    const waiting = await newestOfficialClient(endpoint, o.reviewer.token).orgs.listChangeRequestsForOrganization(
      o.organization.id,
      { requestedReviewer: o.reviewer.user.id },
    );
    expect(ids(waiting.data)).toEqual([o.open2]);
    // Once reviewed, it waits no more.
    const reviewed = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${o.second.id}/change-requests/${o.open2}/reviews`,
      headers: o.reviewer.headers,
      payload: { status: 'approved' },
    });
    expect(reviewed.statusCode).toBe(201);
    expect((await get(o.reviewer, url, { requestedReviewer: o.reviewer.user.id })).json()).toEqual({
      count: 0,
      items: [],
    });
    for (const query of [{ topic: 't1' }, { site: 's1' }, { styleguideRun: 'r1' }] as Record<string, string>[]) {
      expect((await get(o.admin, url, query)).json()).toEqual({ count: 0, items: [] });
    }
    expect(ids((await get(o.admin, url, { finding: 'all' })).json())).toEqual([o.open1, o.open2]);
  });

  it('pages with a cursor kept to its filters and order', async () => {
    const o = await setUp();
    const url = `/v1/orgs/${o.organization.id}/change-requests`;
    const query = { status: ['open', 'draft', 'merged'], orderBy: 'createdAt', limit: '3' };
    const page1 = (await get(o.admin, url, query)).json();
    expectNewestSpecResponse('listChangeRequestsForOrganization', 200, page1);
    expect(page1.count).toBe(4);
    expect(ids(page1)).toEqual([o.merged, o.draft, o.open2]);
    const page2 = (await get(o.admin, url, { ...query, page: page1.next.page })).json();
    expect(ids(page2)).toEqual([o.open1]);
    expect(page2.next).toBeUndefined();
    expect((await get(o.admin, url, { ...query, limit: '0' })).json()).toEqual({ count: 4, items: [] });
    const otherFilters = await get(o.admin, url, { ...query, orderBy: 'updatedAt', page: page1.next.page });
    expect(otherFilters.statusCode).toBe(400);
    expect((await get(o.admin, url, { page: 'tampered' })).statusCode).toBe(400);
  });

  it('shows a guest only the spaces granted to them, and no one outside the organization anything', async () => {
    const o = await setUp();
    const url = `/v1/orgs/${o.organization.id}/change-requests`;
    const guest = o.member(null);
    const seen = await get(guest, url, { status: ['open', 'draft', 'merged'] });
    expect(seen.statusCode).toBe(200);
    expect(ids(seen.json())).toEqual([o.open1, o.merged]);
    expect(seen.json().count).toBe(2);
    expect(ids((await get(guest, url, { space: o.second.id })).json())).toEqual([]);

    const stranger = await t.factory.team(['edit']);
    const strangerSpace = await api.createSpace(stranger.admin, stranger.organization.id, { title: 'Theirs' });
    await api.openChangeRequest(stranger.admin, strangerSpace.id, 'Theirs');
    const refused = await get(stranger.admin, url);
    expect(refused.statusCode).toBe(404);
    // Their own list holds none of this organization's, even when asked for one of its spaces.
    const own = await get(stranger.admin, `/v1/orgs/${stranger.organization.id}/change-requests`, {
      space: o.first.id,
    });
    expect(own.json()).toEqual({ count: 0, items: [] });

    // A deleted space's change requests leave the list.
    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${o.first.id}`, headers: o.admin.headers });
    expect(deleted.statusCode).toBe(205);
    expect(ids((await get(o.admin, url)).json())).toEqual([o.open2]);
  });

  it('answers 400 to bad filters and 401 without a token', async () => {
    const o = await setUp();
    const url = `/v1/orgs/${o.organization.id}/change-requests`;
    const bad = await get(o.admin, url, { status: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('querystring/status');
    expect((await get(o.admin, url, { orderBy: 'title' })).statusCode).toBe(400);
    expect((await get(o.admin, url, { finding: 'some' })).statusCode).toBe(400);
    expect((await get(o.admin, url, { creator: 'x'.repeat(200) })).statusCode).toBe(400);
    expect((await get(o.admin, url, { limit: '1001' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});

describe('the space’s change requests', () => {
  it('take orderBy, contributor, requestedReviewer and topic', async () => {
    const o = await setUp();
    const url = `/v1/spaces/${o.second.id}/change-requests`;
    await at(o.draft, '2026-01-03T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    const byUpdate = (await get(o.admin, url, { status: 'draft' })).json();
    expectNewestSpecResponse('listChangeRequestsForSpace', 200, byUpdate);
    expect(ids(byUpdate)).toEqual([o.draft]);
    const client = newestOfficialClient(endpoint, o.member('read').token);
    const waiting = await client.spaces.listChangeRequestsForSpace(o.second.id, {
      requestedReviewer: o.reviewer.user.id,
    });
    expectNewestSpecResponse('listChangeRequestsForSpace', 200, waiting.data);
    expect(ids(waiting.data)).toEqual([o.open2]);
    expect(ids((await get(o.admin, url, { requestedReviewer: o.editor.user.id })).json())).toEqual([]);
    expect((await get(o.admin, url, { topic: 'anything' })).json()).toEqual({ count: 0, items: [] });

    const firstUrl = `/v1/spaces/${o.first.id}/change-requests`;
    expect(ids((await get(o.admin, firstUrl, { contributor: o.admin.user.id })).json())).toEqual([o.open1]);
    // By update the older change request comes first; by creation, the newer.
    const other = await api.openChangeRequest(o.editor, o.first.id, 'Newer');
    await api.patchChangeRequest(o.editor, o.first.id, other, { status: 'open' });
    await at(other, '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
    expect(ids((await get(o.admin, firstUrl)).json())).toEqual([o.open1, other]);
    expect(ids((await get(o.admin, firstUrl, { orderBy: 'createdAt' })).json())).toEqual([other, o.open1]);
    expect((await get(o.admin, firstUrl, { orderBy: 'nope' })).statusCode).toBe(400);
  });
});

describe('the contributors of a change request', () => {
  it('names who wrote in it, how often and when last, most recent first', async () => {
    const o = await setUp();
    const write = (account: Account, title: string) =>
      api.writeContent(account, o.first.id, o.open1, [{ operation: 'insert_page', title, document: {} }]);
    expect((await write(o.editor, 'One')).statusCode).toBe(200);
    expect((await write(o.editor, 'Two')).statusCode).toBe(200);
    const url = `/v1/spaces/${o.first.id}/change-requests/${o.open1}/contributors`;
    const client = newestOfficialClient(endpoint, o.member('read').token);
    const { data } = await client.spaces.getContributorsByChangeRequestId(o.first.id, o.open1);
    expectNewestSpecResponse('getContributorsByChangeRequestId', 200, data);
    expect(data.count).toBe(2);
    expect(data.items.map((item) => [item.user.id, item.count, item.actionType])).toEqual([
      [o.editor.user.id, 2, 'edit'],
      [o.admin.user.id, 1, 'edit'],
    ]);
    const stored = await t.db
      .selectFrom('revisions')
      .select((eb) => eb.fn.max('created_at').as('last'))
      .where('change_request_id', '=', o.open1)
      .where('created_by', '=', o.editor.user.id)
      .executeTakeFirstOrThrow();
    expect(data.items[0]!.updatedAt).toBe(new Date(stored.last).toISOString());

    expect((await get(o.admin, `/v1/spaces/${o.second.id}/change-requests/${o.open2}/contributors`)).json()).toEqual({
      count: 0,
      items: [],
    });
    const stranger = await t.factory.account();
    expect((await get(stranger, url)).statusCode).toBe(404);
    expect((await get(o.admin, `/v1/spaces/${o.first.id}/change-requests/nOsUcH/contributors`)).statusCode).toBe(404);
    // A change request of another space is not found through this one.
    expect((await get(o.admin, `/v1/spaces/${o.second.id}/change-requests/${o.open1}/contributors`)).statusCode).toBe(
      404,
    );
  });
});
