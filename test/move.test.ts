import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../src/db/types.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

async function organizationWith(roles: Role[]) {
  const { admin, organization, member } = await t.factory.team(roles);
  const post = async (url: string, payload: Record<string, unknown>) =>
    (await t.app.inject({ method: 'POST', url, headers: admin.headers, payload })).json();
  return {
    admin,
    organization,
    member,
    space: (title: string, extra: Record<string, unknown> = {}) =>
      post(`/v1/orgs/${organization.id}/spaces`, { title, ...extra }),
    collection: (title: string, extra: Record<string, unknown> = {}) =>
      post(`/v1/orgs/${organization.id}/collections`, { title, ...extra }),
  };
}

/** Titles of the spaces and collections under a parent, in their order. */
async function orderUnder(organizationId: string, parentId: string | null): Promise<string[]> {
  const { rows } = await sql<{ title: string }>`
    select title, position, id from spaces where organization_id = ${organizationId} and parent_id is not distinct from ${parentId} and deleted_at is null
    union all
    select title, position, id from collections where organization_id = ${organizationId} and parent_id is not distinct from ${parentId}
    order by position, id`.execute(t.db);
  return rows.map((row) => row.title);
}

const moveSpace = (account: Account, id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/v1/spaces/${id}/move`, headers: account.headers, payload });
const moveCollection = (account: Account, id: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/v1/collections/${id}/move`, headers: account.headers, payload });
const spaceAt = (id: string) => ({ type: 'space', space: id });
const collectionAt = (id: string) => ({ type: 'collection', collection: id });

