import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { findRevision, loadTree } from '../src/content/state.js';
import { useTestApp } from './support/app.js';
import { contentApi, flatten } from './support/content.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

let server: Server;
let served = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/logo.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    } else {
      response.writeHead(404).end('missing');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function space() {
  const team = await t.factory.team(['read']);
  const created = await api.createSpace(team.admin, team.organization.id, { title: 'Content' });
  return { ...team, space: created };
}

describe('files', () => {
  it('are uploaded inline or from a URL, stored once per content hash, and served by a signed URL', async () => {
    const { admin, member, space: s } = await space();
    const { written } = await api.change(admin, s.id, [
      {
        operation: 'insert_files',
        files: [
          { ref: 'logo.png', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') },
          { name: 'copy.png', url: `${served}/logo.png` },
          { name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('hello').toString('base64') },
        ],
      },
      { operation: 'insert_page', title: 'With image', document: { markdown: '![Logo](./logo.png)\n' } },
    ]);
    const [logo, copy, notes] = written.insertedFiles;
    expect(logo).toMatchObject({
      name: 'logo.png',
      contentType: 'image/png',
      size: PNG.length,
      dimensions: { width: 1, height: 1 },
    });
    expect(copy).toMatchObject({ name: 'copy.png', contentType: 'image/png', size: PNG.length });
    expect(notes).toMatchObject({ name: 'notes.txt', contentType: 'text/plain', size: 5 });
    expect(notes.dimensions).toBeUndefined();
    const versions = await t.db.selectFrom('file_versions').select('sha256').where('space_id', '=', s.id).execute();
    expect(versions).toHaveLength(3);
    const hashes = [...new Set(versions.map((version) => version.sha256))];
    expect(hashes).toHaveLength(2);
    expect(await t.db.selectFrom('blobs').select('sha256').where('sha256', 'in', hashes).execute()).toHaveLength(2);

    const list = await api.read(member('read'), `/v1/spaces/${s.id}/content/files`, { limit: '2' });
    expect(list.statusCode).toBe(200);
    expectSpecResponse('listFiles', 200, list.json());
    expect(list.json().count).toBe(3);
    expect(list.json().items).toHaveLength(2);
    const rest = await api.read(member('read'), `/v1/spaces/${s.id}/content/files`, {
      limit: '2',
      page: list.json().next.page,
    });
    expect(rest.json().items).toHaveLength(1);
    const ids = [...list.json().items, ...rest.json().items].map((file: { id: string }) => file.id).sort();
    expect(ids).toEqual([logo.id, copy.id, notes.id].sort());

    const one = await api.read(member('read'), `/v1/spaces/${s.id}/content/files/${logo.id}`);
    expectSpecResponse('getFileById', 200, one.json());
    const download = await t.app.inject({ method: 'GET', url: one.json().downloadURL.replace('http://docs.test', '') });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.rawPayload.equals(PNG)).toBe(true);
    const tampered = one
      .json()
      .downloadURL.replace('http://docs.test', '')
      // The first character is changed to another one, so the URL always differs.
      .replace(/signature=(.)/, (_: string, first: string) => `signature=${first === 'x' ? 'y' : 'x'}`);
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(404);

    const page = (await api.read(admin, `/v1/spaces/${s.id}/content/pages`)).json().pages[0];
    expect(page.markdown).toBe(`![Logo](/files/${logo.id})\n`);
    expect((await api.read(admin, `/v1/spaces/${s.id}/content/files/nope`)).statusCode).toBe(404);
  });

  it('refuse a URL that does not answer with the file, and a private address when not allowed', async () => {
    const { admin, space: s } = await space();
    const cr = (await api.createChangeRequest(admin, s.id)).json();
    const missing = await api.writeContent(admin, s.id, cr.id, [
      { operation: 'insert_files', files: [{ name: 'x.png', url: `${served}/nothing.png` }] },
    ]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toContain('status 404');
    const ftp = await api.writeContent(admin, s.id, cr.id, [
      { operation: 'insert_files', files: [{ name: 'x.png', url: 'ftp://example.com/x.png' }] },
    ]);
    expect(ftp.statusCode).toBe(400);
  });
});

describe('pages', () => {
  it('read as markdown or as a document, evaluated or not, with every spec field', async () => {
    const { admin, member, space: s } = await space();
    const markdown = [
      '---',
      'variables:',
      '  product: Quire',
      '---',
      '# Welcome',
      '',
      'Welcome to {{ page.vars.product }} and {{ page.vars.unknown }}.',
      '',
      '## Install',
      '',
      '- one',
      '- two',
      '',
      '```js',
      'run();',
      '```',
      '',
    ].join('\n');
    const { written } = await api.change(admin, s.id, [
      { operation: 'insert_page', emoji: '📘', document: { markdown } },
    ]);
    const pageId = written.changes[0].page.id as string;
    const url = `/v1/spaces/${s.id}/content/page/${pageId}`;

    const asMarkdown = await api.read(member('read'), url, { format: 'markdown' });
    expect(asMarkdown.statusCode).toBe(200);
    expectSpecResponse('getPageById', 200, asMarkdown.json());
    expect(asMarkdown.json()).toMatchObject({
      id: pageId,
      title: 'Welcome',
      emoji: '📘',
      type: 'document',
      slug: 'welcome',
      path: 'welcome',
      variables: { product: 'Quire' },
      hidden: false,
      pages: [],
      markdown: markdown.slice(markdown.indexOf('Welcome to')),
    });

    const evaluated = await api.read(member('read'), url, { format: 'markdown', evaluated: 'true' });
    expect(evaluated.json().markdown).toContain('Welcome to Quire and {{ page.vars.unknown }}.');

    const asDocument = await api.read(member('read'), url);
    expectSpecResponse('getPageById', 200, asDocument.json());
    expect(asDocument.json().markdown).toBeUndefined();
    const nodes = asDocument.json().document.nodes as Array<{ type: string }>;
    expect(nodes.map((node) => node.type)).toEqual(['paragraph', 'heading-2', 'list-unordered', 'code']);

    expect((await api.read(member('read'), url, { format: 'html' })).statusCode).toBe(400);
    expect((await api.read(member('read'), `/v1/spaces/${s.id}/content/page/nope`)).statusCode).toBe(404);
    const outsider = await t.factory.account();
    expect((await api.read(outsider, url)).statusCode).toBe(404);
  });

  it('a deleted space answers 404 to content reads', async () => {
    const { admin, space: s } = await space();
    await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${s.id}`, headers: admin.headers });
    expect((await api.read(admin, `/v1/spaces/${s.id}/content`)).statusCode).toBe(404);
    expect((await api.read(admin, `/v1/spaces/${s.id}/content/pages`)).statusCode).toBe(404);
    expect((await api.createChangeRequest(admin, s.id)).statusCode).toBe(404);
  });
});

describe('the page tree', () => {
  it('is served gzip to a caller that accepts it, with a validator that answers 304 until the content changes', async () => {
    const { admin, member, space: s } = await space();
    await api.change(admin, s.id, [
      { operation: 'insert_page', title: 'First', document: { markdown: 'One.\n'.repeat(50) } },
    ]);
    const url = `/v1/spaces/${s.id}/content/pages`;
    const reader = member('read');
    const plain = await api.read(reader, url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);

    // The gzip form is made off the event loop; until it is ready the plain one is served.
    let zipped = plain;
    for (let attempt = 0; attempt < 50 && zipped.headers['content-encoding'] !== 'gzip'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      zipped = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...reader.headers, 'accept-encoding': 'br;q=1, gzip;q=0.8' },
      });
    }
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(plain.json());
    const refused = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...reader.headers, 'accept-encoding': 'gzip;q=0' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.json()).toEqual(plain.json());

    const unchanged = await t.app.inject({ method: 'GET', url, headers: { ...reader.headers, 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    // The validator does not let a caller without access learn anything.
    const outsider = await t.factory.account();
    expect(
      (await t.app.inject({ method: 'GET', url, headers: { ...outsider.headers, 'if-none-match': etag } })).statusCode,
    ).toBe(404);

    await api.change(admin, s.id, [{ operation: 'insert_page', title: 'Second', document: {} }]);
    const changed = await t.app.inject({ method: 'GET', url, headers: { ...reader.headers, 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().pages.map((page: { title: string }) => page.title)).toEqual(['First', 'Second']);
  });

  it('shows the new paths of pages under a renamed parent, and of pages a change request moved', async () => {
    const { admin, space: s } = await space();
    const { written } = await api.change(admin, s.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: {} },
      { operation: 'insert_page', ref: 'install', title: 'Install', into: 'guide', document: { markdown: 'Steps.\n' } },
      { operation: 'insert_page', ref: 'deep', title: 'Deep', into: 'install', document: {} },
      { operation: 'insert_page', title: 'Other', document: {} },
    ]);
    const [guide, install, deep, other] = written.changes.map((change: { page: { id: string } }) => change.page.id);
    const url = `/v1/spaces/${s.id}/content/pages`;
    expect(flatten((await api.read(admin, url)).json().pages).map((page) => page.path)).toEqual([
      'guide',
      'guide/install',
      'guide/install/deep',
      'other',
    ]);

    await api.change(admin, s.id, [{ operation: 'update_page', page: guide, slug: 'handbook' }]);
    const renamed = flatten((await api.read(admin, url)).json().pages);
    expect(renamed.map((page) => page.path)).toEqual([
      'handbook',
      'handbook/install',
      'handbook/install/deep',
      'other',
    ]);
    expect((renamed[1] as unknown as { urls: { app: string } }).urls.app).toMatch(/\/handbook\/install$/);
    expect(renamed[1]!.markdown).toBe('Steps.\n');

    const { id: moving } = await api.change(admin, s.id, [{ operation: 'update_page', page: install, into: other }]);
    expect(moving).toBeTruthy();
    const moved = (await api.read(admin, url)).json().pages;
    expect(flatten(moved).map((page) => page.path)).toEqual([
      'handbook',
      'other',
      'other/install',
      'other/install/deep',
    ]);
    expect(flatten(moved).map((page) => page.id)).toEqual([guide, other, install, deep]);
  });
});

describe('a real space', () => {
  it('built from a few hundred pages over several change requests reads back exactly', async () => {
    const { admin, space: s } = await space();
    const expected = new Map<string, { markdown: string; parent: string | null; title: string }>();
    const sections: string[] = [];

    // Ten sections, then pages under them in batches of 50, some nested a level deeper.
    const top = await api.change(
      admin,
      s.id,
      Array.from({ length: 10 }, (_, i) => ({
        operation: 'insert_page',
        title: `Section ${i}`,
        document: { markdown: `Section ${i} intro.\n` },
      })),
    );
    for (const [i, change] of top.written.changes.entries()) {
      sections.push(change.page.id);
      expected.set(change.page.id, { markdown: `Section ${i} intro.\n`, parent: null, title: `Section ${i}` });
    }
    let n = 0;
    for (let batch = 0; batch < 6; batch++) {
      const changes = Array.from({ length: 50 }, () => {
        const i = n++;
        const body = `Paragraph ${i} with **bold**, \`code\` and a [link](https://example.com/${i}).\n\n- item ${i}\n- item ${i + 1}\n`;
        return {
          operation: 'insert_page',
          ref: `p${i}`,
          title: `Page ${i}`,
          into: sections[i % 10],
          document: { markdown: body },
        };
      });
      const { written } = await api.change(admin, s.id, changes);
      for (const [j, change] of written.changes.entries()) {
        const i = n - 50 + j;
        expected.set(change.page.id, {
          markdown: changes[j]!.document.markdown,
          parent: sections[i % 10]!,
          title: `Page ${i}`,
        });
      }
    }
    // One more change request edits a tenth of them.
    const edits = [...expected.keys()]
      .filter((_, i) => i % 10 === 5)
      .map((id) => ({ operation: 'update_page', page: id, document: { markdown: `Edited ${id}.\n` } }));
    await api.change(admin, s.id, edits);
    for (const edit of edits) expected.get(edit.page)!.markdown = `Edited ${edit.page}.\n`;

    const res = await api.read(admin, `/v1/spaces/${s.id}/content/pages`);
    expectSpecResponse('listPages', 200, res.json());
    const pages = flatten(res.json().pages);
    expect(pages).toHaveLength(310);
    for (const page of pages) {
      const want = expected.get(page.id)!;
      expect(page.title).toBe(want.title);
      expect(page.markdown).toBe(want.markdown);
    }
    for (const [index, section] of res.json().pages.entries()) {
      expect(section.id).toBe(sections[index]);
      expect(section.pages.map((page: { title: string }) => page.title)).toEqual(
        Array.from({ length: 30 }, (_, k) => `Page ${k * 10 + index}`),
      );
    }
    // And one page, both ways.
    const sample = pages[42]!;
    const single = await api.read(admin, `/v1/spaces/${s.id}/content/page/${sample.id}`, { format: 'markdown' });
    expect(single.json().markdown).toBe(expected.get(sample.id)!.markdown);
    const revision = await api.read(admin, `/v1/spaces/${s.id}/content`);
    expectSpecResponse('getCurrentRevision', 200, revision.json());
  });
});

