import type { ImportContentSource } from '@gitbook/api';
import type { FastifyInstance } from 'fastify';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOwnApp, listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi, flatten, outline } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

/** The outbound timeout of the test app: the slow page answers well after it. */
const OUTBOUND_TIMEOUT_MS = 1_000;
const SLOW_PAGE_MS = 5_000;

const t = useTestApp({
  config: { outbound: { allowPrivate: true, timeoutMs: OUTBOUND_TIMEOUT_MS, maxBytes: 10 * 1024 * 1024 } },
});
const api = contentApi(() => t.app);

// A 1x1 PNG, and another one (a different pixel) so that the two images are two blobs.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const OTHER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M/wHwAEBgIApD5fRAAAAABJRU5ErkJggg==',
  'base64',
);

/** Enough prose for Readability to take the article for the page's main content. */
const PROSE =
  'Acme keeps your documentation close to your code, so that every change to one is a change to the other. ' +
  'This page walks through what you need to know, one step at a time, with examples you can copy. ';

interface Site {
  server: Server;
  url: string;
  /** Every path requested, in order. */
  hits: string[];
}

async function serve(handler: (path: string, response: ServerResponse, site: Site) => void): Promise<Site> {
  const site = { hits: [] as string[] } as unknown as Site;
  site.server = createServer((request: IncomingMessage, response) => {
    const path = request.url ?? '/';
    site.hits.push(path);
    handler(path, response, site);
  });
  await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
  return site;
}

async function close(site: Site | undefined): Promise<void> {
  if (!site) return;
  site.server.closeAllConnections();
  await new Promise<void>((resolve) => site.server.close(() => resolve()));
}

const html = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

let site: Site;
let offsite: Site;

function nav(): string {
  return `<nav class="menu">
    <a href="/">Home</a> <a href="/guide/">Guide</a> <a href="/guide/install">Install</a>
    <a href="/api/reference">API reference</a> <a href="/private/secret">Secret</a> <a href="/slow">Slow</a>
    <a href="/loop">Loop</a> <a href="/data.json">Data</a> <a href="${offsite.url}/elsewhere">Elsewhere</a>
  </nav>`;
}

