import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentReferenceStatus } from '@gitbook/api';
import { buildOwnApp, listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi, flatten } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);
let endpoint: string;
beforeAll(async () => {
  endpoint = await listen(t.app);
});

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const MISSING_FILE = 'NoSuchFile0000000000';
const IN_APP = `${PUBLIC_URL}/app/o/someorg/s/somespace`;

/** A file backlink item as [kind, file, space, the page that uses it]. */
const fileUse = (location: Location) => [location.kind, location.file?.id, location.space?.id, location.page?.id];

interface Location {
  kind: string;
  url?: string;
  page?: { id: string; title: string };
  file?: { id: string; name: string };
  internalLocation?: { anchor: string };
  organization?: { id: string };
  space?: { id: string };
}
interface LinkItem {
  status: string;
  relation: string;
  targetReference: Location;
  locationReferences: Location[];
}
interface LinksBody {
  next?: { page: string };
  count: number;
  stats: { total: number; broken: { total: number; changeRequest: number } };
  items: LinkItem[];
}

/** Names what a location points at, with the fixture's names for its ids. */
function nameOf(location: Location, names: Map<string, string>): string {
  const named = (id: string) => names.get(id) ?? id;
  if (location.kind === 'url')
    return location.url!.replace(/\/(pages|files)\/(\w+)/, (_, kind, id) => `/${kind}/${named(id)}`);
  if (location.kind === 'file') return `file ${named(location.file!.id)}`;
  const anchor = location.internalLocation ? `#${location.internalLocation.anchor}` : '';
  return `page ${named(location.page!.id)}${anchor}`;
}

/** An item as one line: status, relation, target, and the pages that link to it. */
function summary(items: LinkItem[], names: Map<string, string>): string[] {
  return items.map(
    (item) =>
      `${item.status} ${item.relation} ${nameOf(item.targetReference, names)} <- ${item.locationReferences
        .map((location) => nameOf(location, names))
        .join(', ')}`,
  );
}

interface Fixture {
  admin: Account;
  reader: Account;
  spaceId: string;
  home: string;
  guide: string;
  old: string;
  logo: string;
  notes: string;
  names: Map<string, string>;
}

const HOME = [
  'Intro text.',
  '',
  '## Welcome',
  '',
  'Read the [guide](guide) and how to [install](guide#install).',
  'A [stale anchor](guide#uninstall), [this section](#welcome) and [nothing here](#nowhere).',
  '',
  'Download the [notes](notes) and look at ![logo](logo.png) and ![badge](https://example.com/badge.png).',
  '',
  `A [missing file](/files/${MISSING_FILE}), [the app](${IN_APP}) and [an example](https://example.com/docs).`,
  '',
].join('\n');

const GUIDE = [
  'Start here.',
  '',
  '## Install',
  '',
  'Run it. See the [old page](old) and [welcome](home#welcome).',
  '',
  '## Configure',
  '',
  '![logo](logo.png)',
  '',
].join('\n');

/** The whole space's links once `old` is deleted, in the listing's order. */
const SPACE_LINKS = [
  'broken reference /pages/old <- page guide',
  'ok reference page guide <- page home',
  'ok reference page guide#install <- page home',
  'broken reference page guide#uninstall <- page home',
  'broken reference page home#nowhere <- page home',
  'ok reference page home#welcome <- page home, page guide',
  `broken reference /files/${MISSING_FILE} <- page home`,
  'ok dependsOn file logo <- page home, page guide',
  'ok reference file notes <- page home',
  `in-app reference ${IN_APP} <- page home`,
  'ok dependsOn https://example.com/badge.png <- page home',
  'ok reference https://example.com/docs <- page home',
];

/**
 * A space whose pages link to each other, to their anchors, to files and to
 * URLs; then a page they link to is deleted, so that link is broken.
 */
