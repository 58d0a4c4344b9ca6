import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;
let outsider: Team;

const client = newestClientOf(() => t.app);

beforeAll(async () => {
  team = await t.factory.team(['edit', 'read']);
  admin = team.admin;
  outsider = await t.factory.team();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (account: Account | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account?.headers ?? {}, ...(payload ? { payload } : {}) });

interface Page {
  id: string;
  title: string;
  pages?: Page[];
}

const titles = (pages: Page[]): unknown[] =>
  pages.map((page) => (page.pages?.length ? [page.title, titles(page.pages)] : page.title));

async function pagesOf(spaceId: string, changeRequestId?: string) {
  const url = changeRequestId
    ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`
    : `/v1/spaces/${spaceId}/content`;
  const answer = await call(admin, 'GET', url);
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { pages: Page[] }).pages;
}

const revisionOf = async (spaceId: string) =>
  (await t.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow())
    .revision_id;

const PRODUCT_DOCS = ['Overview', 'Quickstart', ['Guides', ['Create your first project']], 'FAQ'];

/** Every block type in a document, depth first. */
function blockTypes(node: { type?: string; nodes?: unknown[] }): string[] {
  const own = node.type ? [node.type] : [];
  return [...own, ...(node.nodes ?? []).flatMap((child) => blockTypes(child as typeof node))];
}

describe('applyTemplateToSpace', () => {
  it('writes a template’s pages of real blocks into the space as a new revision, through the newest client', async () => {
    const space = await api.createSpace(admin, team.organization.id, { title: 'Docs' });
    const before = await revisionOf(space.id);
    const answer = await (
      await client(team.member('edit'))
    ).spaces.applyTemplateToSpace(space.id, { id: 'product-docs' });
    expect(answer.status).toBe(201);
    expect(await revisionOf(space.id)).not.toBe(before);
    const pages = await pagesOf(space.id);
    expect(titles(pages)).toEqual(PRODUCT_DOCS);

    const quickstart = pages.find((page) => page.title === 'Quickstart')!;
    const read = await call(admin, 'GET', `/v1/spaces/${space.id}/content/page/${quickstart.id}`);
    expect(read.statusCode).toBe(200);
    const types = blockTypes((read.json() as { document: { nodes: unknown[] } }).document);
    expect(types).toEqual(expect.arrayContaining(['stepper', 'stepper-step', 'code', 'hint', 'heading-3']));
    const overview = pages.find((page) => page.title === 'Overview')!;
    const overviewRead = await call(admin, 'GET', `/v1/spaces/${space.id}/content/page/${overview.id}`);
    expect(blockTypes((overviewRead.json() as { document: { nodes: unknown[] } }).document)).toEqual(
      expect.arrayContaining(['hint', 'table']),
    );

    // The pages are ordinary pages: a change request edits them like any other.
    await api.change(admin, space.id, [{ operation: 'update_page', page: overview.id, title: 'Welcome' }]);
    expect(titles(await pagesOf(space.id))[0]).toBe('Welcome');
  });

  it('writes into a change request instead when one is named, leaving the space’s content as it was', async () => {
    const space = await api.createSpace(admin, team.organization.id, { title: 'API' });
    const changeRequestId = await api.openChangeRequest(admin, space.id);
    const before = await revisionOf(space.id);
    const answer = await call(admin, 'POST', `/v1/spaces/${space.id}/content/template`, {
      id: 'api-docs',
      changeRequestId,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.body).toBe('');
    expect(titles(await pagesOf(space.id, changeRequestId))).toEqual([
      'Introduction',
      'Authentication',
      'Errors',
      'Pagination',
    ]);
    expect(await pagesOf(space.id)).toEqual([]);
    expect(await revisionOf(space.id)).toBe(before);
    const merged = await api.merge(admin, space.id, changeRequestId);
    expect(merged.json()).toMatchObject({ result: 'merge' });
    expect(titles(await pagesOf(space.id))).toHaveLength(4);
  });

  it('refuses bad input, callers without the edit role, locked spaces and closed change requests, writing nothing', async () => {
    const space = await api.createSpace(admin, team.organization.id, { title: 'Refusals' });
    const before = await revisionOf(space.id);
    const url = `/v1/spaces/${space.id}/content/template`;
    const cases: Array<[Account | undefined, object, number, RegExp?]> = [
      [admin, { id: 'no-such-template' }, 400, /body\/id/],
      [admin, {}, 400, /id/],
      [admin, { id: 'product-docs', extra: true }, 400],
      [admin, { id: 'product-docs', params: { contentRefs: { a: { kind: 'x'.repeat(33) } } } }, 400],
      [admin, { id: 'product-docs', changeRequestId: 'NoSuchChangeRequest1' }, 404],
      [team.member('read'), { id: 'product-docs' }, 403, /edit role/],
      [outsider.admin, { id: 'product-docs' }, 404],
      [undefined, { id: 'product-docs' }, 401],
    ];
    for (const [account, body, status, message] of cases) {
      const answer = await call(account, 'POST', url, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(status);
      if (message) expect(answer.json().error.message).toMatch(message);
    }
    const merged = await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Only page', document: { markdown: 'Hi.' } },
    ]);
    const afterChange = await revisionOf(space.id);
    expect(afterChange).not.toBe(before);
    const closed = await call(admin, 'POST', url, { id: 'product-docs', changeRequestId: merged.id });
    expect(closed.statusCode).toBe(409);
    expect((await call(admin, 'PATCH', `/v1/spaces/${space.id}`, { editMode: 'locked' })).statusCode).toBe(200);
    const locked = await call(admin, 'POST', url, { id: 'product-docs' });
    expect(locked.statusCode).toBe(403);
    expect(await revisionOf(space.id)).toBe(afterChange);
    expect(titles(await pagesOf(space.id))).toEqual(['Only page']);
  });
});

describe('createSpace with a template or empty', () => {
  it('starts the space with the template’s pages, or none', async () => {
    const created = await call(admin, 'POST', `/v1/orgs/${team.organization.id}/spaces`, {
      title: 'Knowledge',
      template: { id: 'knowledge-base' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expectNewestSpecResponse('createSpace', 201, created.json());
    const space = created.json() as { id: string; revision: string };
    expect(space.revision).toBe(await revisionOf(space.id));
    expect(titles(await pagesOf(space.id))).toEqual(['Welcome', 'How we work', 'Troubleshooting']);

    const empty = await call(admin, 'POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Blank', empty: true });
    expect(empty.statusCode).toBe(201);
    expect(await pagesOf((empty.json() as { id: string }).id)).toEqual([]);
  });

  it('refuses an unknown template, both template and empty, or empty false, and makes no space', async () => {
    const owner = await t.factory.team();
    const count = async () =>
      (await t.db.selectFrom('spaces').select('id').where('organization_id', '=', owner.organization.id).execute())
        .length;
    for (const body of [
      { title: 'x', template: { id: 'nope' } },
      { title: 'x', template: { id: 'api-docs' }, empty: true },
      { title: 'x', empty: false },
      { title: 'x', template: {} },
    ]) {
      const answer = await call(owner.admin, 'POST', `/v1/orgs/${owner.organization.id}/spaces`, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await count()).toBe(0);
  });
});

describe('applyTemplateToSite', () => {
  async function emptySite(owner: Team) {
    const created = await call(owner.admin, 'POST', `/v1/orgs/${owner.organization.id}/sites`, { title: 'Acme Help' });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: string }).id;
  }

  it('fills an empty site with a space of the default template, and links its quickstart from the header', async () => {
    const owner = await t.factory.team();
    const siteId = await emptySite(owner);
    const answer = await (await client(owner.admin)).orgs.applyTemplateToSite(owner.organization.id, siteId);
    expect(answer.status).toBe(200);
    const sitePath = `/v1/orgs/${owner.organization.id}/sites/${siteId}`;
    const siteSpaces = (await call(owner.admin, 'GET', `${sitePath}/site-spaces`)).json() as {
      items: Array<{ space: { id: string; title: string } }>;
    };
    expect(siteSpaces.items).toHaveLength(1);
    const space = siteSpaces.items[0]!.space;
    expect(space.title).toBe('Acme Help');
    // Another organization's admin does not see the new space.
    expect((await call(admin, 'GET', `/v1/spaces/${space.id}/content`)).statusCode).toBe(404);
    const own = await call(owner.admin, 'GET', `/v1/spaces/${space.id}/content`);
    const ownPages = (own.json() as { pages: Page[] }).pages;
    expect(titles(ownPages)).toEqual(PRODUCT_DOCS);
    const customization = (await call(owner.admin, 'GET', `${sitePath}/customization`)).json() as {
      header: { links: Array<{ title: string; to: unknown }> };
    };
    const quickstart = ownPages.find((page) => page.title === 'Quickstart')!;
    expect(customization.header.links).toEqual([
      { title: 'Quickstart', to: { kind: 'page', page: quickstart.id, space: space.id }, links: [] },
    ]);
  });

  it('is for admins of the site; on a site with spaces and header links it adds a space and keeps the links', async () => {
    const owner = await t.factory.team(['edit']);
    const siteId = await emptySite(owner);
    const url = `/v1/orgs/${owner.organization.id}/sites/${siteId}/template`;
    const spaces = async () =>
      (await t.db.selectFrom('spaces').select('id').where('organization_id', '=', owner.organization.id).execute())
        .length;
    expect((await call(owner.member('edit'), 'POST', url)).statusCode).toBe(403);
    expect((await call(outsider.admin, 'POST', url)).statusCode).toBe(404);
    expect((await call(undefined, 'POST', url)).statusCode).toBe(401);
    expect(await spaces()).toBe(0);
    expect((await call(owner.admin, 'POST', url)).statusCode).toBe(200);
    const sitePath = `/v1/orgs/${owner.organization.id}/sites/${siteId}`;
    const linksBefore = ((await call(owner.admin, 'GET', `${sitePath}/customization`)).json() as { header: object })
      .header;
    expect((await call(owner.admin, 'POST', url)).statusCode).toBe(200);
    expect(await spaces()).toBe(2);
    const siteSpaces = (await call(owner.admin, 'GET', `${sitePath}/site-spaces`)).json() as { items: unknown[] };
    expect(siteSpaces.items).toHaveLength(2);
    expect(((await call(owner.admin, 'GET', `${sitePath}/customization`)).json() as { header: object }).header).toEqual(
      linksBefore,
    );
  });
});