function sitePage(path: string): { status: number; type: string; body: string | Buffer } | undefined {
  switch (path) {
    case '/robots.txt':
      return { status: 200, type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' };
    case '/':
      return {
        status: 200,
        type: 'text/html; charset=utf-8',
        body: html('Acme Docs', `${nav()}<main><h1>Acme Docs</h1><p>Welcome. ${PROSE}</p><p>${PROSE}</p></main>`),
      };
    case '/guide':
    case '/guide/':
      return {
        status: 200,
        type: 'text/html',
        body: html(
          'Guide | Acme Docs',
          `${nav()}<main><h1>Guide</h1><p>${PROSE}</p><p>Start with <a href="install">installing</a>, then ` +
            `<a href="/guide/configure">configure</a> it. ${PROSE}</p></main>`,
        ),
      };
    case '/guide/install':
      return {
        status: 200,
        type: 'text/html',
        body: html(
          'Install | Acme Docs',
          `${nav()}<article><h1>Install</h1><p>${PROSE}</p>` +
            `<p>Read <a href="/guide/configure#options">the options</a>, the <a href="/missing">old page</a> ` +
            `and <a href="${offsite.url}/elsewhere">another site</a>. ${PROSE}</p>` +
            `<p><img src="/img/diagram.png" alt="Diagram"></p><p><img src="${offsite.url}/remote.png" alt="Remote"></p>` +
            `<p><img src="/img/broken.png" alt="Broken"></p>` +
            `<pre><code class="language-sh">npm install acme</code></pre></article>`,
        ),
      };
    case '/guide/configure':
      return {
        status: 200,
        type: 'text/html',
        body: html(
          'Configure | Acme Docs',
          `${nav()}<main><h1>Configure</h1><p>${PROSE}</p><h2 id="options">Options</h2>` +
            `<table><tr><th>Option</th><th>Default</th></tr><tr><td>color</td><td>blue</td></tr></table>` +
            `<p>Back to <a href="/guide/install">installing</a>. ${PROSE}</p></main>`,
        ),
      };
    case '/api/reference':
      return {
        status: 200,
        type: 'text/html',
        body: html('API reference', `${nav()}<main><h1>API reference</h1><p>${PROSE}</p><p>${PROSE}</p></main>`),
      };
    case '/solo':
      return { status: 200, type: 'text/html', body: html('Solo', `<main><h1>Solo</h1><p>${PROSE}</p></main>`) };
    case '/pair':
      return {
        status: 200,
        type: 'text/html',
        body: html(
          'Pair',
          `<main><h1>Pair</h1><p>${PROSE}</p><p>See <a href="/moved">the moved page</a> and ` +
            `<a href="/solo">the solo page</a>.</p></main>`,
        ),
      };
    case '/private/secret':
      return { status: 200, type: 'text/html', body: html('Secret', '<p>Never to be read.</p>') };
    case '/data.json':
      return { status: 200, type: 'application/json', body: '{"not":"a page"}' };
    case '/img/diagram.png':
      return { status: 200, type: 'image/png', body: PNG };
    case '/notes.md':
      return {
        status: 200,
        type: 'text/markdown; charset=utf-8',
        body: '---\ndescription: What changed\n---\n\n# Release notes\n\nVersion **2** is out.\n',
      };
    case '/plain.md':
      return { status: 200, type: 'text/plain', body: 'Just *text*.\n' };
    default:
      return undefined;
  }
}

beforeAll(async () => {
  offsite = await serve((path, response) => {
    if (path === '/remote.png') response.writeHead(200, { 'content-type': 'image/png' }).end(OTHER_PNG);
    else response.writeHead(200, { 'content-type': 'text/html' }).end(html('Elsewhere', '<p>Another site.</p>'));
  });
  site = await serve((path, response) => {
    if (path === '/slow') {
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end(html('Slow', '')), SLOW_PAGE_MS);
      return;
    }
    if (path === '/loop') {
      response.writeHead(302, { location: '/loop' }).end();
      return;
    }
    if (path === '/moved') {
      response.writeHead(301, { location: '/solo' }).end();
      return;
    }
    const page = sitePage(path);
    if (!page) response.writeHead(404, { 'content-type': 'text/html' }).end(html('Not found', '<p>Nothing here.</p>'));
    else response.writeHead(page.status, { 'content-type': page.type }).end(page.body);
  });
});
afterAll(async () => {
  await close(site);
  await close(offsite);
});

