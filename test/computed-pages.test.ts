import { describe, expect, it } from 'vitest';
import { newId } from '../src/core/ids.js';
import type { Db } from '../src/db/database.js';
import { createSpecProcessor } from '../src/specs/worker.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import { eventually, useOutsideDb } from './support/outside.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);
const outside = useOutsideDb(() => t.database.url);

const source = (spec: string, models = false) => ({
  type: 'builtin:openapi',
  props: { models },
  dependencies: { spec: { ref: { kind: 'openapi', spec } } },
});

async function spaceWithComputedPage(spec = 'petstore', models = false) {
  const { admin, organization } = await t.factory.team();
  const space = await api.createSpace(admin, organization.id);
  const { written } = await api.change(admin, space.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'Read the API reference.' } },
    { operation: 'insert_page', ref: 'api', type: 'computed', title: 'API reference', computed: source(spec, models) },
  ]);
  const pageId = (written.changes as Array<{ object: string; page: { id: string }; ref?: string }>).find(
    (change) => change.ref === 'api',
  )!.page.id;
  return { admin, organization, space, pageId };
}

const PETSTORE_OUTLINE = {
  info: { title: 'Petstore', version: '1.0.0', description: 'Pets, *sold*.' },
  tags: [{ name: 'pets', description: 'Everything about pets' }, { name: 'store' }],
  operations: [
    { path: '/pets', method: 'get', operationId: 'listPets', summary: 'List pets', tags: ['pets'], deprecated: false },
    {
      path: '/pets',
      method: 'post',
      operationId: 'createPet',
      summary: 'Create a pet',
      description: 'Adds a pet to the store.',
      tags: ['pets'],
      deprecated: true,
    },
    { path: '/orders/{id}', method: 'get', tags: ['store'], deprecated: false },
    { path: '/health', method: 'get', summary: 'Health', tags: [], deprecated: false },
  ],
  operationCount: 4,
};