async function linkedSpace(options: { visibility?: 'public' } = {}): Promise<Fixture> {
  const team = await t.factory.team(['read']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Links', ...options });
  const { written } = await api.change(team.admin, space.id, [
    {
      operation: 'insert_files',
      files: [
        { ref: 'logo.png', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') },
        { ref: 'notes', name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('hi').toString('base64') },
      ],
    },
    { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: HOME } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: GUIDE } },
    { operation: 'insert_page', ref: 'old', title: 'Old', document: { markdown: 'Old page.\n' } },
  ]);
  const pages = flatten((await api.read(team.admin, `/v1/spaces/${space.id}/content/pages`)).json().pages);
  const idOf = (title: string) => pages.find((page) => page.title === title)!.id;
  const [logo, notes] = (written.insertedFiles as Array<{ id: string }>).map((file) => file.id);
  const fixture = {
    admin: team.admin,
    reader: team.member('read'),
    spaceId: space.id,
    home: idOf('Home'),
    guide: idOf('Guide'),
    old: idOf('Old'),
    logo: logo!,
    notes: notes!,
  };
  await api.change(team.admin, space.id, [{ operation: 'delete_page', page: fixture.old }]);
  const names = new Map(
    Object.entries(fixture).flatMap(([name, id]) => (typeof id === 'string' ? [[id, name] as [string, string]] : [])),
  );
  return { ...fixture, names };
}

async function readLinks(account: Account, url: string, query: Record<string, string> = {}, operationId?: string) {
  const res = await api.read(account, url, query);
  expect(res.statusCode, res.body).toBe(200);
  if (operationId) expectSpecResponse(operationId, 200, res.json());
  return res.json() as LinksBody;
}

/** Every item of a list, following next.page with a small limit. */
async function readAll(account: Account, url: string, query: Record<string, string>, operationId: string) {
  const items: LinkItem[] = [];
  let page: string | undefined;
  let pages = 0;
  do {
    const body = await readLinks(account, url, { ...query, ...(page ? { page } : {}) }, operationId);
    items.push(...body.items);
    page = body.next?.page;
    pages += 1;
  } while (page);
  return { items, pages };
}

