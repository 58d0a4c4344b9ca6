import { MemberRole } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../src/db/types.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

const organizationWith = (roles: Array<Role | null>) => t.factory.team(roles);

async function create(account: Account, organizationId: string, payload: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/collections`,
    headers: account.headers,
    payload,
  });
}

async function collectionRow(id: string) {
  return t.db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('POST /v1/orgs/{organizationId}/collections', () => {
  it('creates a top-level collection and answers 201 with every field and a Location header', async () => {
    const { admin, organization } = await organizationWith([]);

    const res = await create(admin, organization.id, { title: 'Guides' });

    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      object: 'collection',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      title: 'Guides',
      organization: organization.id,
      defaultLevel: 'inherit',
      urls: {
        location: `${PUBLIC_URL}/v1/collections/${body.id}`,
        app: `${PUBLIC_URL}/app/o/${organization.id}/c/${body.id}`,
      },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    expect(res.headers.location).toBe(body.urls.location);
    expectSpecResponse('getCollectionById', 200, body);
    expect(await collectionRow(body.id)).toMatchObject({
      organization_id: organization.id,
      parent_id: null,
      title: 'Guides',
    });
  });

  it('names an untitled collection "Untitled" and nests one under a parent', async () => {
    const { admin, organization } = await organizationWith([]);
    const parent = (await create(admin, organization.id)).json();
    expect(parent.title).toBe('Untitled');

    const child = await create(admin, organization.id, { title: 'Child', parent: parent.id });
    expect(child.statusCode).toBe(201);
    expect(child.json().parent).toBe(parent.id);
  });

  it('needs the create role in the organization, or on the parent collection', async () => {
    const { admin, organization, member } = await organizationWith(['edit', 'create', 'read']);
    const parent = (await create(admin, organization.id, { title: 'Parent' })).json();

    const refused = await create(member('edit'), organization.id, { title: 'Nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: { code: 403, message: 'Creating a collection needs the create role in the organization' },
    });
    expect((await create(member('create'), organization.id, { title: 'Yes' })).statusCode).toBe(201);

    // A default level of `create` on the parent lets an editor create inside it, and only there.
    const inside = await create(member('edit'), organization.id, { title: 'Inside', parent: parent.id });
    expect(inside.statusCode).toBe(403);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${parent.id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'create' },
    });
    expect((await create(member('edit'), organization.id, { title: 'Inside', parent: parent.id })).statusCode).toBe(
      201,
    );
    expect((await create(member('read'), organization.id, { title: 'Reader', parent: parent.id })).statusCode).toBe(
      201,
    );

    const titles = await t.db
      .selectFrom('collections')
      .select('title')
      .where('organization_id', '=', organization.id)
      .execute();
    expect(titles.map((r) => r.title).sort()).toEqual(['Inside', 'Parent', 'Reader', 'Yes']);
  });

  it('refuses a parent from another organization or that does not exist, creating nothing', async () => {
    const { admin, organization } = await organizationWith([]);
    const other = await organizationWith([]);
    const foreign = (await create(other.admin, other.organization.id, { title: 'Foreign' })).json();
    await t.factory.member(other.organization.id, admin.user.id, 'admin');

    for (const parent of [foreign.id, 'AAAAAAAAAAAAAAAAAAAA']) {
      const res = await create(admin, organization.id, { title: 'Misplaced', parent });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(`body/parent: no collection "${parent}" in this organization`);
    }
    expect(
      await t.db.selectFrom('collections').select('id').where('organization_id', '=', organization.id).execute(),
    ).toEqual([]);
  });

  it('refuses bad bodies with 400', async () => {
    const { admin, organization } = await organizationWith([]);
    for (const [payload, message] of [
      [{ title: 'x'.repeat(51) }, /^body\/title must NOT have more than 50 characters$/],
      [{ title: 7 }, /^body\/title must be string$/],
      [{ parent: '' }, /^body\/parent must NOT have fewer than 1 characters$/],
      [{ description: 'not here' }, /^body\/description is not an accepted field$/],
    ] as const) {
      const res = await create(admin, organization.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
  });

  it('is a 404 outside the organization', async () => {
    const { organization } = await organizationWith([]);
    const stranger = await t.factory.account();
    const res = await create(stranger, organization.id, { title: 'Intruder' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 404, message: 'No organization with this id is visible to you' } });
  });
});

describe('GET /v1/collections/{collectionId}', () => {
  it('computes the caller’s role from the organization and the default levels up the tree', async () => {
    const { admin, organization, member } = await organizationWith(['read', null]);
    const top = (await create(admin, organization.id, { title: 'Top' })).json();
    const middle = (await create(admin, organization.id, { title: 'Middle', parent: top.id })).json();
    const leaf = (await create(admin, organization.id, { title: 'Leaf', parent: middle.id })).json();

    const permissionsOf = async (account: Account, id: string) =>
      (await t.app.inject({ method: 'GET', url: `/v1/collections/${id}`, headers: account.headers })).json()
        .permissions;

    expect(await permissionsOf(member('read'), leaf.id)).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false,
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${top.id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'admin' },
    });
    // `admin` at the top reaches every descendant, whatever their own levels say.
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${middle.id}`,
      headers: admin.headers,
      payload: { defaultLevel: null },
    });
    expect(await permissionsOf(member('read'), leaf.id)).toEqual({
      view: true,
      admin: true,
      viewInviteLinks: true,
      create: true,
    });
    expect(await permissionsOf(member('read'), top.id)).toMatchObject({ admin: true });

    // Guests get nothing from default levels.
    const guest = await t.app.inject({
      method: 'GET',
      url: `/v1/collections/${leaf.id}`,
      headers: member(null).headers,
    });
    expect(guest.statusCode).toBe(404);
  });

  it('is a 404 for another organization’s collection, exactly as for an unknown id', async () => {
    const { admin, organization } = await organizationWith([]);
    const collection = (await create(admin, organization.id, { title: 'Private' })).json();
    const stranger = await t.factory.account();

    const foreign = await t.app.inject({
      method: 'GET',
      url: `/v1/collections/${collection.id}`,
      headers: stranger.headers,
    });
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/v1/collections/AAAAAAAAAAAAAAAAAAAA',
      headers: stranger.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 404, message: 'No collection with this id is visible to you' } });
    expect(unknown.json()).toEqual(foreign.json());
  });
});

