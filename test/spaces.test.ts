import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/core/clock.js';
import type { Role } from '../src/db/types.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const DAY = 86_400_000;
let now = Date.parse('2026-06-01T12:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };
const t = useTestApp({ clock });

const organizationWith = (roles: Array<Role | null>) => t.factory.team(roles);

const createSpace = (account: Account, organizationId: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: `/v1/orgs/${organizationId}/spaces`, headers: account.headers, payload });
const getSpace = (account: Account, id: string, query: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/v1/spaces/${id}`, query, headers: account.headers });
const patchSpace = (account: Account, id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/v1/spaces/${id}`, headers: account.headers, payload });
const spaceRow = (id: string) => t.db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /v1/orgs/{organizationId}/spaces', () => {
  it('creates a space and answers 201 with every field of the Space table and a Location header', async () => {
    const { admin, organization } = await organizationWith([]);

    const res = await createSpace(admin, organization.id, { title: 'Handbook', emoji: '📘' });

    expect(res.statusCode).toBe(201);
    const body = res.json();
    const row = await spaceRow(body.id);
    expect(body).toEqual({
      object: 'space',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      createdAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      urls: {
        location: `${PUBLIC_URL}/v1/spaces/${body.id}`,
        app: `${PUBLIC_URL}/app/o/${organization.id}/s/${body.id}`,
      },
      organization: organization.id,
      revision: row.revision_id,
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: {
        view: true,
        access: true,
        admin: true,
        viewInviteLinks: true,
        edit: true,
        triggerGitSync: true,
        comment: true,
        merge: true,
        review: true,
        installIntegration: true,
      },
    });
    expect(res.headers.location).toBe(body.urls.location);
    expectSpecResponse('getSpaceById', 200, body);
    expect(row.share_key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('places a space in a collection, and takes in-collection visibility only there', async () => {
    const { admin, organization } = await organizationWith([]);
    const collection = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/collections`,
        headers: admin.headers,
        payload: { title: 'C' },
      })
    ).json();

    const inside = await createSpace(admin, organization.id, { parent: collection.id, visibility: 'in-collection' });
    expect(inside.statusCode).toBe(201);
    expect(inside.json()).toMatchObject({
      parent: collection.id,
      visibility: 'in-collection',
      title: 'Untitled',
      emoji: '',
    });

    const outside = await createSpace(admin, organization.id, { visibility: 'in-collection' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.message).toBe('body/visibility: in-collection is only for a space inside a collection');
    expect(
      await t.db.selectFrom('spaces').select('id').where('organization_id', '=', organization.id).execute(),
    ).toHaveLength(1);
  });

  it('needs the create role, and refuses bad input with 400, creating nothing', async () => {
    const { admin, organization, member } = await organizationWith(['edit']);
    const refused = await createSpace(member('edit'), organization.id, { title: 'No' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: { code: 403, message: 'Creating a space needs the create role in the organization' },
    });

    for (const [payload, message] of [
      [{ title: 'x'.repeat(51) }, /^body\/title must NOT have more than 50 characters$/],
      [{ emoji: 'ab' }, /^body\/emoji must match format "emoji"$/],
      [{ emoji: '🎉🎉' }, /^body\/emoji must match format "emoji"$/],
      [{ visibility: 'secret' }, /^body\/visibility must be one of/],
      [{ editMode: 'frozen' }, /^body\/editMode must be one of: "live", "locked"$/],
      [{ parent: 'AAAAAAAAAAAAAAAAAAAA' }, /^body\/parent: no collection "AAAAAAAAAAAAAAAAAAAA" in this organization$/],
      [{ defaultLevel: 'read' }, /^body\/defaultLevel is not an accepted field$/],
    ] as const) {
      const res = await createSpace(admin, organization.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect(
      await t.db.selectFrom('spaces').select('id').where('organization_id', '=', organization.id).execute(),
    ).toEqual([]);

    for (const emoji of ['🎉', '👩‍💻', '🇫🇷', '1f389', '1f468-200d-1f4bb']) {
      expect((await createSpace(admin, organization.id, { emoji })).statusCode, emoji).toBe(201);
    }
  });
});

describe('GET /v1/spaces/{spaceId}', () => {
  it('gives members their role, and strangers only what the visibility opens', async () => {
    const { admin, organization, member } = await organizationWith(['comment', null]);
    const stranger = await t.factory.account();
    const space = (await createSpace(admin, organization.id, { title: 'Visible?' })).json();
    const row = await spaceRow(space.id);

    expect((await getSpace(member('comment'), space.id)).json().permissions).toMatchObject({
      view: true,
      comment: true,
      edit: false,
      admin: false,
    });
    for (const account of [member(null), stranger]) {
      const res = await getSpace(account, space.id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 404, message: 'No space with this id is visible to you' } });
    }

    for (const visibility of ['public', 'unlisted'] as const) {
      await patchSpace(admin, space.id, { visibility });
      const res = await getSpace(stranger, space.id);
      expect(res.statusCode, visibility).toBe(200);
      expect(res.json().permissions).toMatchObject({ view: true, comment: false, edit: false, admin: false });
      expect(res.json().urls.published).toBe(`${PUBLIC_URL}/p/${space.id}`);
      expect(res.json().urls.public).toBe(visibility === 'public' ? `${PUBLIC_URL}/p/${space.id}` : undefined);
    }

    await patchSpace(admin, space.id, { visibility: 'share-link' });
    expect((await getSpace(stranger, space.id)).statusCode).toBe(404);
    expect((await getSpace(stranger, space.id, { shareKey: 'wrong' })).statusCode).toBe(404);
    const withKey = await getSpace(stranger, space.id, { shareKey: row.share_key });
    expect(withKey.statusCode).toBe(200);
    expect(withKey.json().urls.published).toBe(`${PUBLIC_URL}/p/${space.id}?share=${row.share_key}`);
    expectSpecResponse('getSpaceById', 200, withKey.json());
    // Members without admin do not get the secret link.
    expect((await getSpace(member('comment'), space.id)).json().urls.published).toBeUndefined();
    expect((await getSpace(admin, space.id)).json().urls.published).toContain(row.share_key);
  });

  it('adds the default levels of the space and its collections to the organization role', async () => {
    const { admin, organization, member } = await organizationWith(['read']);
    const collection = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/collections`,
        headers: admin.headers,
        payload: { title: 'C' },
      })
    ).json();
    const space = (await createSpace(admin, organization.id, { parent: collection.id })).json();

    expect((await getSpace(member('read'), space.id)).json().permissions.edit).toBe(false);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${collection.id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'edit' },
    });
    expect((await getSpace(member('read'), space.id)).json().permissions).toMatchObject({ edit: true, admin: false });
    await patchSpace(admin, space.id, { defaultLevel: 'admin' });
    expect((await getSpace(member('read'), space.id)).json().permissions.admin).toBe(true);
  });

  it('reports the counters stored with the space', async () => {
    const { admin, organization } = await organizationWith([]);
    const space = (await createSpace(admin, organization.id)).json();
    await t.db
      .updateTable('spaces')
      .set({
        comments_open_count: 3,
        change_requests_count: 5,
        change_requests_open_count: 2,
        change_requests_draft_count: 1,
      })
      .where('id', '=', space.id)
      .execute();
    expect((await getSpace(admin, space.id)).json()).toMatchObject({
      comments: 3,
      changeRequests: 5,
      changeRequestsOpen: 2,
      changeRequestsDraft: 1,
    });
  });
});

