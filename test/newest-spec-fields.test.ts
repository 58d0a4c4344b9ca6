import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpecProcessor, type SpecProcessor } from '../src/specs/worker.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectNewestSpecSchema, expectSpecResponse } from './support/spec.js';

/*
 * The fields @gitbook/api@0.202.0 requires that 0.143.2 lacks, on the answers
 * of operations both specs have: each answer must validate against both.
 */
const t = useTestApp();
const api = contentApi(() => t.app);

function expectBothSpecs(operationId: string, status: number, body: unknown): void {
  expectSpecResponse(operationId, status, body);
  expectNewestSpecResponse(operationId, status, body);
}

type Method = 'GET' | 'POST' | 'PATCH';
async function call(account: Account, method: Method, url: string, payload?: object, status = 200) {
  const res = await t.app.inject({
    method,
    url: `/v1${url}`,
    headers: account.headers,
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}

let team: Awaited<ReturnType<typeof t.factory.team>>;
let admin: Account;
let reader: Account;
let guest: Account;
let org: string;
let spaceId: string;
let processor: SpecProcessor;

beforeAll(async () => {
  team = await t.factory.team(['read', null]);
  admin = team.admin;
  reader = team.member('read');
  guest = team.member(null);
  org = team.organization.id;
  spaceId = (await api.createSpace(admin, org, { title: 'Handbook' })).id;
  await api.change(admin, spaceId, [
    { operation: 'insert_page', ref: 'guides', type: 'group', title: 'Guides' },
    {
      operation: 'insert_page',
      ref: 'install',
      into: 'guides',
      title: 'Installation',
      description: 'Getting the service running',
      document: { markdown: '# Installation\n\nRun the installer.\n\n## Upgrading\n\nRun the installer again.' },
    },
    { operation: 'insert_page', title: 'Uninstall', document: { markdown: 'The installer removes itself.' } },
  ]);
  processor = createSpecProcessor(t.app.context);
});

afterAll(async () => {
  await processor?.close();
});

describe('pages', () => {
  it('carry tags (none kept) and a layout with its cover mask, by id and by path', async () => {
    const { pages } = await call(admin, 'GET', `/spaces/${spaceId}/content`);
    const installId = pages[0].pages[0].id as string;
    const byId = await call(reader, 'GET', `/spaces/${spaceId}/content/page/${installId}`);
    expectBothSpecs('getPageById', 200, byId);
    expect(byId.tags).toEqual([]);
    expect(byId.layout).toMatchObject({ coverMask: 'none' });
    const byPath = await call(reader, 'GET', `/spaces/${spaceId}/content/path/guides/installation`);
    expectBothSpecs('getPageByPath', 200, byPath);
    expect(byPath).toMatchObject({ id: installId, tags: [], layout: { coverMask: 'none' } });
  });
});

describe('members', () => {
  it('count the sites they read: every site of the organization for a role, none for a guest', async () => {
    const before = await call(admin, 'GET', `/orgs/${org}/members/${reader.user.id}`);
    expectBothSpecs('getMemberInOrganizationById', 200, before);
    expect(before.sites).toBe(0);
    await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Docs' }, 201);
    await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Guides' }, 201);

    const list = await call(reader, 'GET', `/orgs/${org}/members`);
    expectBothSpecs('listMembersInOrganizationById', 200, list);
    const sitesOf = Object.fromEntries(
      (list.items as Array<{ id: string; sites: number }>).map((member) => [member.id, member.sites]),
    );
    expect(sitesOf).toEqual({ [admin.user.id]: 2, [reader.user.id]: 2, [guest.user.id]: 0 });
    const one = await call(reader, 'GET', `/orgs/${org}/members/${guest.user.id}`);
    expectBothSpecs('getMemberInOrganizationById', 200, one);
    expect(one.sites).toBe(0);
    // Another organization's sites count for nobody here.
    const other = await t.factory.team();
    await call(other.admin, 'POST', `/orgs/${other.organization.id}/sites`, { title: 'Theirs' }, 201);
    expect((await call(admin, 'GET', `/orgs/${org}/members/${admin.user.id}`)).sites).toBe(2);
  });
});

interface PageResult {
  id: string;
  title: string;
  description: string;
  score: number;
  rank: number;
  ancestors: Array<{ title: string }>;
  sections: Array<{ title: string; score: number }>;
}

describe('search results', () => {
  it('in a space: each page with its description, ancestors, score and rank, kept across pages of results', async () => {
    const whole = await call(reader, 'GET', `/spaces/${spaceId}/search?query=installer`);
    expectBothSpecs('searchSpaceContent', 200, whole);
    const items = whole.items as PageResult[];
    expect(items.map((page) => [page.title, page.rank])).toEqual([
      [items[0]!.title, 1],
      [items[1]!.title, 2],
    ]);
    const install = items.find((page) => page.title === 'Installation')!;
    expect(install).toMatchObject({ description: 'Getting the service running', ancestors: [{ title: 'Guides' }] });
    const uninstall = items.find((page) => page.title === 'Uninstall')!;
    expect(uninstall).toMatchObject({ description: '', ancestors: [] });
    expect(items[0]!.score).toBeGreaterThanOrEqual(items[1]!.score);
    expect(items[1]!.score).toBeGreaterThan(0);
    for (const section of install.sections) expect(section.score).toBeGreaterThan(0);

    const first = await call(reader, 'GET', `/spaces/${spaceId}/search?query=installer&limit=1`);
    expectBothSpecs('searchSpaceContent', 200, first);
    const second = await call(
      reader,
      'GET',
      `/spaces/${spaceId}/search?query=installer&limit=1&page=${encodeURIComponent(first.next.page)}`,
    );
    expectBothSpecs('searchSpaceContent', 200, second);
    expect([...first.items, ...second.items].map((page: PageResult) => [page.id, page.rank])).toEqual(
      items.map((page) => [page.id, page.rank]),
    );
    expect(second.next).toBeUndefined();
  });

  it('in an organization: spaces with their score, pages ranked in the order shown across spaces and pages', async () => {
    const other = (await api.createSpace(admin, org, { title: 'Operations' })).id;
    await api.change(admin, other, [
      { operation: 'insert_page', title: 'Installer', document: { markdown: 'The installer, in depth.' } },
    ]);
    const whole = await call(reader, 'GET', `/orgs/${org}/search?query=installer`);
    expectBothSpecs('searchOrganizationContent', 200, whole);
    const spaces = whole.items as Array<{ type: string; id: string; score: number; pages: PageResult[] }>;
    expect(spaces.map((space) => space.type)).toEqual(['space', 'space']);
    expect(spaces[0]!.score).toBeGreaterThanOrEqual(spaces[1]!.score);
    for (const space of spaces) expect(space.score).toBe(Math.max(...space.pages.map((page) => page.score)));
    expect(spaces.flatMap((space) => space.pages.map((page) => page.rank))).toEqual([1, 2, 3]);

    const first = await call(reader, 'GET', `/orgs/${org}/search?query=installer&limit=1`);
    const second = await call(
      reader,
      'GET',
      `/orgs/${org}/search?query=installer&limit=1&page=${encodeURIComponent(first.next.page)}`,
    );
    expectBothSpecs('searchOrganizationContent', 200, second);
    const ranks = (page: { items: Array<{ pages: PageResult[] }> }) =>
      page.items.flatMap((space) => space.pages.map((result) => result.rank));
    expect([...ranks(first), ...ranks(second)]).toEqual([1, 2, 3]);
  });

  it('refuses a cursor made for another query with a 400', async () => {
    const first = await call(reader, 'GET', `/spaces/${spaceId}/search?query=installer&limit=1`);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/spaces/${spaceId}/search?query=upgrading&limit=1&page=${encodeURIComponent(first.next.page)}`,
      headers: reader.headers,
    });
    expect(res.statusCode).toBe(400);
  });
});

const ADMIN_SITE_PERMISSIONS = {
  view: true,
  access: true,
  edit: true,
  create: true,
  admin: true,
  installIntegration: true,
  viewAdaptiveSchema: true,
  editAdaptiveSchema: true,
};

describe('sites', () => {
  it('carry the applied type, the inherited default level, the caller’s permissions and a preview URL', async () => {
    const site = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Portal', type: 'premium' }, 201);
    expectBothSpecs('createSite', 201, site);
    const preview = `${PUBLIC_URL}/v1/orgs/${org}/sites/${site.id}/published`;
    expect(site).toMatchObject({
      type: 'premium',
      appliedType: 'premium',
      defaultLevel: 'inherit',
      permissions: ADMIN_SITE_PERMISSIONS,
      urls: { preview },
    });

    const asReader = await call(reader, 'GET', `/orgs/${org}/sites/${site.id}`);
    expectBothSpecs('getSiteById', 200, asReader);
    expect(asReader.permissions).toEqual({
      view: true,
      access: true,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false,
    });
    const listed = await call(admin, 'GET', `/orgs/${org}/sites`);
    expectBothSpecs('listSites', 200, listed);
    expect(listed.items.find((item: { id: string }) => item.id === site.id)).toEqual({
      ...site,
      permissions: ADMIN_SITE_PERMISSIONS,
    });
    const readerList = await call(reader, 'GET', `/orgs/${org}/sites`);
    expect(readerList.items.map((item: { permissions: object }) => item.permissions)).toContainEqual(
      asReader.permissions,
    );
    expect(readerList.items.every((item: { permissions: { admin: boolean } }) => !item.permissions.admin)).toBe(true);

    const updated = await call(admin, 'PATCH', `/orgs/${org}/sites/${site.id}`, { title: 'Portal 2' });
    expectBothSpecs('updateSiteById', 200, updated);
    expect(updated).toMatchObject({ appliedType: 'premium', permissions: ADMIN_SITE_PERMISSIONS });
  });

  it('show a visitor of a published site that they may only view it', async () => {
    const site = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Public', spaces: [spaceId] }, 201);
    await call(admin, 'POST', `/orgs/${org}/sites/${site.id}/publish`);
    const stranger = await t.factory.account();
    const published = await call(stranger, 'GET', `/orgs/${org}/sites/${site.id}/published`);
    expect(published.site.permissions).toEqual({
      view: true,
      access: false,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: false,
      editAdaptiveSchema: false,
    });
    expectSpecResponse('getPublishedContentSite', 200, published);
    // The customization beside it is not yet in 0.202.0's shape: the site alone is checked against it.
    expectNewestSpecSchema('Site', published.site);
    const asAdmin = await call(admin, 'GET', `/orgs/${org}/sites/${site.id}/published`);
    expect(asAdmin.site.permissions).toEqual(ADMIN_SITE_PERMISSIONS);
  });

  it('hold sections and site spaces that are never drafts', async () => {
    const site = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Sections', spaces: [spaceId] }, 201);
    const siteSpaces = await call(reader, 'GET', `/orgs/${org}/sites/${site.id}/site-spaces`);
    expectBothSpecs('listSiteSpaces', 200, siteSpaces);
    expect(siteSpaces.items.map((item: { draft: boolean }) => item.draft)).toEqual([false]);

    const other = (await api.createSpace(admin, org, { title: 'Reference' })).id;
    const section = await call(admin, 'POST', `/orgs/${org}/sites/${site.id}/sections`, { spaceId: other }, 201);
    expectBothSpecs('addSectionToSite', 201, section);
    expect(section).toMatchObject({ draft: false, siteSpaces: [{ draft: false }] });
    const sections = await call(reader, 'GET', `/orgs/${org}/sites/${site.id}/sections`);
    expectBothSpecs('listSiteSections', 200, sections);
    expect(sections.items.map((item: { draft: boolean }) => item.draft)).toEqual([false, false]);
    const updated = await call(admin, 'PATCH', `/orgs/${org}/sites/${site.id}/sections/${section.id}`, {
      title: 'API',
    });
    expectBothSpecs('updateSiteSectionById', 200, updated);
    expect(updated).toMatchObject({ title: 'API', draft: false });
    const siteSpace = section.siteSpaces[0].id as string;
    const movedSpace = await call(admin, 'PATCH', `/orgs/${org}/sites/${site.id}/site-spaces/${siteSpace}`, {
      path: 'v2',
    });
    expectBothSpecs('updateSiteSpaceById', 200, movedSpace);
    expect(movedSpace).toMatchObject({ path: 'v2', draft: false });
    const structure = await call(reader, 'GET', `/orgs/${org}/sites/${site.id}/structure`);
    expectBothSpecs('getSiteStructure', 200, structure);
  });
});

describe('OpenAPI specs', () => {
  it('count the errors of their last processing: none before and after a success, those found after a failure', async () => {
    const valid = '{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}}';
    const created = await call(
      admin,
      'POST',
      `/orgs/${org}/openapi`,
      { slug: 'payments', source: { text: valid } },
      201,
    );
    expectBothSpecs('createOpenAPISpec', 201, created);
    expect(created).toMatchObject({ processingState: 'pending', lastProcessedErrorCount: 0 });
    expect(await processor.runNext()).toBe(true);
    const processed = await call(reader, 'GET', `/orgs/${org}/openapi/payments`);
    expectBothSpecs('getOpenAPISpecBySlug', 200, processed);
    expect(processed).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
    expect(processed).not.toHaveProperty('lastProcessedErrors');

    const broken = '{"openapi":"3.0.3","info":{"version":1},"paths":{"/a":{"get":{"responses":"none"}}}}';
    await call(admin, 'POST', `/orgs/${org}/openapi`, { slug: 'broken', source: { text: broken } }, 201);
    expect(await processor.runNext()).toBe(true);
    const failed = await call(reader, 'GET', `/orgs/${org}/openapi/broken`);
    expectBothSpecs('getOpenAPISpecBySlug', 200, failed);
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(failed.lastProcessedErrors.length).toBeGreaterThan(0);
    expect(failed.lastProcessedErrorCount).toBe(failed.lastProcessedErrors.length);

    const listed = await call(reader, 'GET', `/orgs/${org}/openapi`);
    expectBothSpecs('listOpenAPISpecs', 200, listed);
    expect(
      Object.fromEntries(
        listed.items.map((spec: { slug: string; lastProcessedErrorCount: number }) => [
          spec.slug,
          spec.lastProcessedErrorCount,
        ]),
      ),
    ).toEqual({ payments: 0, broken: failed.lastProcessedErrors.length });
  });
});

describe('integration scopes', () => {
  const definition = (scopes: string[]) => ({
    title: 'Page views',
    description: 'Reads how often pages are read',
    script: 'export default {}',
    organization: org,
    visibility: 'private',
    scopes,
  });

  it('take the seeds’ space:views:read and 0.202.0’s site:visitor:claims beside the spec’s', async () => {
    const name = 'views-reader';
    const scopes = ['space:views:read', 'site:views:read', 'site:visitor:claims'];
    const published = await call(admin, 'POST', `/integrations/${name}`, definition(scopes));
    expect(published).toMatchObject({ name, scopes });
    const row = await t.db
      .selectFrom('integrations')
      .select('scopes')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    expect(row.scopes).toEqual(scopes);
    expect((await call(admin, 'GET', `/integrations?scope=space:views:read`)).items).toEqual([
      expect.objectContaining({ name }),
    ]);
  });

  it('refuse a scope no spec nor the seeds name, with a 400 that stores nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/integrations/unknown-scope',
      headers: admin.headers,
      payload: definition(['space:views:write']),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^body\/scopes\/0 must be one of/);
    expect(await t.db.selectFrom('integrations').select('id').where('name', '=', 'unknown-scope').execute()).toEqual(
      [],
    );
  });
});

describe('through the newest official client', () => {
  it('reads a site, a member and a search as 0.202.0 types them', async () => {
    const client = newestOfficialClient(await listen(t.app), reader.token);
    const site = await call(admin, 'POST', `/orgs/${org}/sites`, { title: 'Client site', spaces: [spaceId] }, 201);
    const read = await client.orgs.getSiteById(org, site.id);
    expect(read.data).toMatchObject({ appliedType: 'basic', defaultLevel: 'inherit', permissions: { admin: false } });
    expectBothSpecs('getSiteById', 200, read.data);
    const member = await client.orgs.getMemberInOrganizationById(org, reader.user.id);
    expect(member.data.sites).toBeGreaterThan(0);
    const found = await client.spaces.searchSpaceContent(spaceId, { query: 'installer' });
    expect(found.data.items.map((page) => page.rank)).toEqual([1, 2]);
    expectBothSpecs('searchSpaceContent', 200, found.data);
  });
});