async function spaceWithTeam(spaceFields: Record<string, unknown> = {}) {
  const team = await t.factory.team(['read', 'edit']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Imports', ...spaceFields });
  return { ...team, space };
}

const importInto = (app: FastifyInstance, account: Account, path: string, payload: unknown) =>
  app.inject({ method: 'POST', url: `${path}/content/import`, headers: account.headers, payload: payload as object });

const importSpace = (account: Account, spaceId: string, payload: unknown) =>
  importInto(t.app, account, `/v1/spaces/${spaceId}`, payload);

const importChangeRequest = (account: Account, spaceId: string, changeRequestId: string, payload: unknown) =>
  importInto(t.app, account, `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`, payload);

const spaceRevision = async (spaceId: string) =>
  (await t.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow())
    .revision_id;

const revisionCount = async (spaceId: string) =>
  Number(
    (
      await t.db
        .selectFrom('revisions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('space_id', '=', spaceId)
        .executeTakeFirstOrThrow()
    ).n,
  );

interface TreePage {
  id: string;
  title: string;
  path: string;
  pages: TreePage[];
}

async function pagesOf(account: Account, prefix: string): Promise<TreePage[]> {
  const res = await api.read(account, `${prefix}/content/pages`);
  expect(res.statusCode).toBe(200);
  return res.json().pages as TreePage[];
}

async function markdownOf(account: Account, prefix: string, pageId: string): Promise<string> {
  const res = await api.read(account, `${prefix}/content/page/${pageId}`, { format: 'markdown' });
  expect(res.statusCode).toBe(200);
  return res.json().markdown as string;
}

/** The tree the test site gives, under whatever was there before. */
const SITE_TREE = [
  { title: 'Acme Docs', path: 'acme-docs', pages: [] },
  {
    title: 'Guide',
    path: 'guide',
    pages: [
      { title: 'Install', path: 'guide/install', pages: [] },
      { title: 'Configure', path: 'guide/configure', pages: [] },
    ],
  },
  { title: 'Api', path: 'api', pages: [{ title: 'API reference', path: 'api/reference', pages: [] }] },
];

describe('website import into a space', () => {
  it('crawls the site into a new space revision: its tree, markdown, images and links between its pages', async () => {
    const { admin, space } = await spaceWithTeam();
    await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Existing', document: { markdown: 'Was here first.\n' } },
    ]);
    const before = await spaceRevision(space.id);
    site.hits.length = 0;
    offsite.hits.length = 0;

    const res = await importSpace(admin, space.id, { url: `${site.url}/`, source: 'website' });
    expect(res.statusCode, res.body).toBe(201);
    expectSpecResponse('importContent', 201, res.json());
    // Pages fetched: the five imported, and the slow one, the redirect loop, the JSON and the broken link.
    expect(res.json()).toEqual({ revision: expect.any(String), importedResources: 5, totalResources: 9 });
    const revision = res.json().revision as string;
    expect(res.headers.location).toBe(`${PUBLIC_URL}/v1/spaces/${space.id}/revisions/${revision}`);
    expect(await spaceRevision(space.id)).toBe(revision);
    const written = await t.db
      .selectFrom('revisions')
      .select(['parents', 'change_request_id'])
      .where('id', '=', revision)
      .executeTakeFirstOrThrow();
    expect(written).toEqual({ parents: [before], change_request_id: null });

    const prefix = `/v1/spaces/${space.id}`;
    const pages = await pagesOf(admin, prefix);
    expect(outline(pages)).toEqual([{ title: 'Existing', path: 'existing', pages: [] }, ...SITE_TREE]);
    const byPath = new Map(flatten(pages).map((page) => [page.path, page]));
    const configure = byPath.get('guide/configure')!;

    // The group that stands for /api has no content of its own.
    expect(await markdownOf(admin, prefix, byPath.get('api')!.id)).toBe('');

    const files = await api.read(admin, `${prefix}/content/files`);
    expect(files.statusCode).toBe(200);
    const stored = (files.json().items as Array<{ id: string; name: string }>).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    expect(stored).toMatchObject([
      { name: 'diagram.png', contentType: 'image/png', size: PNG.length, dimensions: { width: 1, height: 1 } },
      { name: 'remote.png', contentType: 'image/png', size: OTHER_PNG.length, dimensions: { width: 1, height: 1 } },
    ]);
    const [diagram, remote] = stored;

    const install = await markdownOf(admin, prefix, byPath.get('guide/install')!.id);
    expect(install).toBe(
      `${PROSE.trim()}\n\n` +
        `Read [the options](/pages/${configure.id}#options), the [old page](${site.url}/missing) ` +
        `and [another site](${offsite.url}/elsewhere). ${PROSE.trim()}\n\n` +
        `![Diagram](/files/${diagram!.id})\n\n` +
        `![Remote](/files/${remote!.id})\n\n` +
        `![Broken](${site.url}/img/broken.png)\n\n` +
        '```sh\nnpm install acme\n```\n',
    );
    const guide = await markdownOf(admin, prefix, byPath.get('guide')!.id);
    expect(guide).toContain(`[installing](/pages/${byPath.get('guide/install')!.id})`);
    expect(guide).toContain(`[configure](/pages/${configure.id})`);
    expect(await markdownOf(admin, prefix, configure.id)).toContain('| Option | Default |');

    // The link between two imported pages is a page link; the broken and off-site ones stay URLs.
    const links = await t.db
      .selectFrom('documents')
      .innerJoin('page_versions', 'page_versions.document_id', 'documents.id')
      .select('documents.links')
      .where('page_versions.page_id', '=', byPath.get('guide/install')!.id)
      .executeTakeFirstOrThrow();
    expect(links.links).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'anchor', page: configure.id, anchor: 'options' }),
        expect.objectContaining({ kind: 'url', url: `${site.url}/missing` }),
        expect.objectContaining({ kind: 'file', file: diagram!.id }),
      ]),
    );

    // robots.txt was read first and honoured; no off-site page was fetched, only an off-site image.
    expect(site.hits[0]).toBe('/robots.txt');
    expect(site.hits).not.toContain('/private/secret');
    expect(site.hits).toEqual(expect.arrayContaining(['/slow', '/loop', '/data.json', '/missing', '/img/broken.png']));
    expect(offsite.hits).toEqual(['/remote.png']);
  });

  it('adds a second import after the first, with slugs that do not clash', async () => {
    const { admin, space } = await spaceWithTeam();
    const first = await importSpace(admin, space.id, { url: `${site.url}/solo`, source: 'website' });
    expect(first.statusCode, first.body).toBe(201);
    const second = await importSpace(admin, space.id, { url: `${site.url}/solo?again=1`, source: 'website' });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({ importedResources: 1, totalResources: 1 });
    expect(outline(await pagesOf(admin, `/v1/spaces/${space.id}`))).toEqual([
      { title: 'Solo', path: 'solo', pages: [] },
      { title: 'Solo', path: 'solo-2', pages: [] },
    ]);
    expect(await spaceRevision(space.id)).toBe(second.json().revision);
  });

  it('takes a page reached by a redirect once, and links to either address become links to it', async () => {
    const { admin, space } = await spaceWithTeam();
    const res = await importSpace(admin, space.id, { url: `${site.url}/pair`, source: 'website' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ importedResources: 2, totalResources: 2 });
    const prefix = `/v1/spaces/${space.id}`;
    const pages = await pagesOf(admin, prefix);
    expect(outline(pages)).toEqual([
      { title: 'Pair', path: 'pair', pages: [] },
      { title: 'Solo', path: 'solo', pages: [] },
    ]);
    expect(await markdownOf(admin, prefix, pages[0]!.id)).toBe(
      `${PROSE.trim()}\n\nSee [the moved page](/pages/${pages[1]!.id}) and [the solo page](/pages/${pages[1]!.id}).\n`,
    );
  });

  it('stops at the page limit', async () => {
    const app = await buildOwnApp(
      testConfig(t.database.url, {
        outbound: { allowPrivate: true, timeoutMs: OUTBOUND_TIMEOUT_MS, maxBytes: 1024 * 1024 },
        importLimits: { maxPages: 3, maxBytes: 10 * 1024 * 1024, timeoutMs: 10_000 },
      }),
    );
    try {
      const { admin, space } = await spaceWithTeam();
      const res = await importInto(app, admin, `/v1/spaces/${space.id}`, { url: site.url, source: 'website' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ importedResources: 3, totalResources: 3 });
      expect(outline(await pagesOf(admin, `/v1/spaces/${space.id}`))).toEqual([
        { title: 'Acme Docs', path: 'acme-docs', pages: [] },
        { title: 'Guide', path: 'guide', pages: [{ title: 'Install', path: 'guide/install', pages: [] }] },
      ]);
    } finally {
      await app.close();
    }
  });
});