describe('space links', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await linkedSpace();
  });

  it('lists every target once with its status, relation and linking pages, with stats', async () => {
    const body = await readLinks(f.reader, `/v1/spaces/${f.spaceId}/links`, {}, 'listSpaceLinks');
    expect(summary(body.items, f.names)).toEqual(SPACE_LINKS);
    expect(body.count).toBe(12);
    expect(body.next).toBeUndefined();
    expect(body.stats).toEqual({ total: 12, broken: { total: 4, changeRequest: 0 } });
    // Locations carry the whole organization, space and page; a file target the whole file.
    const welcome = body.items[5]!;
    expect(welcome.targetReference).toMatchObject({
      kind: 'page',
      organization: { object: 'organization' },
      space: { object: 'space', id: f.spaceId },
      page: { id: f.home, title: 'Home', path: 'home', markdown: expect.stringContaining('## Welcome') },
      internalLocation: { type: 'anchor', anchor: 'welcome' },
    });
    expect(body.items[7]!.targetReference).toMatchObject({
      kind: 'file',
      file: { id: f.logo, name: 'logo.png', contentType: 'image/png', downloadURL: expect.stringContaining('/files/') },
    });
  });

  it('filters by status while the stats still count every link', async () => {
    const url = `/v1/spaces/${f.spaceId}/links`;
    const broken = await readLinks(f.reader, url, { status: 'broken' }, 'listSpaceLinks');
    expect(summary(broken.items, f.names)).toEqual(SPACE_LINKS.filter((line) => line.startsWith('broken')));
    expect(broken.count).toBe(4);
    expect(broken.stats).toEqual({ total: 12, broken: { total: 4, changeRequest: 0 } });
    const inApp = await readLinks(f.reader, url, { status: 'in-app' });
    expect(summary(inApp.items, f.names)).toEqual([`in-app reference ${IN_APP} <- page home`]);
    const ok = await readLinks(f.reader, url, { status: 'ok' });
    expect(ok.count).toBe(7);
  });

  it('pages through the links with a small limit, and limit=0 gives only the count', async () => {
    const url = `/v1/spaces/${f.spaceId}/links`;
    const all = await readAll(f.reader, url, { limit: '5' }, 'listSpaceLinks');
    expect(all.pages).toBe(3);
    expect(summary(all.items, f.names)).toEqual(SPACE_LINKS);
    const brokenPages = await readAll(f.reader, url, { limit: '3', status: 'broken' }, 'listSpaceLinks');
    expect(brokenPages.pages).toBe(2);
    expect(brokenPages.items).toHaveLength(4);
    const none = await readLinks(f.reader, url, { limit: '0' });
    expect(none).toMatchObject({ count: 12, items: [] });
    expect(none.next).toBeUndefined();
  });

  it('lists one page’s links, located at that page', async () => {
    const home = await readLinks(
      f.reader,
      `/v1/spaces/${f.spaceId}/content/page/${f.home}/links`,
      {},
      'listPageLinksInSpace',
    );
    expect(summary(home.items, f.names)).toEqual(
      SPACE_LINKS.filter((line) => line.includes('page home')).map((line) => line.replace(/ <- .*/, ' <- page home')),
    );
    expect(home.stats).toEqual({ total: 11, broken: { total: 3, changeRequest: 0 } });
    const guide = await readLinks(f.reader, `/v1/spaces/${f.spaceId}/content/page/${f.guide}/links`, {
      status: 'broken',
    });
    expect(summary(guide.items, f.names)).toEqual(['broken reference /pages/old <- page guide']);
    expect(guide.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 0 } });
    const paged = await readAll(
      f.reader,
      `/v1/spaces/${f.spaceId}/content/page/${f.home}/links`,
      { limit: '4' },
      'listPageLinksInSpace',
    );
    expect(paged.pages).toBe(3);
    expect(paged.items.map((item) => nameOf(item.targetReference, f.names))).toEqual(
      home.items.map((item) => nameOf(item.targetReference, f.names)),
    );
    const gone = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/page/${f.old}/links`);
    expect(gone.statusCode).toBe(404);
  });

  it('lists the pages that use a file, and the other pages that link to a page', async () => {
    const logo = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/files/${f.logo}/backlinks`);
    expect(logo.statusCode).toBe(200);
    expectSpecResponse('listSpaceFileBacklinks', 200, logo.json());
    // The seeds' File backlink item: the file, in its space and organization, with the page that uses it,
    // by the linking page's path: guide, then home.
    expect(logo.json().items.map(fileUse)).toEqual([
      ['file', f.logo, f.spaceId, f.guide],
      ['file', f.logo, f.spaceId, f.home],
    ]);
    expect(logo.json().count).toBe(2);
    const first = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/files/${f.logo}/backlinks`, { limit: '1' });
    expect(first.json().items.map((location: Location) => location.page!.id)).toEqual([f.guide]);
    const second = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/files/${f.logo}/backlinks`, {
      limit: '1',
      page: first.json().next.page,
    });
    expect(second.json().items.map((location: Location) => location.page!.id)).toEqual([f.home]);
    expect(second.json().next).toBeUndefined();

    const notes = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/files/${f.notes}/backlinks`);
    expect(notes.json().items.map(fileUse)).toEqual([['file', f.notes, f.spaceId, f.home]]);

    const guide = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/page/${f.guide}/backlinks`);
    expectSpecResponse('listSpacePageBacklinks', 200, guide.json());
    expect(guide.json().items.map((location: Location) => nameOf(location, f.names))).toEqual(['page home']);
    // Home links to its own anchors too: a page is not its own backlink.
    const home = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/page/${f.home}/backlinks`);
    expect(home.json().items.map((location: Location) => nameOf(location, f.names))).toEqual(['page guide']);

    for (const url of [
      `/v1/spaces/${f.spaceId}/content/files/${MISSING_FILE}/backlinks`,
      `/v1/spaces/${f.spaceId}/content/page/${f.old}/backlinks`,
    ]) {
      const res = await api.read(f.reader, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe(404);
    }
  });

  it('answers through the official client', async () => {
    const client = officialClient(endpoint, f.reader.token);
    const links = await client.spaces.listSpaceLinks(f.spaceId, { status: ContentReferenceStatus.Broken, limit: 2 });
    expect(links.data.count).toBe(4);
    expect(links.data.items).toHaveLength(2);
    const rest = await client.spaces.listSpaceLinks(f.spaceId, {
      status: ContentReferenceStatus.Broken,
      limit: 2,
      page: links.data.next!.page,
    });
    expect(summary([...links.data.items, ...rest.data.items] as LinkItem[], f.names)).toEqual(
      SPACE_LINKS.filter((line) => line.startsWith('broken')),
    );
    const pageLinks = await client.spaces.listPageLinksInSpace(f.spaceId, f.guide);
    expect(pageLinks.data.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 0 } });
    const backlinks = await client.spaces.listSpaceFileBacklinks(f.spaceId, f.notes);
    expect(backlinks.data.items.map((location) => location.kind)).toEqual(['file']);
    const pageBacklinks = await client.spaces.listSpacePageBacklinks(f.spaceId, f.guide);
    expect(pageBacklinks.data.count).toBe(1);
  });

  it('refuses a bad status, limit or cursor with a 400', async () => {
    const url = `/v1/spaces/${f.spaceId}/links`;
    const refused = async (query: Record<string, string>, path = url) => {
      const res = await api.read(f.reader, path, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error.code).toBe(400);
      return res.json().error.message as string;
    };
    expect(await refused({ status: 'dead' })).toContain('status');
    expect(await refused({ limit: '1001' })).toContain('limit');
    expect(await refused({ limit: '-1' })).toContain('limit');
    expect(await refused({ page: 'not-a-cursor' })).toContain('page');
    // A cursor of another list: the files, another filter, another page's links.
    const files = await api.read(f.reader, `/v1/spaces/${f.spaceId}/content/files`, { limit: '1' });
    await refused({ page: files.json().next.page });
    const broken = await readLinks(f.reader, url, { status: 'broken', limit: '1' });
    await refused({ status: 'ok', page: broken.next!.page });
    await refused({ page: broken.next!.page }, `/v1/spaces/${f.spaceId}/content/page/${f.home}/links`);
    await refused({ status: 'nope' }, `/v1/spaces/${f.spaceId}/content/page/${f.home}/links`);
    await refused({ limit: '5000' }, `/v1/spaces/${f.spaceId}/content/files/${f.logo}/backlinks`);
    const cursor = broken.next!.page;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('xx') ? 'yy' : 'xx'}`;
    await refused({ status: 'broken', page: tampered });
  });
});