describe('POST /v1/spaces/{spaceId}/move', () => {
  it('orders siblings with before and after, spaces and collections together', async () => {
    const o = await organizationWith([]);
    const a = await o.space('A');
    const b = await o.space('B');
    const c = await o.collection('C');
    const d = await o.space('D');
    expect(await orderUnder(o.organization.id, null)).toEqual(['A', 'B', 'C', 'D']);

    const moved = await moveSpace(o.admin, d.id, { position: { before: spaceAt(a.id) } });
    expect(moved.statusCode).toBe(200);
    expectSpecResponse('moveSpace', 200, moved.json());
    expect(await orderUnder(o.organization.id, null)).toEqual(['D', 'A', 'B', 'C']);

    await moveSpace(o.admin, a.id, { position: { after: collectionAt(c.id) } });
    expect(await orderUnder(o.organization.id, null)).toEqual(['D', 'B', 'C', 'A']);

    await moveSpace(o.admin, a.id, { position: { after: spaceAt(d.id), before: spaceAt(b.id) } });
    expect(await orderUnder(o.organization.id, null)).toEqual(['D', 'A', 'B', 'C']);

    // Between two that are not neighbours is still between them.
    await moveSpace(o.admin, b.id, { position: { after: spaceAt(d.id), before: collectionAt(c.id) } });
    const order = await orderUnder(o.organization.id, null);
    expect(order.indexOf('B')).toBeGreaterThan(order.indexOf('D'));
    expect(order.indexOf('B')).toBeLessThan(order.indexOf('C'));
  });

  it('moves into a collection, to the end by default, and out again, where in-collection becomes private', async () => {
    const o = await organizationWith([]);
    const collection = await o.collection('Box');
    const first = await o.space('First', { parent: collection.id });
    const space = await o.space('Mover', { parent: collection.id, visibility: 'in-collection' });
    await moveSpace(o.admin, space.id, { position: { before: spaceAt(first.id) } });
    expect(await orderUnder(o.organization.id, collection.id)).toEqual(['Mover', 'First']);

    const out = await moveSpace(o.admin, space.id, { parent: null });
    expect(out.statusCode).toBe(200);
    expect(out.json().parent).toBeUndefined();
    expect(out.json().visibility).toBe('private');
    expect(await orderUnder(o.organization.id, null)).toEqual(['Box', 'Mover']);

    const back = await moveSpace(o.admin, space.id, { parent: collection.id });
    expect(back.json().parent).toBe(collection.id);
    expect(await orderUnder(o.organization.id, collection.id)).toEqual(['First', 'Mover']);
  });

  it('keeps the order exact after many moves into the same gap', async () => {
    const o = await organizationWith([]);
    const low = await o.space('Low');
    await o.space('High');
    const movers = [];
    for (let i = 0; i < 5; i++) movers.push(await o.space(`M${i}`));
    // Each move halves the gap just above Low, far below double precision's resolution.
    for (let round = 0; round < 12; round++) {
      for (const mover of movers) await moveSpace(o.admin, mover.id, { position: { after: spaceAt(low.id) } });
    }
    const order = await orderUnder(o.organization.id, null);
    expect(order).toEqual(['Low', 'M4', 'M3', 'M2', 'M1', 'M0', 'High']);
  });

  it('refuses impossible positions and destinations with 400, and changes nothing', async () => {
    const o = await organizationWith([]);
    const a = await o.space('A');
    const b = await o.space('B');
    const box = await o.collection('Box');
    const inBox = await o.space('In box', { parent: box.id });
    const before = await t.db
      .selectFrom('spaces')
      .select(['id', 'parent_id', 'position'])
      .where('organization_id', '=', o.organization.id)
      .execute();

    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^body must NOT have fewer than 1 properties$/],
      [
        { position: { before: spaceAt(b.id), after: spaceAt(b.id) } },
        /^body\/position: `after` must come before `before`/,
      ],
      [
        { position: { after: collectionAt(box.id), before: spaceAt(b.id) } },
        /^body\/position: `after` must come before `before`/,
      ],
      [
        { position: { before: spaceAt(inBox.id) } },
        /^body\/position\/before: no space ".+" beside it at its destination$/,
      ],
      [{ position: { before: spaceAt(a.id) } }, /^body\/position\/before: no space ".+" beside it at its destination$/],
      [{ parent: 'AAAAAAAAAAAAAAAAAAAA' }, /^body\/parent: no collection "AAAAAAAAAAAAAAAAAAAA" in this organization$/],
      [{ position: { before: { type: 'page', page: 'x' } } }, /^body\/position\/before/],
    ];
    for (const [payload, message] of cases) {
      const res = await moveSpace(o.admin, a.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    const after = await t.db
      .selectFrom('spaces')
      .select(['id', 'parent_id', 'position'])
      .where('organization_id', '=', o.organization.id)
      .execute();
    expect(after).toEqual(before);
  });

  it('needs admin on the space and the create role where it goes', async () => {
    const o = await organizationWith(['create', 'edit']);
    const box = await o.collection('Box');
    const mine = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${o.organization.id}/spaces`,
        headers: o.member('create').headers,
        payload: { title: 'Mine' },
      })
    ).json();
    const theirs = await o.space('Theirs');

    const editor = await moveSpace(o.member('edit'), theirs.id, { parent: box.id });
    expect(editor.statusCode).toBe(403);
    expect(editor.json().error.message).toBe('Moving a space needs the admin role on it');

    // The creator of a space is not its admin under the role model: creators hold `create`.
    expect((await moveSpace(o.member('create'), mine.id, { parent: box.id })).statusCode).toBe(403);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${mine.id}`,
      headers: o.admin.headers,
      payload: { defaultLevel: 'admin' },
    });
    expect((await moveSpace(o.member('create'), mine.id, { parent: box.id })).statusCode).toBe(200);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${box.id}`,
      headers: o.admin.headers,
      payload: { defaultLevel: 'read' },
    });
    const outOfBox = await moveSpace(o.member('edit'), mine.id, { parent: null });
    expect(outOfBox.statusCode).toBe(403);
  });
});

describe('POST /v1/collections/{collectionId}/move', () => {
  it('moves a collection with what is inside it, but never into itself or its own sub-collections', async () => {
    const o = await organizationWith([]);
    const top = await o.collection('Top');
    const child = await o.collection('Child', { parent: top.id });
    const grandchild = await o.collection('Grandchild', { parent: child.id });
    const other = await o.collection('Other');
    await o.space('Inside', { parent: child.id });

    for (const parent of [top.id, child.id, grandchild.id]) {
      const res = await moveCollection(o.admin, top.id, { parent });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(
        'body/parent: a collection cannot move into itself or one of its sub-collections',
      );
    }
    expect(
      (await t.db.selectFrom('collections').select('parent_id').where('id', '=', top.id).executeTakeFirstOrThrow())
        .parent_id,
    ).toBeNull();

    const moved = await moveCollection(o.admin, child.id, { parent: other.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().parent).toBe(other.id);
    expectSpecResponse('moveCollection', 200, moved.json());
    expect(await orderUnder(o.organization.id, other.id)).toEqual(['Child']);
    expect(await orderUnder(o.organization.id, child.id)).toEqual(['Grandchild', 'Inside']);

    const reordered = await moveCollection(o.admin, other.id, { position: { before: collectionAt(top.id) } });
    expect(reordered.statusCode).toBe(200);
    expect(await orderUnder(o.organization.id, null)).toEqual(['Other', 'Top']);
  });
});

describe('moving through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('moves a space and a collection', async () => {
    const o = await organizationWith([]);
    const client = officialClient(endpoint, o.admin.token);
    const box = await o.collection('Box');
    const space = await o.space('Space');
    const shelf = await o.collection('Shelf');

    const moved = await client.spaces.moveSpace(space.id, { parent: box.id });
    expect(moved.data.parent).toBe(box.id);
    const collection = await client.collections.moveCollection(shelf.id, { parent: box.id });
    expect(collection.data.parent).toBe(box.id);
    expect(await orderUnder(o.organization.id, box.id)).toEqual(['Space', 'Shelf']);
  });
});
