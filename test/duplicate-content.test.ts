import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { purgeDeletedSpaces } from '../src/spaces/purge.js';
import type { Account } from './support/factory.js';
import { listen, useTestApp } from './support/app.js';
import { countStatements } from './support/statements.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const COMPUTED = {
  type: 'builtin:openapi',
  props: { models: false },
  dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
};

const duplicate = (account: Account, spaceId: string) =>
  t.app.inject({ method: 'POST', url: `/v1/spaces/${spaceId}/duplicate`, headers: account.headers });

/** A space with nested pages, a file, a computed, a group and a link page, an open change request and a comment. */
async function originalSpace() {
  const team = await t.factory.team(['read', 'create']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook' });
  const { written } = await api.change(team.admin, space.id, [
    {
      operation: 'insert_files',
      files: [{ ref: 'logo.png', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') }],
    },
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Welcome to the walrus guide.' } },
    {
      operation: 'insert_page',
      ref: 'setup',
      into: 'intro',
      title: 'Setup',
      document: { markdown: 'See [the intro](./intro.md) and ![logo](./logo.png).' },
    },
    { operation: 'insert_page', ref: 'api', type: 'computed', title: 'API', computed: COMPUTED },
    { operation: 'insert_page', ref: 'group', type: 'group', title: 'Reference', document: {} },
    {
      operation: 'insert_page',
      into: 'group',
      type: 'link',
      title: 'Home page',
      target: { kind: 'url', url: 'https://example.com' },
    },
  ]);
  const ids = Object.fromEntries(
    (written.changes as Array<{ ref?: string; page: { id: string } }>).flatMap((change) =>
      change.ref ? [[change.ref, change.page.id]] : [],
    ),
  ) as Record<'intro' | 'setup' | 'api' | 'group', string>;
  // Space variables belong to the revision.
  const head = (await api.read(team.admin, `/v1/spaces/${space.id}`)).json().revision as string;
  await t.db
    .updateTable('revisions')
    .set({ variables: JSON.stringify({ product: 'Walrus' }) })
    .where('id', '=', head)
    .execute();
  const cr = (await api.createChangeRequest(team.admin, space.id, { subject: 'Pending' })).json();
  await api.writeContent(team.admin, space.id, cr.id, [
    { operation: 'update_page', page: ids.intro, document: { markdown: 'A pending edit.' } },
  ]);
  const comment = await t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${space.id}/comments`,
    headers: team.admin.headers,
    payload: { page: ids.intro, body: { markdown: 'Nice' } },
  });
  expect(comment.statusCode).toBe(200);
  return { ...team, space, ids, fileId: written.insertedFiles[0].id as string, changeRequest: cr.id as string };
}

const documentIds = async (spaceId: string) =>
  (
    await t.db
      .selectFrom('tree_entries as e')
      .innerJoin('page_versions as pv', 'pv.id', 'e.version_id')
      .select(['pv.page_id', 'pv.document_id', 'pv.id'])
      .where('e.space_id', '=', spaceId)
      .where(sql<boolean>`e.change_request_id is null`)
      .where('e.to_seq', 'is', null)
      .where('e.kind', '=', 'page')
      .orderBy('pv.page_id')
      .execute()
  ).map((row) => ({ page: row.page_id, document: row.document_id, version: row.id }));

interface PageNode {
  id: string;
  markdown?: string;
  pages?: PageNode[];
}

/** Every page of a tree, parents first; link pages have no `pages`. */
const flatten = (pages: PageNode[]): PageNode[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

const stripUrls = (pages: Array<Record<string, unknown>>): unknown =>
  pages.map(({ urls: _urls, pages: children, ...rest }) => ({
    ...rest,
    ...(children ? { pages: stripUrls(children as Array<Record<string, unknown>>) } : {}),
  }));

describe('a duplicated space', () => {
  it('holds the original’s current content as its first revision, sharing documents and file bytes', async () => {
    const { admin, space, ids, fileId } = await originalSpace();
    const documentsBefore = await t.db.selectFrom('documents').select('id').execute();
    const blobsBefore = await t.db.selectFrom('blobs').select('sha256').execute();

    const res = await duplicate(admin, space.id);
    expect(res.statusCode).toBe(201);
    expectSpecResponse('duplicateSpace', 201, res.json());
    const copy = res.json();
    expect(copy).toMatchObject({ title: 'Handbook (copy)', comments: 0, changeRequests: 0 });

    // The same pages, under the same ids, with the same content; only where they live differs.
    const original = await api.read(admin, `/v1/spaces/${space.id}/content/pages`, { format: 'markdown' });
    const copied = await api.read(admin, `/v1/spaces/${copy.id}/content/pages`, { format: 'markdown' });
    expect(copied.statusCode).toBe(200);
    expectSpecResponse('listPages', 200, copied.json());
    expect(stripUrls(copied.json().pages)).toEqual(stripUrls(original.json().pages));
    const setup = flatten(copied.json().pages).find((page) => page.id === ids.setup)!;
    expect(setup.markdown).toBe(`See [the intro](/pages/${ids.intro}) and ![logo](/files/${fileId}).`);
    expect(copied.json().pages.map((page: { type: string }) => page.type)).toEqual(['document', 'computed', 'group']);

    const revision = await api.read(admin, `/v1/spaces/${copy.id}/content`);
    expectSpecResponse('getCurrentRevision', 200, revision.json());
    expect(revision.json()).toMatchObject({ id: copy.revision, parents: [], variables: { product: 'Walrus' } });
    expect(revision.json().files).toMatchObject([{ id: fileId, name: 'logo.png', size: PNG.length }]);
    const download = await t.app.inject({
      method: 'GET',
      url: revision.json().files[0].downloadURL.replace('http://docs.test', ''),
    });
    expect(download.rawPayload.equals(PNG)).toBe(true);
    const evaluated = await api.read(admin, `/v1/spaces/${copy.id}/content/page/${ids.intro}`, {
      format: 'markdown',
    });
    expectSpecResponse('getPageById', 200, evaluated.json());

    // Versions are the copy's own; documents and bytes are the original's.
    const [originalRows, copyRows] = await Promise.all([documentIds(space.id), documentIds(copy.id)]);
    expect(copyRows.map(({ page, document }) => ({ page, document }))).toEqual(
      originalRows.map(({ page, document }) => ({ page, document })),
    );
    expect(copyRows.filter((row) => originalRows.some((other) => other.version === row.version))).toEqual([]);
    expect(await t.db.selectFrom('documents').select('id').execute()).toHaveLength(documentsBefore.length);
    expect(await t.db.selectFrom('blobs').select('sha256').execute()).toHaveLength(blobsBefore.length);
    const copiedFile = await t.db
      .selectFrom('file_versions')
      .select(['file_id', 'sha256'])
      .where('space_id', '=', copy.id)
      .execute();
    expect(copiedFile).toEqual([{ file_id: fileId, sha256: expect.any(String) }]);

    // Its line starts there: one revision, seq 0.
    const revisions = await t.db
      .selectFrom('revisions')
      .select(['id', 'seq'])
      .where('space_id', '=', copy.id)
      .execute();
    expect(revisions).toEqual([{ id: copy.revision, seq: 0 }]);
  });

  it('copies reusable contents with documents of their own', async () => {
    const { admin, space } = await originalSpace();
    await api.change(admin, space.id, [
      { operation: 'insert_reusable_content', title: 'Snippet', document: { markdown: 'Shared words.' } },
    ]);
    const copy = (await duplicate(admin, space.id)).json();
    const versions = async (spaceId: string) =>
      t.db
        .selectFrom('tree_entries as e')
        .innerJoin('reusable_content_versions as v', 'v.id', 'e.version_id')
        .innerJoin('documents as d', 'd.id', 'v.document_id')
        .select(['v.reusable_content_id', 'v.title', 'v.document_id', 'd.space_id', 'd.markdown'])
        .where('e.space_id', '=', spaceId)
        .where(sql<boolean>`e.change_request_id is null`)
        .where('e.to_seq', 'is', null)
        .execute();
    const [original] = await versions(space.id);
    const [copied] = await versions(copy.id);
    expect(copied).toMatchObject({
      reusable_content_id: original!.reusable_content_id,
      title: 'Snippet',
      space_id: copy.id,
      markdown: original!.markdown,
    });
    expect(copied!.document_id).not.toBe(original!.document_id);
    const revision = (await api.read(admin, `/v1/spaces/${copy.id}/content`)).json();
    expect(revision.reusableContents).toMatchObject([{ id: original!.reusable_content_id, title: 'Snippet' }]);
  });

  it('leaves change requests and comments with the original, and can be searched at once', async () => {
    const { admin, space } = await originalSpace();
    const copy = (await duplicate(admin, space.id)).json();

    const changeRequests = await api.listChangeRequests(admin, copy.id, { status: 'draft' });
    expect(changeRequests.json()).toMatchObject({ count: 0, items: [] });
    const comments = await api.read(admin, `/v1/spaces/${copy.id}/comments`);
    expect(comments.json()).toMatchObject({ count: 0, items: [] });
    const counters = await t.db
      .selectFrom('spaces')
      .select(['comments_open_count', 'comments_total_count', 'change_requests_count'])
      .where('id', '=', copy.id)
      .executeTakeFirstOrThrow();
    expect(counters).toEqual({ comments_open_count: 0, comments_total_count: 0, change_requests_count: 0 });
    // The pending edit of the original's change request is not in the copy.
    const intro = (await api.read(admin, `/v1/spaces/${copy.id}/content/pages`, { format: 'markdown' })).json()
      .pages[0];
    expect(intro.markdown).toBe('Welcome to the walrus guide.');

    const found = await api.read(admin, `/v1/spaces/${copy.id}/search`, { query: 'walrus' });
    expect(found.statusCode).toBe(200);
    expect(found.json().items.map((item: { title: string }) => item.title)).toEqual(['Intro']);
  });

  it('changes apart from the original afterwards', async () => {
    const { admin, space, ids } = await originalSpace();
    const copy = (await duplicate(admin, space.id)).json();
    await api.change(admin, copy.id, [
      {
        operation: 'update_page',
        page: ids.intro,
        title: 'Copy intro',
        document: { markdown: 'Changed in the copy.' },
      },
    ]);
    const inCopy = await api.read(admin, `/v1/spaces/${copy.id}/content/page/${ids.intro}`, { format: 'markdown' });
    const inOriginal = await api.read(admin, `/v1/spaces/${space.id}/content/page/${ids.intro}`, {
      format: 'markdown',
    });
    expect(inCopy.json()).toMatchObject({ title: 'Copy intro', markdown: 'Changed in the copy.' });
    expect(inOriginal.json()).toMatchObject({ title: 'Intro', markdown: 'Welcome to the walrus guide.' });
  });

  it('keeps its content when the original is purged, and each keeps its own when one is transferred', async () => {
    const { admin, space, ids } = await originalSpace();
    const copy = (await duplicate(admin, space.id)).json();
    const second = (await duplicate(admin, copy.id)).json();
    const markdownOf = async (spaceId: string) =>
      (await api.read(admin, `/v1/spaces/${spaceId}/content/page/${ids.setup}`, { format: 'markdown' })).json()
        .markdown as string;
    const expected = await markdownOf(space.id);

    // The original leaves for another organization: documents it shares stay with the copies.
    const elsewhere = await t.factory.organization(admin.user.id);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/transfer`,
      headers: admin.headers,
      payload: { organization: elsewhere.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const spaceId of [space.id, copy.id, second.id]) expect(await markdownOf(spaceId)).toBe(expected);
    // No page version reads a document of another organization.
    const crossing = await sql<{ n: number }>`
      select count(*)::int as n from page_versions pv join documents d on d.id = pv.document_id
      where pv.organization_id <> d.organization_id`.execute(t.db);
    expect(crossing.rows[0]!.n).toBe(0);

    // The first copy is deleted and purged: the second keeps what it shared with it.
    await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${copy.id}`, headers: admin.headers });
    const later = { now: () => new Date(Date.now() + 8 * 86_400_000) };
    const purged = await purgeDeletedSpaces(t.db, later, { retentionMs: 7 * 86_400_000, batchSize: 10 });
    expect(purged.purged).toContain(copy.id);
    expect(await markdownOf(second.id)).toBe(expected);
    expect((await api.read(admin, `/v1/spaces/${second.id}/content/pages`)).json().pages).toHaveLength(3);
  });

  it('moves with its collection beside the original, each keeping its content', async () => {
    const { admin, organization } = await t.factory.team();
    const collection = await api.createCollection(admin, organization.id, { title: 'Shelf' });
    const inside = await api.createSpace(admin, organization.id, { title: 'Inside', parent: collection.id });
    await api.change(admin, inside.id, [
      { operation: 'insert_page', ref: 'p', title: 'Kept', document: { markdown: 'Travels along.' } },
    ]);
    const copy = (await duplicate(admin, inside.id)).json();
    const stays = (await duplicate(admin, inside.id)).json();
    // One copy stays behind, at the top level: the other two travel with the collection.
    await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${stays.id}/move`,
      headers: admin.headers,
      payload: { parent: null },
    });
    const elsewhere = await t.factory.organization(admin.user.id);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/collections/${collection.id}/transfer`,
      headers: admin.headers,
      payload: { organization: elsewhere.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const spaceId of [inside.id, copy.id, stays.id]) {
      const pages = (await api.read(admin, `/v1/spaces/${spaceId}/content/pages`, { format: 'markdown' })).json().pages;
      expect(pages).toMatchObject([{ title: 'Kept', markdown: 'Travels along.' }]);
    }
    const crossing = await sql<{ n: number }>`
      select count(*)::int as n from page_versions pv join documents d on d.id = pv.document_id
      where pv.organization_id <> d.organization_id`.execute(t.db);
    expect(crossing.rows[0]!.n).toBe(0);
  });

  it('copies 5,000 pages in a few statements', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Big' });
    // Written straight to the tables: 5,000 pages through the API would be 100 batches.
    await sql`
      with documents as (
        insert into documents (id, organization_id, space_id, markdown, document, outline, links, language)
        select 'doc' || n, ${organization.id}, ${space.id}, 'Page ' || n, null, null, null, null
        from generate_series(1, 5000) as n
        returning id
      ), versions as (
        insert into page_versions (id, organization_id, space_id, page_id, position, title, slug, document_id,
          page_created_at)
        select 'ver' || n, ${organization.id}, ${space.id}, 'page' || n, 'a' || lpad(n::text, 5, '0'), 'Page ' || n,
          'page-' || n, 'doc' || n, now()
        from generate_series(1, 5000) as n
        returning id, page_id
      )
      insert into tree_entries (organization_id, space_id, kind, item_id, version_id, from_seq)
      select ${organization.id}, ${space.id}, 'page', page_id, id, 0 from versions`.execute(t.db);
    // Statistics as autovacuum would leave them after such a load: the tables were last analyzed holding a few pages
    // per organization, and on those figures the planner joins 5,000 rows by scanning (minutes on a loaded machine).
    await sql`analyze documents, page_versions, tree_entries`.execute(t.db);

    const empty = await api.createSpace(admin, organization.id, { title: 'Empty' });
    const baseline = await countStatements(() => duplicate(admin, empty.id));
    const statements = await countStatements(() => duplicate(admin, space.id));
    expect(statements.result.statusCode).toBe(201);
    const copy = statements.result.json();
    // As many statements as for an empty space: none per page.
    expect(statements.count).toBe(baseline.count);
    expect(statements.count).toBeGreaterThan(0);
    expect(statements.count).toBeLessThan(30);
    const pages = (await api.read(admin, `/v1/spaces/${copy.id}/content/pages`, { format: 'markdown' })).json()
      .pages as Array<{
      id: string;
      title: string;
    }>;
    expect(pages).toHaveLength(5000);
    expect(pages[4999]).toMatchObject({ id: 'page5000', title: 'Page 5000' });
  });

  it('is made through the official client, and refused to those who may not create beside the original', async () => {
    const { admin, member, space, ids } = await originalSpace();
    const client = officialClient(await listen(t.app), admin.token);
    const { data: copy } = await client.spaces.duplicateSpace(space.id);
    const { data: pages } = await client.spaces.listPages(copy.id);
    expect(pages.pages.map((page) => page.id)).toEqual([ids.intro, ids.api, ids.group]);

    const before = await t.db.selectFrom('page_versions').select('id').execute();
    const refused = await duplicate(member('read'), space.id);
    expect(refused.statusCode).toBe(403);
    const stranger = await t.factory.account();
    expect((await duplicate(stranger, space.id)).statusCode).toBe(404);
    expect(await t.db.selectFrom('page_versions').select('id').execute()).toHaveLength(before.length);
    // A member with the create role in the organization may.
    expect((await duplicate(member('create'), space.id)).statusCode).toBe(201);
  });

  it('is of one revision of the original while merges go on', async () => {
    const { admin, space, ids } = await originalSpace();
    const cr = (await api.createChangeRequest(admin, space.id, { subject: 'Race' })).json();
    await api.writeContent(admin, space.id, cr.id, [
      { operation: 'update_page', page: ids.intro, title: 'Raced', document: { markdown: 'After the merge.' } },
      { operation: 'delete_page', page: ids.api },
    ]);
    const [merged, copied] = await Promise.all([api.merge(admin, space.id, cr.id), duplicate(admin, space.id)]);
    expect(merged.json()).toMatchObject({ result: 'merge' });
    expect(copied.statusCode).toBe(201);
    const copy = copied.json();
    const pages = (await api.read(admin, `/v1/spaces/${copy.id}/content/pages`, { format: 'markdown' })).json().pages;
    const titles = pages.map((page: { title: string }) => page.title);
    // Either before the merge or after it, never a mix.
    expect([
      ['Intro', 'API', 'Reference'],
      ['Raced', 'Reference'],
    ]).toContainEqual(titles);
    const searchRows = await t.db
      .selectFrom('search_sections')
      .select('title')
      .where('space_id', '=', copy.id)
      .where('ord', '=', 0)
      .execute();
    expect(searchRows.map((row) => row.title)).toContain(titles[0]);
  });
});