/** Another app on the same database: caches start empty, as on another instance or after a restart. */
const extraApps: Array<FastifyInstance> = [];
async function appOn() {
  const app = await buildOwnApp(testConfig(t.database.url, { logLevel: 'error' }));
  await app.ready();
  extraApps.push(app);
  return app;
}
afterAll(async () => {
  for (const app of extraApps) await app.close();
});

describe('change request links', () => {
  it('count the links a change request breaks, and stay out of the space’s list until merged', async () => {
    const f = await linkedSpace();
    const created = await api.createChangeRequest(f.admin, f.spaceId, { subject: 'Rework the guide' });
    const cr = created.json() as { id: string; number: number };
    // The guide loses its Install section: the home page's link to it breaks. A draft page links out.
    const written = await api.writeContent(f.admin, f.spaceId, cr.id, [
      {
        operation: 'update_page',
        page: f.guide,
        document: {
          markdown: [
            'Start here.',
            '',
            '## Configure',
            '',
            `See the [old page](/pages/${f.old}) and [welcome](/pages/${f.home}#welcome).`,
            '',
            `![logo](/files/${f.logo})`,
            '',
          ].join('\n'),
        },
      },
      { operation: 'insert_page', title: 'Draft', document: { markdown: 'See [draft](https://draft.example.com).\n' } },
    ]);
    expect(written.statusCode, written.body).toBe(200);
    const base = `/v1/spaces/${f.spaceId}/change-requests/${cr.number}`;

    const links = await readLinks(f.reader, `${base}/links`, {}, 'listChangeRequestLinks');
    const lines = summary(links.items, f.names);
    expect(lines).toContain('broken reference page guide#install <- page home');
    expect(lines.some((line) => line.includes('https://draft.example.com'))).toBe(true);
    expect(links.stats).toEqual({ total: 13, broken: { total: 5, changeRequest: 1 } });
    // Locations in a change request point at the change request's pages in the app.
    const homeLocation = links.items.find((item) => item.targetReference.kind === 'page')!.locationReferences[0]!;
    expect((homeLocation.page as { urls: { app: string } } & Location['page']).urls.app).toContain(
      `/change-requests/${cr.id}/`,
    );

    const introduced = await readLinks(f.reader, `${base}/links`, {
      status: 'broken',
      brokenContext: 'change-request',
    });
    expect(summary(introduced.items, f.names)).toEqual(['broken reference page guide#install <- page home']);
    expect(introduced.count).toBe(1);
    const everyBroken = await readLinks(f.reader, `${base}/links`, { status: 'broken', brokenContext: 'space' });
    expect(everyBroken.count).toBe(5);

    const homeLinks = await readLinks(
      f.reader,
      `${base}/content/page/${f.home}/links`,
      {},
      'listPageLinksInChangeRequest',
    );
    expect(homeLinks.stats).toEqual({ total: 11, broken: { total: 4, changeRequest: 1 } });
    const guideLinks = await readLinks(f.reader, `${base}/content/page/${f.guide}/links`);
    expect(guideLinks.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 0 } });

    const logo = await api.read(f.reader, `${base}/content/files/${f.logo}/backlinks`);
    expect(logo.statusCode).toBe(200);
    expectSpecResponse('listChangeRequestFileBacklinks', 200, logo.json());
    expect(logo.json().items.map(fileUse)).toEqual([
      ['file', f.logo, f.spaceId, f.guide],
      ['file', f.logo, f.spaceId, f.home],
    ]);
    const guide = await api.read(f.reader, `${base}/content/page/${f.guide}/backlinks`);
    expectSpecResponse('listChangeRequestPageBacklinks', 200, guide.json());
    expect(guide.json().count).toBe(1);

    // The space's own list is the merged content's, unchanged.
    const space = await readLinks(f.reader, `/v1/spaces/${f.spaceId}/links`);
    expect(summary(space.items, f.names)).toEqual(SPACE_LINKS);
    expect(space.stats).toEqual({ total: 12, broken: { total: 4, changeRequest: 0 } });

    const client = officialClient(endpoint, f.reader.token);
    const viaClient = await client.spaces.listChangeRequestLinks(f.spaceId, cr.id, {
      status: ContentReferenceStatus.Broken,
      brokenContext: 'change-request',
    });
    expect(viaClient.data.count).toBe(1);
    const pageViaClient = await client.spaces.listPageLinksInChangeRequest(f.spaceId, cr.id, f.home);
    expect(pageViaClient.data.stats.broken).toEqual({ total: 4, changeRequest: 1 });

    const merged = await api.merge(f.admin, f.spaceId, cr.id);
    expect(merged.json()).toMatchObject({ result: 'merge' });
    const after = await readLinks(f.reader, `/v1/spaces/${f.spaceId}/links`);
    expect(after.stats).toEqual({ total: 13, broken: { total: 5, changeRequest: 0 } });

    expect((await api.read(f.reader, `${base}/links`, { brokenContext: 'nowhere' })).statusCode).toBe(400);
    expect((await api.read(f.reader, `/v1/spaces/${f.spaceId}/change-requests/999/links`)).statusCode).toBe(404);
  });
});