describe('a revision’s tree as it is read', () => {
  it('holds every field of each page version as stored, its dates to the millisecond as a Date shows them', async () => {
    const { admin, organization, space: s } = await space();
    await api.change(admin, s.id, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', emoji: '📘', document: { markdown: '# Guide\n' } },
      { operation: 'insert_page', into: 'guide', title: 'Child', hidden: true, document: { markdown: 'Text.\n' } },
      {
        operation: 'insert_page',
        type: 'link',
        title: 'Elsewhere',
        target: { kind: 'url', url: 'https://example.com/' },
      },
    ]);
    const current = await t.db
      .selectFrom('spaces')
      .select('revision_id')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    // Microseconds that a millisecond text must cut, not round: a Date keeps whole milliseconds.
    await t.db
      .updateTable('page_versions')
      .set({ created_at: new Date('2026-01-02T03:04:05.678Z'), page_created_at: new Date('2025-12-31T23:59:59.999Z') })
      .where('space_id', '=', s.id)
      .execute();
    await sql`update page_versions set created_at = created_at + interval '999 microseconds'
      where space_id = ${s.id}`.execute(t.db);
    const point = await findRevision(t.db, s.id, current.revision_id!);
    const tree = await loadTree(t.db, { ...point!, organizationId: organization.id });

    const rows = await t.db.selectFrom('page_versions').selectAll().where('space_id', '=', s.id).execute();
    const stored = new Map(rows.map((row) => [row.page_id, row]));
    expect(tree.pages.size).toBe(3);
    for (const page of tree.pages.values()) {
      const row = stored.get(page.pageId)!;
      expect(page).toEqual({
        pageId: row.page_id,
        versionId: row.id,
        parentId: row.parent_page_id,
        position: row.position,
        type: row.type,
        title: row.title,
        slug: row.slug,
        emoji: row.emoji,
        icon: row.icon,
        description: row.description,
        documentId: row.document_id,
        layout: row.layout,
        cover: row.cover,
        variables: row.variables,
        hidden: row.hidden,
        noIndex: row.no_index,
        noRobotsIndex: row.no_robots_index,
        target: row.target,
        href: row.href,
        computed: row.computed,
        pageCreatedAt: row.page_created_at.toISOString(),
        updatedAt: row.created_at.toISOString(),
      });
      expect(page.updatedAt).toBe('2026-01-02T03:04:05.678Z');
      expect(page.pageCreatedAt).toBe('2025-12-31T23:59:59.999Z');
    }
    expect([...tree.pages.values()].map((page) => page.title).sort()).toEqual(['Child', 'Elsewhere', 'Guide']);
    expect(tree.childrenOf(null).map((page) => page.title)).toEqual(['Guide', 'Elsewhere']);
  });
});