describe('PATCH /v1/spaces/{spaceId}', () => {
  it('lets editors change title and emoji, and only admins the settings', async () => {
    const { admin, organization, member } = await organizationWith(['edit', 'read']);
    const space = (await createSpace(admin, organization.id, { title: 'First' })).json();

    const edited = await patchSpace(member('edit'), space.id, { title: 'Second', emoji: '🚀' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'Second', emoji: '🚀' });
    expectSpecResponse('updateSpaceById', 200, edited.json());

    const settings = await patchSpace(member('edit'), space.id, { editMode: 'locked' });
    expect(settings.statusCode).toBe(403);
    expect(settings.json().error.message).toBe(
      'Changing the edit mode, default level or visibility of a space needs the admin role on it',
    );
    const reader = await patchSpace(member('read'), space.id, { title: 'Reader' });
    expect(reader.statusCode).toBe(403);
    expect(await spaceRow(space.id)).toMatchObject({ title: 'Second', emoji: '🚀', edit_mode: 'live' });

    const cleared = await patchSpace(admin, space.id, { emoji: null, defaultLevel: null });
    expect(cleared.json()).toMatchObject({ emoji: '', defaultLevel: null });
  });

  it('blocks edits to a locked space until it is set back to live', async () => {
    const { admin, organization, member } = await organizationWith(['edit']);
    const space = (await createSpace(admin, organization.id, { title: 'Open' })).json();

    const locked = await patchSpace(admin, space.id, { editMode: 'locked' });
    expect(locked.json()).toMatchObject({
      editMode: 'locked',
      permissions: { edit: false, merge: false, triggerGitSync: false },
    });

    for (const account of [member('edit'), admin]) {
      const res = await patchSpace(account, space.id, { title: 'Changed' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('The space is locked; set editMode to live before editing it');
    }
    expect((await spaceRow(space.id)).title).toBe('Open');

    const unlocked = await patchSpace(admin, space.id, { editMode: 'live', title: 'Changed' });
    expect(unlocked.json()).toMatchObject({ editMode: 'live', title: 'Changed', permissions: { edit: true } });
  });

  it.each([
    ['a title over 50 characters', { title: 'x'.repeat(51) }, /^body\/title must NOT have more than 50 characters$/],
    ['an emoji that is text', { emoji: 'smile' }, /^body\/emoji/],
    ['an emoji over 50 characters', { emoji: '1f389-'.repeat(10) + '1f389' }, /^body\/emoji/],
    ['an unknown edit mode', { editMode: 'frozen' }, /^body\/editMode must be one of: "live", "locked"$/],
    ['an unknown default level', { defaultLevel: 'owner' }, /^body\/defaultLevel must be one of/],
    [
      'in-collection for a space outside collections',
      { visibility: 'in-collection' },
      /^body\/visibility: in-collection is only for a space inside a collection$/,
    ],
    ['an unknown field', { parent: 'x' }, /^body\/parent is not an accepted field$/],
  ])('refuses %s with 400 and changes nothing', async (_case, payload, message) => {
    const { admin, organization } = await organizationWith([]);
    const space = (await createSpace(admin, organization.id, { title: 'Kept' })).json();
    const before = await spaceRow(space.id);

    const res = await patchSpace(admin, space.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(message);
    expect(await spaceRow(space.id)).toEqual(before);
  });
});

describe('POST /v1/spaces/{spaceId}/duplicate', () => {
  it('copies the settings under new ids, beside the original, with the title marked as a copy', async () => {
    const { admin, organization } = await organizationWith([]);
    const collection = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${organization.id}/collections`,
        headers: admin.headers,
        payload: { title: 'C' },
      })
    ).json();
    const original = (
      await createSpace(admin, organization.id, {
        title: 'Original',
        emoji: '🧭',
        parent: collection.id,
        visibility: 'share-link',
        editMode: 'locked',
      })
    ).json();
    const after = (await createSpace(admin, organization.id, { title: 'After', parent: collection.id })).json();
    await patchSpace(admin, original.id, { defaultLevel: 'comment' });
    await t.db
      .updateTable('spaces')
      .set({ comments_open_count: 2, change_requests_count: 3 })
      .where('id', '=', original.id)
      .execute();

    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${original.id}/duplicate`,
      headers: admin.headers,
    });

    expect(res.statusCode).toBe(201);
    const copy = res.json();
    expectSpecResponse('duplicateSpace', 201, copy);
    expect(res.headers.location).toBe(copy.urls.location);
    expect(copy).toMatchObject({
      title: 'Original (copy)',
      emoji: '🧭',
      parent: collection.id,
      visibility: 'share-link',
      editMode: 'locked',
      defaultLevel: 'comment',
      comments: 0,
      changeRequests: 0,
    });
    expect(copy.id).not.toBe(original.id);
    expect(copy.revision).not.toBe(original.revision);
    const [originalRow, copyRow, afterRow] = await Promise.all([
      spaceRow(original.id),
      spaceRow(copy.id),
      spaceRow(after.id),
    ]);
    expect(copyRow.share_key).not.toBe(originalRow.share_key);
    // Positions are fractional keys: they compare as strings, byte by byte.
    expect(copyRow.position > originalRow.position).toBe(true);
    expect(copyRow.position < afterRow.position).toBe(true);
  });

  it('keeps a long title within 50 characters', async () => {
    const { admin, organization } = await organizationWith([]);
    const original = (await createSpace(admin, organization.id, { title: 'x'.repeat(50) })).json();
    const copy = (
      await t.app.inject({ method: 'POST', url: `/v1/spaces/${original.id}/duplicate`, headers: admin.headers })
    ).json();
    expect(copy.title).toBe(`${'x'.repeat(43)} (copy)`);
    expect([...copy.title]).toHaveLength(50);
  });

  it('needs the create role where the copy goes, and a visible, live original', async () => {
    const { admin, organization, member } = await organizationWith(['edit']);
    const space = (await createSpace(admin, organization.id, { title: 'Source' })).json();
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/duplicate`,
      headers: member('edit').headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Duplicating a space needs the create role in the organization');
    const stranger = await t.factory.account();
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/spaces/${space.id}/duplicate`, headers: stranger.headers }))
        .statusCode,
    ).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space.id}`, headers: admin.headers });
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/spaces/${space.id}/duplicate`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      await t.db.selectFrom('spaces').select('id').where('organization_id', '=', organization.id).execute(),
    ).toHaveLength(1);
  });
});