/** A spec of the organization with one processed version, stored as the spec worker stores it. */
async function storeSpecVersion(
  organizationId: string,
  slug: string,
  outline: object,
  specId = newId(),
  db: Db = t.db,
) {
  const now = new Date();
  const existing = await db.selectFrom('openapi_specs').select('id').where('id', '=', specId).executeTakeFirst();
  if (!existing) {
    await db
      .insertInto('openapi_specs')
      .values({
        id: specId,
        organization_id: organizationId,
        slug,
        source_url: null,
        source_text: '{}',
        last_version_id: null,
        last_processed_at: null,
        last_process_error_code: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  const versionId = newId();
  await db
    .insertInto('openapi_spec_versions')
    .values({
      id: versionId,
      organization_id: organizationId,
      spec_id: specId,
      source_url: null,
      content_hash: newId(),
      entry_text: '{}',
      entry_format: 'json',
      filesystem: '{}',
      outline: JSON.stringify(outline),
      created_at: now,
    })
    .execute();
  await db
    .updateTable('openapi_specs')
    .set({ last_version_id: versionId, processing_state: 'complete', last_processed_at: now })
    .where('id', '=', specId)
    .execute();
  return { specId, versionId };
}

describe('computed pages', () => {
  it('are written with their source and read as written with computed=false', async () => {
    const { admin, space, pageId } = await spaceWithComputedPage();
    const stored = await t.db
      .selectFrom('page_versions')
      .select(['type', 'computed', 'document_id'])
      .where('page_id', '=', pageId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ type: 'computed', computed: source('petstore'), document_id: null });

    for (const url of [`/v1/spaces/${space.id}/content`, `/v1/spaces/${space.id}/content/pages`]) {
      const res = await api.read(admin, url, { computed: 'false' });
      expect(res.statusCode).toBe(200);
      const page = (res.json().pages as Array<Record<string, unknown>>)[1]!;
      expect(page).toMatchObject({
        id: pageId,
        title: 'API reference',
        type: 'computed',
        computed: source('petstore'),
        slug: 'api-reference',
        path: 'api-reference',
        pages: [],
      });
      expect(page).not.toHaveProperty('markdown');
      if (url.endsWith('/content')) expectSpecResponse('getCurrentRevision', 200, res.json());
      else expectSpecResponse('listPages', 200, res.json());
    }
    const one = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pageId}`, { computed: 'false' });
    expect(one.statusCode).toBe(200);
    expectSpecResponse('getPageById', 200, one.json());
    expect(one.json()).toMatchObject({ id: pageId, type: 'computed', computed: source('petstore') });
    expect(one.json()).not.toHaveProperty('document');
  });

  it('whose spec has no version yet are shown as written, also with computed=true', async () => {
    const { admin, space, pageId } = await spaceWithComputedPage('not-there');
    const res = await api.read(admin, `/v1/spaces/${space.id}/content`);
    expect(res.statusCode).toBe(200);
    expectSpecResponse('getCurrentRevision', 200, res.json());
    expect(res.json().pages[1]).toMatchObject({ id: pageId, type: 'computed' });
    const one = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pageId}`);
    expect(one.json()).toMatchObject({ id: pageId, type: 'computed' });
  });

  it('refuse what a computed page cannot be, and change nothing', async () => {
    const { admin, space, pageId } = await spaceWithComputedPage();
    const cr = (await api.createChangeRequest(admin, space.id, { subject: 'Bad' })).json().id as string;
    const [guide] = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages as Array<{
      id: string;
    }>;
    const cases: Array<[unknown, RegExp]> = [
      [{ operation: 'insert_page', title: 'X', type: 'computed' }, /computed is required/],
      [{ operation: 'insert_page', title: 'X', computed: source('petstore') }, /computed goes with type computed/],
      [
        {
          operation: 'insert_page',
          title: 'X',
          type: 'computed',
          computed: source('petstore'),
          document: { markdown: 'x' },
        },
        /no document of its own/,
      ],
      [{ operation: 'insert_page', title: 'X' }, /document is required/],
      [{ operation: 'insert_page', title: 'X', document: { markdown: 'x' }, into: pageId }, /is computed/],
      [{ operation: 'update_page', page: guide!.id, computed: source('other') }, /only a computed page/],
      [{ operation: 'update_page', page: pageId, document: { markdown: 'x' } }, /no document of its own/],
      [{ operation: 'insert_page', title: 'X', type: 'computed', computed: source('Not A Slug') }, /spec/],
      [
        {
          operation: 'insert_page',
          title: 'X',
          type: 'computed',
          computed: { ...source('a'), type: 'builtin:translation' },
        },
        /type/,
      ],
    ];
    const revisionBefore = (await api.getChangeRequest(admin, space.id, cr)).json().revision;
    for (const [change, message] of cases) {
      const res = await api.writeContent(admin, space.id, cr, [change]);
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await api.getChangeRequest(admin, space.id, cr)).json().revision).toBe(revisionBefore);
  });

  it('can have their source and title changed', async () => {
    const { admin, space, pageId } = await spaceWithComputedPage();
    await api.change(admin, space.id, [
      { operation: 'update_page', page: pageId, title: 'Reference', computed: source('billing', true) },
    ]);
    const one = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pageId}`, { computed: 'false' });
    expect(one.json()).toMatchObject({ title: 'Reference', type: 'computed', computed: source('billing', true) });
  });

  it('show the operations of their spec’s latest version with computed=true', async () => {
    const { admin, organization, space, pageId } = await spaceWithComputedPage('petstore');
    const { specId, versionId } = await storeSpecVersion(organization.id, 'petstore', PETSTORE_OUTLINE);

    const revision = await api.read(admin, `/v1/spaces/${space.id}/content`);
    expect(revision.statusCode).toBe(200);
    expectSpecResponse('getCurrentRevision', 200, revision.json());
    const reference = revision.json().pages[1];
    const dependency = {
      ref: { kind: 'openapi', spec: 'petstore' },
      value: { object: 'openapi-spec', id: specId, slug: 'petstore', lastVersion: versionId },
    };
    expect(reference).toMatchObject({
      id: pageId,
      title: 'API reference',
      type: 'document',
      path: 'api-reference',
      computed: {
        type: 'builtin:openapi',
        props: { doc: 'info', page: 'API reference' },
        dependencies: { spec: dependency },
      },
    });
    expect(reference).not.toHaveProperty('documentId');
    expect(reference.markdown).toContain('Petstore');
    expect(reference.markdown).toContain('Pets, *sold*.');
    const children = reference.pages as Array<Record<string, unknown>>;
    expect(children.map((child) => [child.title, child.path, (child.computed as { props: unknown }).props])).toEqual([
      ['pets', 'api-reference/pets', { doc: 'operations', page: 'pets' }],
      ['store', 'api-reference/store', { doc: 'operations', page: 'store' }],
      ['Other operations', 'api-reference/other-operations', { doc: 'operations', page: 'Other operations' }],
    ]);
    const pets = children[0]!;
    expect(pets.markdown).toContain('Everything about pets');
    expect(pets.markdown).toContain('## List pets');
    expect(pets.markdown).toContain('GET /pets');
    expect(pets.markdown).toContain('POST /pets');
    expect(pets.markdown).toContain('Deprecated.');
    expect(pets.markdown).toContain('Adds a pet to the store.');
    expect(children[1]!.markdown).toContain('GET /orders/{id}');

    // The same tree through the page list, and a generated page by id in both forms.
    const pages = await api.read(admin, `/v1/spaces/${space.id}/content/pages`);
    expectSpecResponse('listPages', 200, pages.json());
    expect(pages.json().pages[1].pages.map((child: { id: string }) => child.id)).toEqual(
      children.map((child) => child.id),
    );
    const asDocument = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pets.id as string}`);
    expect(asDocument.statusCode).toBe(200);
    expectSpecResponse('getPageById', 200, asDocument.json());
    expect(asDocument.json()).toMatchObject({ id: pets.id, title: 'pets', computed: pets.computed });
    expect(asDocument.json()).not.toHaveProperty('computedSeed');
    expect(JSON.stringify(asDocument.json().document)).toContain('List pets');
    const asMarkdown = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pets.id as string}`, {
      format: 'markdown',
    });
    expect(asMarkdown.json().markdown).toBe(pets.markdown);
    const root = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pageId}`);
    expectSpecResponse('getPageById', 200, root.json());
    expect(root.json().pages).toHaveLength(3);
    // Generated pages are not there when computed pages are shown as written.
    expect(
      (await api.read(admin, `/v1/spaces/${space.id}/content/page/${pets.id as string}`, { computed: 'false' }))
        .statusCode,
    ).toBe(404);
  });

  it('follow a new version of their spec, keeping the ids of the pages that stay', async () => {
    const { admin, organization, space } = await spaceWithComputedPage('petstore', true);
    const { specId } = await storeSpecVersion(organization.id, 'petstore', PETSTORE_OUTLINE);
    const first = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages[1];
    const changed = {
      ...PETSTORE_OUTLINE,
      tags: [...PETSTORE_OUTLINE.tags, { name: 'users' }],
      operations: [
        ...PETSTORE_OUTLINE.operations,
        { path: '/users', method: 'get', tags: ['users'], deprecated: false },
      ],
    };
    const { versionId } = await storeSpecVersion(organization.id, 'petstore', changed, specId);
    const second = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages[1];
    expect(second.computed.dependencies.spec.value.lastVersion).toBe(versionId);
    expect(second.pages.map((page: { title: string }) => page.title)).toEqual([
      'pets',
      'store',
      'users',
      'Other operations',
    ]);
    const idOf = (tree: { pages: Array<{ title: string; id: string }> }, title: string) =>
      tree.pages.find((page) => page.title === title)!.id;
    expect(idOf(second, 'pets')).toBe(idOf(first, 'pets'));
    expect(idOf(second, 'store')).toBe(idOf(first, 'store'));
  });

  it('read by id, follow a new version of their spec stored by another process, though their answer is kept', async () => {
    const { admin, organization, space, pageId } = await spaceWithComputedPage('petstore', true);
    const { specId } = await storeSpecVersion(organization.id, 'petstore', PETSTORE_OUTLINE);
    const url = `/v1/spaces/${space.id}/content/page/${pageId}`;
    const titles = async () =>
      ((await api.read(admin, url)).json().pages as Array<{ title: string }>).map((page) => page.title);
    expect(await titles()).toEqual(['pets', 'store', 'Other operations']);
    const hits = t.app.httpCache.stats().hits;
    expect(await titles()).toEqual(['pets', 'store', 'Other operations']);
    expect(t.app.httpCache.stats().hits).toBe(hits + 1);

    // Stored as the spec worker of another instance stores it: only the database's notification tells this one.
    const changed = { ...PETSTORE_OUTLINE, tags: [...PETSTORE_OUTLINE.tags, { name: 'users' }] };
    changed.operations = [
      ...PETSTORE_OUTLINE.operations,
      { path: '/users', method: 'get', tags: ['users'], deprecated: false },
    ];
    await storeSpecVersion(organization.id, 'petstore', changed, specId, outside.db);
    await eventually('the new version shows', async () => (await titles()).length === 4);
    expect(await titles()).toEqual(['pets', 'store', 'users', 'Other operations']);
  });

  it('of another organization’s spec slug show nothing of it', async () => {
    const { admin, space, pageId } = await spaceWithComputedPage('petstore');
    const other = await t.factory.team();
    await storeSpecVersion(other.organization.id, 'petstore', PETSTORE_OUTLINE);
    const res = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pageId}`);
    expect(res.json()).toMatchObject({ id: pageId, type: 'computed' });
    expect(JSON.stringify(res.json())).not.toContain('List pets');
  });

  it('show a spec created through the API and processed by the spec worker, models included', async () => {
    const { admin, organization, space, pageId } = await spaceWithComputedPage('billing', true);
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Billing', version: '2.1.0' },
      tags: [{ name: 'invoices', description: 'Invoices of a customer' }],
      paths: {
        '/invoices': {
          get: { tags: ['invoices'], summary: 'List invoices', responses: { '200': { description: 'The invoices' } } },
        },
      },
      components: { schemas: { Invoice: { type: 'object', description: 'A bill sent to a customer' } } },
    });
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/openapi`,
      headers: admin.headers,
      payload: { slug: 'billing', source: { text } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const processor = createSpecProcessor(t.app.context);
    try {
      expect(await processor.runNext()).toBe(true);
    } finally {
      await processor.close();
    }
    const spec = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/openapi/billing`,
      headers: admin.headers,
    });
    expect(spec.json()).toMatchObject({ processingState: 'complete' });

    const page = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pageId}`, { format: 'markdown' });
    expect(page.statusCode).toBe(200);
    expectSpecResponse('getPageById', 200, page.json());
    expect(page.json().computed.dependencies.spec.value).toEqual({
      object: 'openapi-spec',
      id: spec.json().id,
      slug: 'billing',
      lastVersion: spec.json().lastVersion,
    });
    expect(page.json().markdown).toContain('version 2.1.0');
    const [invoices, models] = page.json().pages as Array<{ title: string; markdown: string; computed: object }>;
    expect(invoices).toMatchObject({ title: 'invoices' });
    expect(invoices!.markdown).toContain('## List invoices');
    expect(models).toMatchObject({ title: 'Models', computed: { props: { doc: 'models' } } });
    expect(models!.markdown).toContain('## Invoice');
    expect(models!.markdown).toContain('A bill sent to a customer');
  });

  it('show at most 256 KiB of operations on one page, and say how many more there are', async () => {
    const { admin, organization, space } = await spaceWithComputedPage('huge');
    const operations = Array.from({ length: 2_000 }, (_, i) => ({
      path: `/things/${i}`,
      method: 'get',
      summary: `Thing ${i}`,
      description: 'word '.repeat(399),
      tags: ['things'],
      deprecated: false,
    }));
    await storeSpecVersion(organization.id, 'huge', {
      info: { title: 'Huge', version: '1' },
      tags: [{ name: 'things' }],
      operations,
      operationCount: 2_000,
    });
    const tree = await api.read(admin, `/v1/spaces/${space.id}/content/pages`);
    const things = tree.json().pages[1].pages[0] as { id: string; markdown: string };
    expect(things.markdown.length).toBeLessThanOrEqual(256 * 1024 + 100);
    expect(things.markdown).toContain('## Thing 0');
    expect(things.markdown).toMatch(/\*\d+ more operations are not shown here\.\*\n$/);
    const shown = (things.markdown.match(/^## Thing /gm) ?? []).length;
    expect(things.markdown).toContain(`*${2_000 - shown} more operations are not shown here.*`);
    const asDocument = await api.read(admin, `/v1/spaces/${space.id}/content/page/${things.id}`);
    expect(asDocument.statusCode).toBe(200);
    expectSpecResponse('getPageById', 200, asDocument.json());
  });
});

