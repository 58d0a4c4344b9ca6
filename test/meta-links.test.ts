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
let outsider: Account;

beforeAll(async () => {
  team = await t.factory.team(['read']);
  outsider = await t.factory.account();
});

const client = newestClientOf(() => t.app);

const get = (account: Account | undefined, url: string) =>
  t.app.inject({ method: 'GET', url, headers: account?.headers ?? {} });

/** A space of: Intro; Guide (Setup, a hidden Secrets); a group Reference (API). */
async function handbook(visibility: 'private' | 'public' = 'private') {
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook', visibility });
  await api.change(team.admin, space.id, [
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Hello.' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Guide.' } },
    { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', document: { markdown: 'Setup.' } },
    { operation: 'insert_page', ref: 'secrets', into: 'guide', title: 'Secrets', hidden: true, document: {} },
    { operation: 'insert_page', ref: 'reference', title: 'Reference', type: 'group', document: {} },
    { operation: 'insert_page', ref: 'api', into: 'reference', title: 'API', document: { markdown: 'API.' } },
  ]);
  const content = (await get(team.admin, `/v1/spaces/${space.id}/content`)).json() as {
    id: string;
    pages: Array<{ id: string; title: string; pages: Array<{ id: string; title: string }> }>;
  };
  const ids = new Map<string, string>();
  const visit = (pages: Array<{ id: string; title: string; pages?: unknown[] }>) => {
    for (const page of pages) {
      ids.set(page.title, page.id);
      visit((page.pages ?? []) as typeof pages);
    }
  };
  visit(content.pages);
  return { spaceId: space.id, revisionId: content.id, page: (title: string) => ids.get(title)! };
}

describe('page meta links', () => {
  it('name the page as its own canonical, and the pages before, after and above it, as the spec answers', async () => {
    const { spaceId, revisionId, page } = await handbook();
    const ref = (title: string) => ({ kind: 'page', page: page(title), space: spaceId });
    const links = async (title: string) => {
      const res = await get(team.member('read'), `/v1/spaces/${spaceId}/content/page/${page(title)}/meta-links`);
      expect(res.statusCode, res.body).toBe(200);
      expectNewestSpecResponse('listSpacePageMetaLinks', 200, res.json());
      return res.json();
    };
    expect(await links('Intro')).toEqual({ canonical: ref('Intro'), alternates: [], next: ref('Guide') });
    expect(await links('Setup')).toEqual({
      canonical: ref('Setup'),
      alternates: [],
      previous: ref('Guide'),
      next: ref('API'),
      parent: ref('Guide'),
    });
    // A group is no page to read; its pages follow the pages before it.
    expect(await links('API')).toEqual({
      canonical: ref('API'),
      alternates: [],
      previous: ref('Setup'),
      parent: ref('Reference'),
    });

    const inRevision = await get(
      team.admin,
      `/v1/spaces/${spaceId}/revisions/${revisionId}/page/${page('Guide')}/meta-links`,
    );
    expect(inRevision.statusCode).toBe(200);
    expectNewestSpecResponse('listRevisionPageMetaLinks', 200, inRevision.json());
    expect(inRevision.json()).toEqual({
      canonical: ref('Guide'),
      alternates: [],
      previous: ref('Intro'),
      next: ref('Setup'),
    });
    const newest = await client(team.admin);
    const { data } = await newest.spaces.listSpacePageMetaLinks(spaceId, page('Intro'));
    expectNewestSpecResponse('listSpacePageMetaLinks', 200, data);
    expect(data).toEqual({ canonical: ref('Intro'), alternates: [], next: ref('Guide') });
    const { data: again } = await newest.spaces.listRevisionPageMetaLinks(spaceId, revisionId, page('Intro'));
    expect(again).toEqual(data);
  });

  it('read a change request’s draft to members, with its new pages, and to nobody else', async () => {
    const { spaceId, page } = await handbook('public');
    const cr = await api.openChangeRequest(team.admin, spaceId);
    const written = await api.writeContent(
      team.admin,
      spaceId,
      cr,
      [{ operation: 'insert_page', ref: 'draft', title: 'Draft', document: { markdown: 'Soon.' } }],
      { compat: 'false' },
    );
    expect(written.statusCode, written.body).toBe(200);
    const content = (await get(team.admin, `/v1/spaces/${spaceId}/change-requests/${cr}/content`)).json() as {
      pages: Array<{ id: string; title: string }>;
    };
    const draft = content.pages.find((p) => p.title === 'Draft')!.id;
    const url = `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${draft}/meta-links`;
    const res = await get(team.member('read'), url);
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('listChangeRequestPageMetaLinks', 200, res.json());
    expect(res.json()).toMatchObject({ canonical: { kind: 'page', page: draft, space: spaceId }, alternates: [] });
    const { data } = await (await client(team.admin)).spaces.listChangeRequestPageMetaLinks(spaceId, cr, draft);
    expect(data).toEqual(res.json());

    // The draft is not the published side: a visitor of the public space meets a 404, as does the space's page id.
    expect((await get(outsider, url)).statusCode).toBe(404);
    expect((await get(team.admin, `/v1/spaces/${spaceId}/content/page/${draft}/meta-links`)).statusCode).toBe(404);
    const published = await get(outsider, `/v1/spaces/${spaceId}/content/page/${page('Intro')}/meta-links`);
    expect(published.statusCode).toBe(200);
  });

  it('answer 404 for an unknown page or a space the caller cannot see, 401 without a token, 403 without space:read', async () => {
    const { spaceId, page } = await handbook();
    const url = `/v1/spaces/${spaceId}/content/page/${page('Intro')}/meta-links`;
    expect((await get(team.admin, `/v1/spaces/${spaceId}/content/page/NoSuchPage/meta-links`)).statusCode).toBe(404);
    const stranger = await get(outsider, url);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ error: { code: 404, message: 'No space with this id is visible to you' } });
    expect((await get(undefined, url)).statusCode).toBe(401);
    const narrow = await t.factory.token(team.admin.user.id, { scopes: ['user:read'] });
    expect((await get(narrow, url)).statusCode).toBe(403);
  });
});