describe('the report of a revision', () => {
  it('is made once: a repeated read does not read the pages’ links again, a new revision gets its own', async () => {
    const f = await linkedSpace();
    const url = `/v1/spaces/${f.spaceId}/links`;
    const first = await readLinks(f.reader, url);
    // Stored links never change once written; were they read again, this would show.
    await t.db.updateTable('documents').set({ links: '[]' }).where('space_id', '=', f.spaceId).execute();
    const again = await readLinks(f.reader, url);
    expect(summary(again.items, f.names)).toEqual(SPACE_LINKS);
    expect(again.stats).toEqual(first.stats);

    await api.change(f.admin, f.spaceId, [
      { operation: 'insert_page', title: 'Extra', document: { markdown: 'See [more](https://more.example.com).\n' } },
    ]);
    const next = await readLinks(f.reader, url);
    expect(next.stats.total).toBe(13);
    expect(summary(next.items, f.names).at(-1)).toMatch(/^ok reference https:\/\/more\.example\.com <- page \w+$/);
  });
});

describe('documents written before their facts were kept', () => {
  it('get the same answer, and have their outline and links stored on first read', async () => {
    const f = await linkedSpace();
    const url = `/v1/spaces/${f.spaceId}/links`;
    const before = await readLinks(f.reader, url);
    await t.db
      .updateTable('documents')
      .set({ outline: null, links: null, language: null })
      .where('space_id', '=', f.spaceId)
      .execute();

    const fresh = await appOn();
    const res = await fresh.inject({ method: 'GET', url, headers: f.reader.headers });
    expect(res.statusCode).toBe(200);
    const after = res.json() as LinksBody;
    const withoutSignatures = (body: LinksBody) =>
      JSON.parse(JSON.stringify(body, (key, value: unknown) => (key === 'downloadURL' ? undefined : value)));
    expect(withoutSignatures(after)).toEqual(withoutSignatures(before));

    // The documents of the revision's pages (the deleted page's stays as it was: no read needs it).
    const rows = await t.db
      .selectFrom('documents as d')
      .innerJoin('page_versions as pv', 'pv.document_id', 'd.id')
      .select(['pv.page_id', 'd.outline', 'd.links', 'd.language', 'd.document'])
      .where('pv.page_id', 'in', [f.home, f.guide, f.old])
      .execute();
    expect(rows.map((row) => row.page_id).sort()).toEqual([f.home, f.guide, f.old].sort());
    for (const row of rows) {
      const filled = row.page_id !== f.old;
      expect(row.outline !== null, row.page_id).toBe(filled);
      expect(row.links !== null).toBe(filled);
      expect(row.language !== null).toBe(filled);
      expect(row.document).not.toBeNull();
    }
    const homeLinks = await t.db
      .selectFrom('documents as d')
      .innerJoin('page_versions as pv', 'pv.document_id', 'd.id')
      .select('d.links')
      .where('pv.page_id', '=', f.home)
      .executeTakeFirstOrThrow();
    expect(homeLinks.links).toContainEqual({ kind: 'anchor', anchor: 'nowhere', relation: 'reference' });
  });
});