describe('website import into a change request', () => {
  it('makes a new revision of the change request through the official client, and leaves the space alone', async () => {
    const { admin, space } = await spaceWithTeam();
    const client = officialClient(await listen(t.app), admin.token);
    const created = await client.spaces.createChangeRequest(space.id, { subject: 'Import' });
    const before = await spaceRevision(space.id);

    const imported = await client.spaces.importContentInChangeRequest(space.id, created.data.id, {
      url: `${site.url}/guide/`,
      source: 'website' as ImportContentSource,
    });
    expect(imported.status).toBe(201);
    expectSpecResponse('importContentInChangeRequest', 201, imported.data);
    expect(imported.data).toMatchObject({ importedResources: 5, totalResources: 9 });
    const changeRequest = await client.spaces.getChangeRequestById(space.id, created.data.id);
    expect(changeRequest.data.revision).toBe(imported.data.revision);
    expect(await spaceRevision(space.id)).toBe(before);

    const prefix = `/v1/spaces/${space.id}/change-requests/${created.data.id}`;
    // Found from /guide this time: the home page comes second, after the guide it was reached from.
    expect(outline(await pagesOf(admin, prefix))).toEqual([SITE_TREE[1], SITE_TREE[0], SITE_TREE[2]]);
    expect(outline(await pagesOf(admin, `/v1/spaces/${space.id}`))).toEqual([]);
  });
});