describe('PATCH /v1/collections/{collectionId}', () => {
  it('updates title, description and default level', async () => {
    const { admin, organization } = await organizationWith([]);
    const collection = (await create(admin, organization.id, { title: 'Before' })).json();

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${collection.id}`,
      headers: admin.headers,
      payload: { title: 'After', description: 'd'.repeat(100), defaultLevel: 'comment' },
    });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'After', description: 'd'.repeat(100), defaultLevel: 'comment' });
    expectSpecResponse('updateCollectionById', 200, res.json());
    expect(await collectionRow(collection.id)).toMatchObject({
      title: 'After',
      description: 'd'.repeat(100),
      default_level: 'comment',
    });

    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${collection.id}`,
      headers: admin.headers,
      payload: { description: null },
    });
    expect(cleared.json().description).toBeUndefined();
    expect(cleared.json().title).toBe('After');
  });

  it.each([
    ['a title over 50 characters', { title: 'x'.repeat(51) }, /^body\/title must NOT have more than 50 characters$/],
    [
      'a description over 100 characters',
      { description: 'x'.repeat(101) },
      /^body\/description must NOT have more than 100 characters$/,
    ],
    ['an unknown default level', { defaultLevel: 'owner' }, /^body\/defaultLevel must be one of: .*"inherit", null$/],
    ['an unknown field', { parent: 'x' }, /^body\/parent is not an accepted field$/],
  ])('refuses %s with 400 and changes nothing', async (_case, payload, message) => {
    const { admin, organization } = await organizationWith([]);
    const collection = (await create(admin, organization.id, { title: 'Kept' })).json();
    const before = await collectionRow(collection.id);

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${collection.id}`,
      headers: admin.headers,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(message);
    expect(await collectionRow(collection.id)).toEqual(before);
  });

  it('is refused with 403 to a member without admin on the collection, and changes nothing', async () => {
    const { admin, organization, member } = await organizationWith(['create']);
    const collection = (await create(admin, organization.id, { title: 'Kept' })).json();

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${collection.id}`,
      headers: member('create').headers,
      payload: { title: 'Taken' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: { code: 403, message: 'Only admins of a collection can update it' } });
    expect((await collectionRow(collection.id)).title).toBe('Kept');
  });
});