describe('access to link reports', () => {
  it('is for members of the space: a visitor of a public space, a guest and another organization get 404', async () => {
    const f = await linkedSpace({ visibility: 'public' });
    const stranger = await t.factory.account();
    const otherTeam = await t.factory.team();
    const guest = await t.factory.account();
    const organizationId = (await api.read(f.admin, `/v1/spaces/${f.spaceId}`)).json().organization as string;
    await t.factory.member(organizationId, guest.user.id, null);
    const created = await api.createChangeRequest(f.admin, f.spaceId, { subject: 'Draft' });
    const cr = created.json().id as string;

    // The published side is open to the stranger; the link reports are not.
    expect((await api.read(stranger, `/v1/spaces/${f.spaceId}/content/files/${f.logo}`)).statusCode).toBe(200);
    const urls = [
      `/v1/spaces/${f.spaceId}/links`,
      `/v1/spaces/${f.spaceId}/content/page/${f.home}/links`,
      `/v1/spaces/${f.spaceId}/content/files/${f.logo}/backlinks`,
      `/v1/spaces/${f.spaceId}/content/page/${f.guide}/backlinks`,
      `/v1/spaces/${f.spaceId}/change-requests/${cr}/links`,
      `/v1/spaces/${f.spaceId}/change-requests/${cr}/content/page/${f.home}/links`,
      `/v1/spaces/${f.spaceId}/change-requests/${cr}/content/files/${f.logo}/backlinks`,
      `/v1/spaces/${f.spaceId}/change-requests/${cr}/content/page/${f.guide}/backlinks`,
    ];
    for (const url of urls) {
      for (const account of [stranger, guest, otherTeam.admin]) {
        const res = await api.read(account, url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().error.message).toBe('No space with this id is visible to you');
      }
      expect((await api.read(f.reader, url)).statusCode, url).toBe(200);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: urls[0]! });
    expect(anonymous.statusCode).toBe(401);
  });

  it('needs the space:read scope', async () => {
    const f = await linkedSpace();
    const scoped = await t.factory.token(f.reader.user.id, { scopes: ['organization:read'] });
    const res = await api.read(scoped, `/v1/spaces/${f.spaceId}/links`);
    expect(res.statusCode).toBe(403);
    const readScope = await t.factory.token(f.reader.user.id, { scopes: ['space:read'] });
    expect((await api.read(readScope, `/v1/spaces/${f.spaceId}/links`)).statusCode).toBe(200);
  });
});