describe('deleting and restoring', () => {
  it('soft-deletes for admins only: 205 with no body, then hidden from lists and everyone but admins', async () => {
    const { admin, organization, member } = await organizationWith(['create']);
    const space = (await createSpace(admin, organization.id, { title: 'Doomed' })).json();

    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/v1/spaces/${space.id}`,
      headers: member('create').headers,
    });
    expect(refused.statusCode).toBe(403);
    expect((await spaceRow(space.id)).deleted_at).toBeNull();

    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    expect((await spaceRow(space.id)).deleted_at).toEqual(new Date(now));

    const forAdmin = await getSpace(admin, space.id);
    expect(forAdmin.statusCode).toBe(200);
    expect(forAdmin.json().deletedAt).toBe(new Date(now).toISOString());
    expectSpecResponse('getSpaceById', 200, forAdmin.json());
    expect((await getSpace(member('create'), space.id)).statusCode).toBe(404);
    expect((await patchSpace(admin, space.id, { title: 'Zombie' })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space.id}`, headers: admin.headers })).statusCode,
    ).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/spaces`,
      headers: admin.headers,
    });
    expect(list.json()).toEqual({ count: 0, items: [] });
  });

  it('restores within the retention window and not at its end, even before any purge', async () => {
    const { admin, organization, member } = await organizationWith(['create']);
    const early = (await createSpace(admin, organization.id, { title: 'Early' })).json();
    const late = (await createSpace(admin, organization.id, { title: 'Late' })).json();
    const deletedAt = now;
    for (const space of [early, late])
      await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${space.id}`, headers: admin.headers });

    const restore = (account: Account, id: string) =>
      t.app.inject({ method: 'POST', url: `/v1/spaces/${id}/restore`, headers: account.headers });
    try {
      now = deletedAt + 7 * DAY - 3_600_000; // 6 days 23 hours
      expect((await restore(member('create'), early.id)).statusCode).toBe(404);
      const restored = await restore(admin, early.id);
      expect(restored.statusCode).toBe(200);
      expect(restored.json().deletedAt).toBeUndefined();
      expectSpecResponse('restoreSpace', 200, restored.json());
      expect((await spaceRow(early.id)).deleted_at).toBeNull();

      now = deletedAt + 7 * DAY;
      expect((await restore(admin, late.id)).statusCode).toBe(404);
      expect((await getSpace(admin, late.id)).statusCode).toBe(404);
      expect((await spaceRow(late.id)).deleted_at).not.toBeNull();

      const notDeleted = await restore(admin, early.id);
      expect(notDeleted.statusCode).toBe(409);
      expect(notDeleted.json()).toEqual({ error: { code: 409, message: 'The space is not deleted' } });
    } finally {
      now = deletedAt;
    }
  });
});