describe('computed pages in the published reader', () => {
  it('show what their spec makes: the spec’s page, a page per tag in the navigation, each also as markdown', async () => {
    const { admin, organization, space } = await spaceWithComputedPage();
    await storeSpecVersion(organization.id, 'petstore', PETSTORE_OUTLINE);
    const post = async (url: string, payload?: object) => {
      const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json() as { id: string };
    };
    const site = await post(`/v1/orgs/${organization.id}/sites`, { title: 'Pet docs', spaces: [space.id] });
    await post(`/v1/orgs/${organization.id}/sites/${site.id}/publish`);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${organization.id}/sites/${site.id}/site-spaces`,
      headers: admin.headers,
    });
    const base = `/s/${site.id}/${(listed.json() as { items: Array<{ path: string }> }).items[0]!.path}`;

    const reference = await t.app.inject({ method: 'GET', url: `${base}/api-reference` });
    expect(reference.statusCode, reference.body).toBe(200);
    expect(reference.body).toContain('<h1>API reference</h1>');
    expect(reference.body).toContain('Petstore');
    expect(reference.body).toContain(`<a href="http://docs.test${base}/api-reference/pets">pets</a>`);
    expect(reference.body).toContain(`<a href="http://docs.test${base}/api-reference/store">store</a>`);

    const pets = await t.app.inject({ method: 'GET', url: `${base}/api-reference/pets` });
    expect(pets.statusCode).toBe(200);
    expect(pets.body).toContain('<h1>pets</h1>');
    expect(pets.body).toContain('List pets');
    expect(pets.body).toContain(`<a href="http://docs.test${base}/api-reference/pets" aria-current="page">pets</a>`);
    const markdown = await t.app.inject({ method: 'GET', url: `${base}/api-reference/pets.md` });
    expect(markdown.statusCode).toBe(200);
    expect(markdown.body).toMatch(/^# pets\n\n/);
    expect(markdown.body).toContain('List pets');
    expect((await t.app.inject({ method: 'GET', url: `${base}/api-reference/nope` })).statusCode).toBe(404);
  });
});