describe('markdown import', () => {
  it('imports one markdown file as a page, its frontmatter and title heading read as in any write', async () => {
    const { admin, space } = await spaceWithTeam();
    const res = await importSpace(admin, space.id, { url: `${site.url}/notes.md`, source: 'markdown' });
    expect(res.statusCode, res.body).toBe(201);
    expectSpecResponse('importContent', 201, res.json());
    expect(res.json()).toMatchObject({ importedResources: 1, totalResources: 1 });
    const plain = await importSpace(admin, space.id, { url: `${site.url}/plain.md`, source: 'markdown' });
    expect(plain.statusCode, plain.body).toBe(201);

    const pages = await api.read(admin, `/v1/spaces/${space.id}/content/pages`);
    expect(pages.json().pages).toMatchObject([
      { title: 'Release notes', description: 'What changed', markdown: 'Version **2** is out.\n' },
      { title: 'Plain', markdown: 'Just *text*.\n' },
    ]);
  });

  it('answers 400 for a URL that is not a markdown file, and writes nothing', async () => {
    const { admin, space } = await spaceWithTeam();
    const before = await spaceRevision(space.id);
    const page = await importSpace(admin, space.id, { url: `${site.url}/`, source: 'markdown' });
    expect(page.statusCode).toBe(400);
    expect(page.json().error.message).toBe(
      'body/url is not a markdown file (it is served as text/html); to import a web page, use the source website',
    );
    const missing = await importSpace(admin, space.id, { url: `${site.url}/gone.md`, source: 'markdown' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('body/url answered with status 404, so nothing was imported');
    expect(await spaceRevision(space.id)).toBe(before);
  });
});

describe('refusals', () => {
  it('answer 400 to a bad URL or source, and to a site where no page can be imported, writing nothing', async () => {
    const { admin, space } = await spaceWithTeam();
    const before = await spaceRevision(space.id);
    const cases: Array<[unknown, string | RegExp]> = [
      [{ url: 'not a url', source: 'website' }, 'body/url must match format "uri"'],
      [{ url: 'ftp://example.com/docs', source: 'website' }, 'body/url must be an http or https URL'],
      [{ url: site.url }, /source/],
      [{ url: site.url, source: 'word' }, /^body\/source must be one of: "website"/],
      [
        { url: site.url, source: 'docx' },
        'body/source docx is not imported by this service; the supported sources are website and markdown',
      ],
      [{ url: site.url, source: 'website', extra: 1 }, /extra/],
      [
        { url: `${site.url}/missing`, source: 'website' },
        `body/url: no page of ${site.url} could be imported, so nothing was written: ${site.url}/missing answered with status 404`,
      ],
      [
        { url: `${site.url}/private/secret`, source: 'website' },
        `body/url: no page of ${site.url} could be imported, so nothing was written: ${site.url}/private/secret is excluded by robots.txt`,
      ],
      [{ url: `${site.url}/loop`, source: 'website' }, /redirected more than 5 times$/],
      [{ url: `${site.url}/data.json`, source: 'website' }, /data\.json is not an HTML page \(application\/json\)$/],
    ];
    for (const [payload, message] of cases) {
      const res = await importSpace(admin, space.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (typeof message === 'string') expect(res.json().error.message).toBe(message);
      else expect(res.json().error.message).toMatch(message);
    }
    expect(await spaceRevision(space.id)).toBe(before);
    expect(await revisionCount(space.id)).toBe(1);
  });

  it('refuse private addresses unless OUTBOUND_ALLOW_PRIVATE allows them', async () => {
    const app = await buildOwnApp(
      testConfig(t.database.url, { outbound: { allowPrivate: false, timeoutMs: 2_000, maxBytes: 1024 * 1024 } }),
    );
    try {
      const { admin, space } = await spaceWithTeam();
      const before = await spaceRevision(space.id);
      site.hits.length = 0;
      for (const source of ['website', 'markdown']) {
        const res = await importInto(app, admin, `/v1/spaces/${space.id}`, { url: `${site.url}/notes.md`, source });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toContain('resolves to a private address, which this service does not fetch');
      }
      expect(site.hits).toEqual([]);
      expect(await spaceRevision(space.id)).toBe(before);
    } finally {
      await app.close();
    }
  });

  it('answer 404 for unknown or invisible spaces and change requests, 403 to readers and on locked spaces', async () => {
    const { admin, member, space } = await spaceWithTeam({ visibility: 'public' });
    const body = { url: `${site.url}/notes.md`, source: 'markdown' };
    const changeRequest = (await api.createChangeRequest(admin, space.id)).json() as { id: string };
    const outsider = await t.factory.account();

    expect((await importSpace(admin, 'nope', body)).statusCode).toBe(404);
    expect((await importChangeRequest(admin, space.id, 'nope', body)).statusCode).toBe(404);
    expect((await importChangeRequest(admin, space.id, '99', body)).statusCode).toBe(404);
    // A visitor of a public space sees its published side, never its writes.
    expect((await importSpace(outsider, space.id, body)).statusCode).toBe(404);
    expect((await importChangeRequest(outsider, space.id, changeRequest.id, body)).statusCode).toBe(404);
    const reader = await importSpace(member('read'), space.id, body);
    expect(reader.statusCode).toBe(403);
    expect(reader.json().error.message).toBe('Importing content needs the edit role on the space');
    expect((await importChangeRequest(member('read'), space.id, changeRequest.id, body)).statusCode).toBe(403);
    const readOnly = await t.factory.token(admin.user.id, { scopes: ['space:read'] });
    expect((await importSpace(readOnly, space.id, body)).statusCode).toBe(403);
    expect((await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages).toEqual([]);

    // An editor may import; a locked space refuses every write, a change request's included.
    expect((await importSpace(member('edit'), space.id, body)).statusCode).toBe(201);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { editMode: 'locked' },
    });
    const locked = await importSpace(admin, space.id, body);
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error.message).toContain('locked');
    expect((await importChangeRequest(admin, space.id, changeRequest.id, body)).statusCode).toBe(403);
  });

  it('answer 409 for a merged or archived change request, before fetching anything', async () => {
    const { admin, space } = await spaceWithTeam();
    const body = { url: `${site.url}/notes.md`, source: 'markdown' };
    const merged = (await api.createChangeRequest(admin, space.id)).json() as { id: string; revision: string };
    expect((await importChangeRequest(admin, space.id, merged.id, body)).statusCode).toBe(201);
    expect((await api.merge(admin, space.id, merged.id)).json()).toMatchObject({ result: 'merge' });
    const archived = (await api.createChangeRequest(admin, space.id)).json() as { id: string };
    await api.patchChangeRequest(admin, space.id, archived.id, { status: 'archived' });

    site.hits.length = 0;
    const again = await importChangeRequest(admin, space.id, merged.id, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('The change request is merged; its content can no longer change');
    expect((await importChangeRequest(admin, space.id, archived.id, body)).statusCode).toBe(409);
    expect(site.hits).toEqual([]);
  });
});
