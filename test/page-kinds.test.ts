import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Account } from './support/factory.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

interface Change {
  object: string;
  ref?: string;
  page: string | { id: string };
}

const idsOf = (changes: Change[]) =>
  Object.fromEntries(
    changes.flatMap((change) => (change.ref && typeof change.page !== 'string' ? [[change.ref, change.page.id]] : [])),
  ) as Record<string, string>;

async function spaceWithTeam() {
  const team = await t.factory.team(['read', 'edit']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  return { ...team, space };
}

/** Writes a batch to a new change request and answers with the response, the change request left unmerged. */
async function draft(account: Account, spaceId: string, changes: unknown[]) {
  const cr = (await api.createChangeRequest(account, spaceId, { subject: 'Draft' })).json();
  const res = await api.writeContent(account, spaceId, cr.id, changes, { compat: 'false' });
  return { cr: cr as { id: string; revision: string }, res };
}

const crRevision = async (spaceId: string, changeRequestId: string) =>
  (
    await t.db
      .selectFrom('change_requests')
      .select('revision_id')
      .where('space_id', '=', spaceId)
      .where('id', '=', changeRequestId)
      .executeTakeFirstOrThrow()
  ).revision_id;

describe('group and link pages', () => {
  it('are written through change requests and read back in every page read and list, as the spec has them', async () => {
    const { admin, organization, space } = await spaceWithTeam();
    const other = await api.createSpace(admin, organization.id, { title: 'Other' });
    const collection = await api.createCollection(admin, organization.id, { title: 'Shelf' });
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Hello.' } },
      { operation: 'insert_page', ref: 'guides', type: 'group', title: 'Guides', emoji: '📚' },
      { operation: 'insert_page', ref: 'setup', into: 'guides', title: 'Setup', document: { markdown: '# Setup' } },
      {
        operation: 'insert_page',
        ref: 'home',
        into: 'guides',
        type: 'link',
        title: 'Home page',
        target: { kind: 'url', url: 'https://example.com/home' },
        hidden: true,
      },
      {
        operation: 'insert_page',
        ref: 'to-intro',
        into: 'intro',
        type: 'link',
        title: 'Back to intro',
        target: { kind: 'anchor', page: 'intro', anchor: 'welcome' },
      },
      {
        operation: 'insert_page',
        ref: 'to-setup',
        type: 'link',
        title: 'Setup',
        target: { kind: 'page', page: 'setup' },
      },
      {
        operation: 'insert_page',
        ref: 'to-other',
        type: 'link',
        title: 'Other',
        target: { kind: 'space', space: other.id },
      },
      {
        operation: 'insert_page',
        ref: 'to-shelf',
        type: 'link',
        title: 'Shelf',
        target: { kind: 'collection', collection: collection.id },
      },
    ]);
    const ids = idsOf(written.changes);

    const list = await api.read(admin, `/v1/spaces/${space.id}/content/pages`);
    expect(list.statusCode).toBe(200);
    expectSpecResponse('listPages', 200, list.json());
    const [intro, guides, toSetup, toOther, toShelf] = list.json().pages;
    expect(guides).toEqual({
      id: ids.guides,
      title: 'Guides',
      kind: 'group',
      type: 'group',
      emoji: '📚',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      slug: 'guides',
      path: 'guides',
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      pages: [
        expect.objectContaining({ id: ids.setup, type: 'document', path: 'guides/setup' }),
        {
          id: ids.home,
          title: 'Home page',
          kind: 'link',
          type: 'link',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          target: { kind: 'url', url: 'https://example.com/home' },
          href: 'https://example.com/home',
          hidden: true,
        },
      ],
    });
    expect(intro.pages).toEqual([
      expect.objectContaining({ id: ids['to-intro'], target: { kind: 'anchor', page: ids.intro, anchor: 'welcome' } }),
    ]);
    expect(toSetup).toMatchObject({ type: 'link', target: { kind: 'page', page: ids.setup } });
    expect(toSetup.pages).toBeUndefined();
    expect(toSetup.slug).toBeUndefined();
    expect(toOther).toMatchObject({ type: 'link', target: { kind: 'space', space: other.id } });
    expect(toShelf).toMatchObject({ type: 'link', target: { kind: 'collection', collection: collection.id } });
    // Neither kind has content of its own.
    const versions = await t.db
      .selectFrom('page_versions')
      .select(['type', 'document_id'])
      .where('space_id', '=', space.id)
      .where('type', 'in', ['group', 'link'])
      .execute();
    expect(versions.length).toBe(6);
    expect(versions.every((version) => version.document_id === null)).toBe(true);

    for (const format of ['document', 'markdown']) {
      const group = await api.read(admin, `/v1/spaces/${space.id}/content/page/${ids.guides}`, { format });
      expectSpecResponse('getPageById', 200, group.json());
      expect(group.json()).toMatchObject({ type: 'group', pages: [{ id: ids.setup }, { id: ids.home }] });
      const link = await api.read(admin, `/v1/spaces/${space.id}/content/page/${ids.home}`, { format });
      expectSpecResponse('getPageById', 200, link.json());
      expect(link.json()).toMatchObject({ type: 'link', target: { kind: 'url' } });
      expect(link.json().markdown).toBeUndefined();
      expect(link.json().document).toBeUndefined();
    }
    const revision = await api.read(admin, `/v1/spaces/${space.id}/content`);
    expectSpecResponse('getCurrentRevision', 200, revision.json());
    const byRevision = await api.read(admin, `/v1/spaces/${space.id}/revisions/${revision.json().id}/page/${ids.home}`);
    expectSpecResponse('getPageInRevisionById', 200, byRevision.json());
    expectSpecResponse(
      'listPagesInRevisionById',
      200,
      (await api.read(admin, `/v1/spaces/${space.id}/revisions/${revision.json().id}/pages`)).json(),
    );
    // A group is found by its path; a link page has none.
    const byPath = await api.read(admin, `/v1/spaces/${space.id}/content/path/guides`);
    expect(byPath.json()).toMatchObject({ id: ids.guides, type: 'group' });
    expect((await api.read(admin, `/v1/spaces/${space.id}/content/path/${ids['to-setup']}`)).statusCode).toBe(404);

    // In a change request, before a merge, too.
    const { cr, res } = await draft(admin, space.id, [
      { operation: 'update_page', page: ids.home, title: 'Home', target: { kind: 'page', page: ids.intro } },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const inCr = await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expectSpecResponse('listPagesInChangeRequest', 200, inCr.json());
    const home = await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${ids.home}`);
    expectSpecResponse('getPageInChangeRequestById', 200, home.json());
    expect(home.json()).toMatchObject({ title: 'Home', target: { kind: 'page', page: ids.intro } });
    expect(home.json().href).toBeUndefined();
    expectSpecResponse(
      'getRevisionOfChangeRequestById',
      200,
      (await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr.id}/content`)).json(),
    );
  });

  it('are read through the official client', async () => {
    const { admin, space } = await spaceWithTeam();
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', ref: 'group', type: 'group', title: 'Group' },
      {
        operation: 'insert_page',
        ref: 'link',
        into: 'group',
        type: 'link',
        title: 'Link',
        target: { kind: 'url', url: 'mailto:docs@example.com' },
      },
    ]);
    const ids = idsOf(written.changes);
    const client = officialClient(await listen(t.app), admin.token);
    const { data } = await client.spaces.listPages(space.id);
    expect(data.pages).toMatchObject([{ id: ids.group, type: 'group', pages: [{ id: ids.link, type: 'link' }] }]);
    const { data: link } = await client.spaces.getPageById(space.id, ids.link!);
    expect(link).toMatchObject({ type: 'link', target: { kind: 'url', url: 'mailto:docs@example.com' } });
  });

  it('refuse what their kind cannot have or where it cannot go, and change nothing then', async () => {
    const { admin, space } = await spaceWithTeam();
    const elsewhere = await t.factory.team();
    const foreign = await api.createSpace(elsewhere.admin, elsewhere.organization.id, { title: 'Foreign' });
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', ref: 'page', title: 'Page', document: { markdown: 'Text' } },
      { operation: 'insert_page', ref: 'group', type: 'group', title: 'Group' },
      { operation: 'insert_page', ref: 'link', type: 'link', title: 'Link', target: { kind: 'page', page: 'page' } },
    ]);
    const ids = idsOf(written.changes);
    const cr = (await api.createChangeRequest(admin, space.id, { subject: 'Refused' })).json();
    const before = await crRevision(space.id, cr.id);
    const link = (target: unknown, extra: Record<string, unknown> = {}) => ({
      operation: 'insert_page',
      type: 'link',
      title: 'L',
      target,
      ...extra,
    });
    const cases: Array<[unknown[], number, string | RegExp]> = [
      [[{ operation: 'insert_page', type: 'link', title: 'L' }], 400, 'body/changes/0/target is required'],
      [[link({ kind: 'url', url: 'javascript:alert(1)' })], 400, /body\/changes\/0\/target\/url must match pattern/],
      [[link({ kind: 'page', page: 'nope' })], 400, 'body/changes/0/target/page: no page nope in this change request'],
      [[link({ kind: 'file', file: 'nope' })], 400, 'body/changes/0/target/file: no file nope'],
      [[link({ kind: 'space', space: foreign.id })], 400, `body/changes/0/target/space: no space ${foreign.id}`],
      [[link({ kind: 'collection', collection: 'nope' })], 400, 'body/changes/0/target/collection: no collection'],
      [[link({ kind: 'page', page: 'p', space: foreign.id })], 400, 'no space'],
      [[link({ kind: 'user', user: admin.user.id })], 400, /body\/changes\/0\/target/],
      [
        [link({ kind: 'url', url: 'https://x.test' }, { document: { markdown: 'x' } })],
        400,
        'a link page has no document',
      ],
      [[link({ kind: 'url', url: 'https://x.test' }, { slug: 'x' })], 400, 'body/changes/0/slug: a link page has none'],
      [[link({ kind: 'url', url: 'https://x.test' }, { into: ids.link })], 400, 'is a link page; it has no subpages'],
      [
        [{ operation: 'insert_page', type: 'group', title: 'G', into: ids.page }],
        400,
        'body/changes/0/into: a group page goes at the top level',
      ],
      [
        [{ operation: 'insert_page', type: 'group', title: 'G', description: 'no' }],
        400,
        'body/changes/0/description: a group page has none',
      ],
      [
        [{ operation: 'insert_page', title: 'D', document: {}, target: { kind: 'url', url: 'https://x.test' } }],
        400,
        'body/changes/0/target goes with type link',
      ],
      [
        [{ operation: 'update_page', page: ids.page, target: { kind: 'url', url: 'https://x.test' } }],
        400,
        'only a link page has a target',
      ],
      [
        [{ operation: 'update_page', page: ids.group, into: ids.page }],
        400,
        'body/changes/0/into: a group page stays at the top level',
      ],
      [[{ operation: 'update_page', page: ids.page, into: ids.link }], 400, 'is a link page; it has no subpages'],
      [
        [{ operation: 'update_page', page: ids.group, document: { markdown: 'x' } }],
        400,
        'a group page has no document',
      ],
      [
        [
          { operation: 'update_page', page: ids.link, target: { kind: 'page', page: ids.page } },
          { operation: 'delete_page', page: ids.page },
        ],
        400,
        `leads to page ${ids.page}, which is not there`,
      ],
      [[link({ kind: 'page', page: 'self' }, { ref: 'self' })], 400, 'a link page cannot lead to itself'],
    ];
    for (const [changes, status, message] of cases) {
      const res = await api.writeContent(admin, space.id, cr.id, changes);
      expect(res.statusCode, JSON.stringify(changes)).toBe(status);
      expect(res.json().error.message).toMatch(message);
    }
    expect(await crRevision(space.id, cr.id)).toBe(before);
  });

  it('lead to pages and files inserted in the same batch, and to another space’s content', async () => {
    const { admin, organization, space } = await spaceWithTeam();
    const other = await api.createSpace(admin, organization.id, { title: 'Other' });
    const { written: otherWrite } = await api.change(admin, other.id, [
      { operation: 'insert_page', ref: 'far', title: 'Far', document: { markdown: 'Far away.' } },
    ]);
    const far = idsOf(otherWrite.changes).far!;
    const { res } = await draft(admin, space.id, [
      {
        operation: 'insert_page',
        type: 'link',
        ref: 'first',
        title: 'To later',
        target: { kind: 'page', page: 'later' },
      },
      { operation: 'insert_page', ref: 'later', title: 'Later', document: { markdown: 'Here.' } },
      {
        operation: 'insert_files',
        files: [{ ref: 'notes.txt', name: 'notes.txt', contentType: 'text/plain', base64: 'aGVsbG8=' }],
      },
      { operation: 'insert_page', type: 'link', title: 'Notes', target: { kind: 'file', file: 'notes.txt' } },
      { operation: 'insert_page', type: 'link', title: 'Far', target: { kind: 'page', page: far, space: other.id } },
      {
        operation: 'insert_page',
        type: 'link',
        title: 'Self',
        target: { kind: 'page', page: 'later', space: space.id },
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const ids = idsOf(res.json().changes);
    const file = res.json().insertedFiles[0].id;
    const pages = (
      await api.read(admin, `/v1/spaces/${space.id}/change-requests/${res.json().changeRequest.id}/content/pages`)
    ).json().pages;
    expect(pages.map((page: { target?: unknown }) => page.target ?? null)).toEqual([
      { kind: 'page', page: ids.later },
      null,
      { kind: 'file', file },
      { kind: 'page', page: far, space: other.id },
      // Its own space is said plainly, so a duplicate keeps the link inside itself.
      { kind: 'page', page: ids.later },
    ]);
    const missing = await draft(admin, space.id, [
      {
        operation: 'insert_page',
        type: 'link',
        title: 'Gone',
        target: { kind: 'page', page: 'nope', space: other.id },
      },
    ]);
    expect(missing.res.statusCode).toBe(400);
    expect(missing.res.json().error.message).toBe(
      `body/changes/0/target/page: no page nope in space ${other.id} ` +
        '(refused: change 0 of 1, page "Gone"; nothing of the batch was written)',
    );
  });
});

describe('revert_page', () => {
  /** A space with Intro > Child and Other, merged; its ids. */
  async function spaceWithPages() {
    const team = await spaceWithTeam();
    const { written } = await api.change(team.admin, team.space.id, [
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'First words.' } },
      { operation: 'insert_page', ref: 'child', into: 'intro', title: 'Child', document: { markdown: 'Small.' } },
      { operation: 'insert_page', ref: 'other', title: 'Other', document: { markdown: 'Elsewhere.' } },
    ]);
    return { ...team, ids: idsOf(written.changes) };
  }

  const pageIn = async (account: Account, spaceId: string, crId: string, pageId: string) =>
    api.read(account, `/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${pageId}`, { format: 'markdown' });

  const ownEntries = async (crId: string) =>
    (
      await t.db
        .selectFrom('tree_entries')
        .select(['item_id', 'version_id'])
        .where('change_request_id', '=', crId)
        .where('to_seq', 'is', null)
        .orderBy('item_id')
        .execute()
    ).map((row) => row.item_id);

  it('brings a changed page back to the base: no longer a change, so a merge keeps the space’s later edit', async () => {
    const { admin, space, ids } = await spaceWithPages();
    const { cr, res } = await draft(admin, space.id, [
      { operation: 'update_page', page: ids.intro, title: 'Changed', document: { markdown: 'Rewritten.' } },
      { operation: 'update_page', page: ids.other, title: 'Other too' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(await ownEntries(cr.id)).toEqual([ids.intro, ids.other].sort());

    const reverted = await api.writeContent(admin, space.id, cr.id, [{ operation: 'revert_page', page: ids.intro }], {
      compat: 'false',
    });
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(reverted.json().changes).toMatchObject([{ object: 'updated_page', page: { id: ids.intro } }]);
    expect((await pageIn(admin, space.id, cr.id, ids.intro!)).json()).toMatchObject({
      title: 'Intro',
      markdown: 'First words.',
    });
    expect(await ownEntries(cr.id)).toEqual([ids.other]);

    // The space changes the page meanwhile; the merge has nothing of the change request's on it.
    await api.change(admin, space.id, [{ operation: 'update_page', page: ids.intro, title: 'Space edit' }]);
    expect((await api.merge(admin, space.id, cr.id)).json()).toMatchObject({ result: 'merge' });
    const merged = await api.read(admin, `/v1/spaces/${space.id}/content/pages`);
    expect(merged.json().pages.map((page: { title: string }) => page.title)).toEqual(['Space edit', 'Other too']);
  });

  it('removes a page added in the change request, and restores one deleted there with the pages under it', async () => {
    const { admin, space, ids } = await spaceWithPages();
    const { cr, res } = await draft(admin, space.id, [
      { operation: 'insert_page', ref: 'new', title: 'New', document: { markdown: 'New.' } },
      { operation: 'delete_page', page: ids.intro },
    ]);
    const added = idsOf(res.json().changes).new!;
    const revert = await api.writeContent(
      admin,
      space.id,
      cr.id,
      [
        { operation: 'revert_page', page: added },
        { operation: 'revert_page', page: ids.intro },
      ],
      { compat: 'false' },
    );
    expect(revert.statusCode, revert.body).toBe(200);
    expect(revert.json().changes).toEqual([
      expect.objectContaining({ object: 'deleted_page', page: added }),
      expect.objectContaining({ object: 'created_page', page: expect.objectContaining({ id: ids.intro }) }),
      expect.objectContaining({ object: 'created_page', page: expect.objectContaining({ id: ids.child }) }),
    ]);
    const pages = (await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).json().pages;
    expect(
      pages.map((page: { id: string; pages: Array<{ id: string }> }) => [page.id, page.pages.map((c) => c.id)]),
    ).toEqual([
      [ids.intro, [ids.child]],
      [ids.other, []],
    ]);
    // The change request changes nothing any more.
    expect(await ownEntries(cr.id)).toEqual([]);
  });

  it('goes back to a given revision of the space, sharing its document', async () => {
    const { admin, space, ids } = await spaceWithPages();
    const first = (await api.read(admin, `/v1/spaces/${space.id}`)).json().revision as string;
    await api.change(admin, space.id, [
      { operation: 'update_page', page: ids.intro, title: 'Second', document: { markdown: 'Second words.' } },
    ]);
    const { cr } = await draft(admin, space.id, [{ operation: 'update_page', page: ids.other, title: 'Touched' }]);
    const res = await api.writeContent(admin, space.id, cr.id, [
      { operation: 'revert_page', page: ids.intro, revision: first },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await pageIn(admin, space.id, cr.id, ids.intro!)).json()).toMatchObject({
      title: 'Intro',
      markdown: 'First words.',
    });
    const documents = await sql<{ document_id: string; n: number }>`
      select document_id, count(*)::int as n from page_versions
      where space_id = ${space.id} and page_id = ${ids.intro} group by document_id`.execute(t.db);
    // Two documents for three versions: the revert's points at the first one's.
    expect(documents.rows.map((row) => row.n).sort()).toEqual([1, 2]);
    expect((await api.merge(admin, space.id, cr.id)).json()).toMatchObject({ result: 'merge' });
    const page = await api.read(admin, `/v1/spaces/${space.id}/content/page/${ids.intro}`, { format: 'markdown' });
    expect(page.json()).toMatchObject({ title: 'Intro', markdown: 'First words.' });
  });

  it('answers 400 to unknown pages and revisions, 409 to what it would break, and changes nothing then', async () => {
    const { admin, member, organization, space, ids } = await spaceWithPages();
    const otherSpace = await api.createSpace(admin, organization.id, { title: 'Elsewhere' });
    const { cr } = await draft(admin, space.id, [
      { operation: 'delete_page', page: ids.intro },
      { operation: 'update_page', page: ids.other, slug: 'intro' },
    ]);
    const before = await crRevision(space.id, cr.id);
    const cases: Array<[unknown[], number, string]> = [
      [[{ operation: 'revert_page', page: 'nope' }], 400, 'body/changes/0/page: no page nope'],
      [
        [{ operation: 'revert_page', page: ids.intro, revision: 'nope' }],
        400,
        'body/changes/0/revision: no revision nope in this space',
      ],
      [
        [{ operation: 'revert_page', page: ids.intro, revision: otherSpace.revision }],
        400,
        `no revision ${otherSpace.revision} in this space`,
      ],
      [
        [{ operation: 'revert_page', page: ids.child }],
        409,
        `was under page ${ids.intro}, which is not in this change request`,
      ],
      [[{ operation: 'revert_page', page: ids.intro }], 409, `"intro" is now the slug of page ${ids.other}`],
      [
        [{ operation: 'revert_page', page: ids.intro, block: ['1'] }],
        400,
        'body/changes/0/block: single blocks cannot be reverted here',
      ],
    ];
    for (const [changes, status, message] of cases) {
      const res = await api.writeContent(admin, space.id, cr.id, changes);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.message).toContain(message);
    }
    expect(await crRevision(space.id, cr.id)).toBe(before);
    expect(
      (await api.writeContent(member('read'), space.id, cr.id, [{ operation: 'revert_page', page: ids.other }]))
        .statusCode,
    ).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${cr.id}/content`,
      payload: { changes: [{ operation: 'revert_page', page: ids.other }] },
    });
    expect(anonymous.statusCode).toBe(401);
    const stranger = await t.factory.account();
    expect(
      (await api.writeContent(stranger, space.id, cr.id, [{ operation: 'revert_page', page: ids.other }])).statusCode,
    ).toBe(404);
    expect(await crRevision(space.id, cr.id)).toBe(before);

    // Once the slug is given back, the page comes back, its child with it.
    const fixed = await api.writeContent(admin, space.id, cr.id, [
      { operation: 'revert_page', page: ids.other },
      { operation: 'revert_page', page: ids.intro },
    ]);
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(await ownEntries(cr.id)).toEqual([]);
    await api.merge(admin, space.id, cr.id);
    const merged = await api.writeContent(admin, space.id, cr.id, [{ operation: 'revert_page', page: ids.other }]);
    expect(merged.statusCode).toBe(409);
  });

  it('removes a page added since, but not one that was there in the revision and moved under it', async () => {
    const { admin, space, ids } = await spaceWithPages();
    const { cr, res } = await draft(admin, space.id, [
      { operation: 'insert_page', ref: 'holder', title: 'Holder', document: {} },
      { operation: 'update_page', page: ids.other, into: 'holder' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const holder = idsOf(res.json().changes).holder!;
    const refused = await api.writeContent(admin, space.id, cr.id, [{ operation: 'revert_page', page: holder }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain(`page ${ids.other} under it was there in the revision`);
    const inOrder = await api.writeContent(admin, space.id, cr.id, [
      { operation: 'revert_page', page: ids.other },
      { operation: 'revert_page', page: holder },
    ]);
    expect(inOrder.statusCode, inOrder.body).toBe(200);
    expect(await ownEntries(cr.id)).toEqual([]);
  });
});