describe('DELETE /v1/collections/{collectionId}', () => {
  it('deletes the collection and those under it, and deletes their spaces restorably at the top level', async () => {
    const { admin, organization, member } = await organizationWith(['create']);
    const top = (await create(admin, organization.id, { title: 'Top' })).json();
    const child = (await create(admin, organization.id, { title: 'Child', parent: top.id })).json();
    const sibling = (await create(admin, organization.id, { title: 'Sibling' })).json();
    const space = async (payload: Record<string, unknown>) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/orgs/${organization.id}/spaces`,
          headers: admin.headers,
          payload,
        })
      ).json();
    const inTop = await space({ title: 'In top', parent: top.id, visibility: 'in-collection' });
    const inChild = await space({ title: 'In child', parent: child.id });
    const inSibling = await space({ title: 'In sibling', parent: sibling.id });

    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/v1/collections/${top.id}`,
      headers: member('create').headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(
      await t.db.selectFrom('collections').select('id').where('organization_id', '=', organization.id).execute(),
    ).toHaveLength(3);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/collections/${top.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');

    const collections = await t.db
      .selectFrom('collections')
      .select('id')
      .where('organization_id', '=', organization.id)
      .execute();
    expect(collections.map((c) => c.id)).toEqual([sibling.id]);
    const spaces = await t.db.selectFrom('spaces').selectAll().where('organization_id', '=', organization.id).execute();
    const state = Object.fromEntries(
      spaces.map((s) => [s.id, { parent: s.parent_id, deleted: s.deleted_at !== null, visibility: s.visibility }]),
    );
    expect(state).toEqual({
      [inTop.id]: { parent: null, deleted: true, visibility: 'private' },
      [inChild.id]: { parent: null, deleted: true, visibility: 'private' },
      [inSibling.id]: { parent: sibling.id, deleted: false, visibility: 'private' },
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/collections/${child.id}`, headers: admin.headers })).statusCode,
    ).toBe(404);

    const restored = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${inTop.id}/restore`,
      headers: admin.headers,
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().parent).toBeUndefined();
  });

  it('is a 404 to a stranger and changes nothing', async () => {
    const { admin, organization } = await organizationWith([]);
    const collection = (await create(admin, organization.id, { title: 'Kept' })).json();
    const stranger = await t.factory.account();
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/collections/${collection.id}`, headers: stranger.headers }))
        .statusCode,
    ).toBe(404);
    expect(await collectionRow(collection.id)).toMatchObject({ title: 'Kept' });
  });
});

describe('GET /v1/orgs/{organizationId}/collections', () => {
  it('lists all collections, or only the top-level ones, newest first, with counts and pages', async () => {
    const { admin, organization, member } = await organizationWith(['read', null]);
    const top = [];
    for (let i = 0; i < 3; i++) top.push((await create(admin, organization.id, { title: `Top ${i}` })).json());
    const nested = (await create(admin, organization.id, { title: 'Nested', parent: top[0].id })).json();
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${top[0].id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'edit' },
    });
    const elsewhere = await organizationWith([]);
    await create(elsewhere.admin, elsewhere.organization.id, { title: 'Other organization' });

    const all = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/collections`,
      headers: member('read').headers,
    });
    expect(all.statusCode).toBe(200);
    expectSpecResponse('listCollectionsInOrganizationById', 200, all.json());
    expect(all.json().count).toBe(4);
    expect(all.json().items.map((c: { title: string }) => c.title)).toEqual(['Nested', 'Top 2', 'Top 1', 'Top 0']);
    // The nested collection inherits `edit` from its parent: more than the member's `read`, less than create.
    expect(all.json().items[0].permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false,
    });
    expect(all.json().items[0].id).toBe(nested.id);

    const topLevel = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/collections?nested=false&limit=2`,
      headers: admin.headers,
    });
    expect(topLevel.json().count).toBe(3);
    expect(topLevel.json().items.map((c: { title: string }) => c.title)).toEqual(['Top 2', 'Top 1']);
    const next = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/collections`,
      query: { nested: 'false', limit: '2', page: topLevel.json().next.page },
      headers: admin.headers,
    });
    expect(next.json().items.map((c: { title: string }) => c.title)).toEqual(['Top 0']);
    expect(next.json().next).toBeUndefined();

    // A cursor of the top-level list is not one of the full list.
    const mixed = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/collections`,
      query: { limit: '2', page: topLevel.json().next.page },
      headers: admin.headers,
    });
    expect(mixed.statusCode).toBe(400);

    const guest = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/collections`,
      headers: member(null).headers,
    });
    expect(guest.json()).toEqual({ count: 0, items: [] });
    const stranger = await t.factory.account();
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}/collections`, headers: stranger.headers }))
        .statusCode,
    ).toBe(404);
  });
});

describe('collections through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('creates, reads, updates and lists', async () => {
    const { admin, organization } = await organizationWith([]);
    const client = officialClient(endpoint, admin.token);

    const created = await client.orgs.createCollection(organization.id, { title: 'From the client' });
    expect(created.status).toBe(201);
    const read = await client.collections.getCollectionById(created.data.id);
    expect(read.data.title).toBe('From the client');
    expectSpecResponse('getCollectionById', 200, read.data);

    const updated = await client.collections.updateCollectionById(created.data.id, {
      description: 'Described',
      defaultLevel: MemberRole.Read,
    });
    expect(updated.data).toMatchObject({ description: 'Described', defaultLevel: MemberRole.Read });
    expectSpecResponse('updateCollectionById', 200, updated.data);

    const list = await client.orgs.listCollectionsInOrganizationById(organization.id, { nested: false });
    expect(list.data.items.map((c) => c.id)).toEqual([created.data.id]);
    expectSpecResponse('listCollectionsInOrganizationById', 200, list.data);

    const space = await client.orgs.createSpace(organization.id, { title: 'Inside', parent: created.data.id });
    const spaces = await client.collections.listSpacesInCollectionById(created.data.id);
    expect(spaces.data.items.map((s) => s.id)).toEqual([space.data.id]);
    expectSpecResponse('listSpacesInCollectionById', 200, spaces.data);

    const deleted = await client.collections.deleteCollectionById(created.data.id);
    expect(deleted.status).toBe(205);
    expect(await t.db.selectFrom('collections').select('id').where('id', '=', created.data.id).execute()).toEqual([]);
  });
});