describe('GET /v1/orgs/{organizationId}/spaces', () => {
  it('lists the organization’s live spaces, newest first, with pages and counts', async () => {
    const { admin, organization, member } = await organizationWith(['read', null]);
    const titles: string[] = [];
    for (let i = 0; i < 5; i++) {
      now += 1000;
      titles.unshift((await createSpace(admin, organization.id, { title: `Space ${i}` })).json().title);
    }
    const other = await organizationWith([]);
    await createSpace(other.admin, other.organization.id, { title: 'Elsewhere' });

    const first = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/spaces?limit=3`,
      headers: member('read').headers,
    });
    expect(first.statusCode).toBe(200);
    expectSpecResponse('listSpacesInOrganizationById', 200, first.json());
    expect(first.json().count).toBe(5);
    const second = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/spaces`,
      query: { limit: '3', page: first.json().next.page },
      headers: member('read').headers,
    });
    expect([...first.json().items, ...second.json().items].map((s: { title: string }) => s.title)).toEqual(titles);
    expect(second.json().next).toBeUndefined();

    expect(
      (
        await t.app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}/spaces`, headers: member(null).headers })
      ).json(),
    ).toEqual({
      count: 0,
      items: [],
    });
    const stranger = await t.factory.account();
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}/spaces`, headers: stranger.headers }))
        .statusCode,
    ).toBe(404);
    // A page of none still asks who is reading.
    const none = (account: { headers: Record<string, string> }) =>
      t.app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}/spaces?limit=0`, headers: account.headers });
    expect((await none(stranger)).statusCode).toBe(404);
    expect((await none(member('read'))).json()).toEqual({ count: titles.length, items: [] });
    expect((await none(member(null))).json()).toEqual({ count: 0, items: [] });
  });
});

describe('GET /v1/collections/{collectionId}/spaces', () => {
  it('lists the live spaces directly in a collection, with the roles its default levels give', async () => {
    const { admin, organization, member } = await organizationWith(['read', null]);
    const newCollection = async (payload: Record<string, unknown>) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/orgs/${organization.id}/collections`,
          headers: admin.headers,
          payload,
        })
      ).json();
    const collection = await newCollection({ title: 'Parent' });
    const child = await newCollection({ title: 'Child', parent: collection.id });
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${collection.id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'edit' },
    });
    const inside = [];
    for (let i = 0; i < 3; i++) {
      now += 1000;
      inside.unshift((await createSpace(admin, organization.id, { title: `In ${i}`, parent: collection.id })).json());
    }
    await createSpace(admin, organization.id, { title: 'In the child', parent: child.id });
    await createSpace(admin, organization.id, { title: 'Top level' });
    await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${inside[2].id}`, headers: admin.headers });

    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/collections/${collection.id}/spaces`,
      headers: member('read').headers,
    });
    expect(res.statusCode).toBe(200);
    expectSpecResponse('listSpacesInCollectionById', 200, res.json());
    expect(res.json().count).toBe(2);
    expect(res.json().items.map((s: { id: string }) => s.id)).toEqual([inside[0].id, inside[1].id]);
    expect(res.json().items[0].permissions).toMatchObject({ edit: true, admin: false });

    const paged = await t.app.inject({
      method: 'GET',
      url: `/v1/collections/${collection.id}/spaces?limit=1`,
      headers: admin.headers,
    });
    expect(paged.json().items).toHaveLength(1);
    const rest = await t.app.inject({
      method: 'GET',
      url: `/v1/collections/${collection.id}/spaces`,
      query: { limit: '1', page: paged.json().next.page },
      headers: admin.headers,
    });
    expect(rest.json().items.map((s: { id: string }) => s.id)).toEqual([inside[1].id]);

    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/v1/collections/${collection.id}/spaces`,
          headers: member(null).headers,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('spaces through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('creates, reads, updates, lists, deletes and restores', async () => {
    const { admin, organization } = await organizationWith([]);
    const client = officialClient(endpoint, admin.token);

    const created = await client.orgs.createSpace(organization.id, { title: 'Client space', emoji: '📦' });
    expect(created.status).toBe(201);
    const read = await client.spaces.getSpaceById(created.data.id);
    expect(read.data.title).toBe('Client space');
    expectSpecResponse('getSpaceById', 200, read.data);

    const updated = await client.spaces.updateSpaceById(created.data.id, { title: 'Renamed', emoji: '📚' });
    expect(updated.data).toMatchObject({ title: 'Renamed', emoji: '📚' });

    const list = await client.orgs.listSpacesInOrganizationById(organization.id);
    expect(list.data.items.map((s) => s.id)).toEqual([created.data.id]);
    expectSpecResponse('listSpacesInOrganizationById', 200, list.data);

    const duplicate = await client.spaces.duplicateSpace(created.data.id);
    expect(duplicate.status).toBe(201);
    expect(duplicate.data.title).toBe('Renamed (copy)');

    // `visibility` in PATCH is this service's addition; the client's types do not know it.
    await client.spaces.updateSpaceById(created.data.id, { visibility: 'share-link' } as never);
    const { share_key: shareKey } = await spaceRow(created.data.id);
    const stranger = await t.factory.account();
    const shared = await officialClient(endpoint, stranger.token).spaces.getSpaceById(created.data.id, { shareKey });
    expect(shared.data.permissions).toMatchObject({ view: true, edit: false });
    expectSpecResponse('getSpaceById', 200, shared.data);

    const deleted = await client.spaces.deleteSpaceById(created.data.id);
    expect(deleted.status).toBe(205);
    const restored = await client.spaces.restoreSpace(created.data.id);
    expect(restored.data.deletedAt).toBeUndefined();
    expectSpecResponse('restoreSpace', 200, restored.data);
  });
});
