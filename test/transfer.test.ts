import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();

/** An admin of two organizations, each with one space already, and helpers to make content. */
async function twoOrganizations() {
  const admin = await t.factory.account();
  const source = await t.factory.organization(admin.user.id, { title: 'Source' });
  const target = await t.factory.organization(admin.user.id, { title: 'Target' });
  const post = async (url: string, payload: Record<string, unknown>) =>
    (await t.app.inject({ method: 'POST', url, headers: admin.headers, payload })).json();
  await post(`/v1/orgs/${target.id}/spaces`, { title: 'Already there' });
  return {
    admin,
    source,
    target,
    space: (title: string, extra: Record<string, unknown> = {}) =>
      post(`/v1/orgs/${source.id}/spaces`, { title, ...extra }),
    collection: (title: string, extra: Record<string, unknown> = {}) =>
      post(`/v1/orgs/${source.id}/collections`, { title, ...extra }),
  };
}

const transfer = (account: Account, kind: 'spaces' | 'collections', id: string, organization: string) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/${kind}/${id}/transfer`,
    headers: account.headers,
    payload: { organization },
  });

describe('POST /v1/spaces/{spaceId}/transfer', () => {
  it('moves the space to the top level of the target organization, last among its siblings', async () => {
    const o = await twoOrganizations();
    const box = await o.collection('Box');
    const space = await o.space('Travelling', { parent: box.id, visibility: 'in-collection' });
    await t.db.updateTable('spaces').set({ change_requests_count: 4 }).where('id', '=', space.id).execute();

    const res = await transfer(o.admin, 'spaces', space.id, o.target.id);

    expect(res.statusCode).toBe(200);
    expectSpecResponse('transferSpace', 200, res.json());
    expect(res.json()).toMatchObject({ organization: o.target.id, visibility: 'private', changeRequests: 4 });
    expect(res.json().parent).toBeUndefined();
    const rows = await t.db
      .selectFrom('spaces')
      .select(['title', 'position'])
      .where('organization_id', '=', o.target.id)
      .where('parent_id', 'is', null)
      .orderBy('position')
      .execute();
    expect(rows.map((row) => row.title)).toEqual(['Already there', 'Travelling']);
    const list = await t.app.inject({ method: 'GET', url: `/v1/orgs/${o.source.id}/spaces`, headers: o.admin.headers });
    expect(list.json().count).toBe(0);
  });

  it('refuses a target that is the same, unknown to the caller, or not theirs to administer, and changes nothing', async () => {
    const o = await twoOrganizations();
    const space = await o.space('Staying');
    const outsiderOrg = await t.factory.organization((await t.factory.user()).id);
    const readOnly = await t.factory.organization((await t.factory.user()).id);
    await t.factory.member(readOnly.id, o.admin.user.id, 'create');
    const editor = await t.factory.account();
    await t.factory.member(o.source.id, editor.user.id, 'edit');
    await t.factory.member(o.target.id, editor.user.id, 'admin');

    const cases: Array<[Account, string, number, string]> = [
      [o.admin, o.source.id, 409, 'It is already in this organization'],
      [o.admin, outsiderOrg.id, 404, `No organization "${outsiderOrg.id}" is visible to you`],
      [o.admin, readOnly.id, 403, 'Transferring needs the admin role in the target organization'],
      [editor, o.target.id, 403, 'Transferring a space needs the admin role on it'],
    ];
    for (const [account, organization, status, message] of cases) {
      const res = await transfer(account, 'spaces', space.id, organization);
      expect(res.statusCode, message).toBe(status);
      expect(res.json()).toEqual({ error: { code: status, message } });
    }
    const stranger = await t.factory.account();
    expect((await transfer(stranger, 'spaces', space.id, o.target.id)).statusCode).toBe(404);
    const row = await t.db
      .selectFrom('spaces')
      .select(['organization_id'])
      .where('id', '=', space.id)
      .executeTakeFirstOrThrow();
    expect(row.organization_id).toBe(o.source.id);
  });
});

describe('POST /v1/collections/{collectionId}/transfer', () => {
  it('carries the collection’s whole subtree, deleted spaces included, and nothing else', async () => {
    const o = await twoOrganizations();
    const top = await o.collection('Top');
    const child = await o.collection('Child', { parent: top.id });
    const spaceInTop = await o.space('In top', { parent: top.id });
    const spaceInChild = await o.space('In child', { parent: child.id, visibility: 'in-collection' });
    const deletedInChild = await o.space('Deleted in child', { parent: child.id });
    await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${deletedInChild.id}`, headers: o.admin.headers });
    const left = await o.space('Left behind');

    const res = await transfer(o.admin, 'collections', top.id, o.target.id);

    expect(res.statusCode).toBe(200);
    expectSpecResponse('transferCollection', 200, res.json());
    expect(res.json()).toMatchObject({ organization: o.target.id });
    const collections = await t.db
      .selectFrom('collections')
      .select(['id', 'organization_id', 'parent_id'])
      .where('id', 'in', [top.id, child.id])
      .execute();
    expect(collections).toEqual(
      expect.arrayContaining([
        { id: top.id, organization_id: o.target.id, parent_id: null },
        { id: child.id, organization_id: o.target.id, parent_id: top.id },
      ]),
    );
    const spaces = await t.db
      .selectFrom('spaces')
      .select(['id', 'organization_id', 'parent_id'])
      .where('id', 'in', [spaceInTop.id, spaceInChild.id, deletedInChild.id, left.id])
      .execute();
    expect(Object.fromEntries(spaces.map((s) => [s.id, [s.organization_id, s.parent_id]]))).toEqual({
      [spaceInTop.id]: [o.target.id, top.id],
      [spaceInChild.id]: [o.target.id, child.id],
      [deletedInChild.id]: [o.target.id, child.id],
      [left.id]: [o.source.id, null],
    });
  });

  it('is refused without admin on the collection', async () => {
    const o = await twoOrganizations();
    const collection = await o.collection('Kept');
    const creator = await t.factory.account();
    await t.factory.member(o.source.id, creator.user.id, 'create');
    await t.factory.member(o.target.id, creator.user.id, 'admin');
    const res = await transfer(creator, 'collections', collection.id, o.target.id);
    expect(res.statusCode).toBe(403);
    const row = await t.db
      .selectFrom('collections')
      .select('organization_id')
      .where('id', '=', collection.id)
      .executeTakeFirstOrThrow();
    expect(row.organization_id).toBe(o.source.id);
  });
});

describe('transferring through the official client', () => {
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await listen(t.app);
  });

  it('transfers a space and a collection', async () => {
    const o = await twoOrganizations();
    const client = officialClient(endpoint, o.admin.token);
    const space = await o.space('By client');
    const collection = await o.collection('By client');
    expect((await client.spaces.transferSpace(space.id, { organization: o.target.id })).data.organization).toBe(
      o.target.id,
    );
    expect(
      (await client.collections.transferCollection(collection.id, { organization: o.target.id })).data.organization,
    ).toBe(o.target.id);
  });
});
