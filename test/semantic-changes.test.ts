import { beforeAll, describe, expect, it } from 'vitest';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import {
  expectNewestSpecResponse,
  expectNewestSpecSchema,
  expectSpecResponse,
  expectSpecSchema,
} from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

const FAQ_BEFORE =
  'Ask us.\n\n| Name | Price |\n|---|---|\n| Tea | 2 |\n| Coffee | 3 |\n\n```sh\nnpm install\nnpm test\n```\n';
const FAQ_AFTER =
  'Ask us.\n\n| Name | Price |\n|---|---|\n| Tea | 2 |\n| Coffee | 4 |\n\n```sh\nnpm ci\nnpm test\n```\n';

const notes = (name: string, text: string) => ({
  name,
  contentType: 'text/plain',
  base64: Buffer.from(text).toString('base64'),
});

const pageIds = (written: { changes: Array<{ page?: { id: string } }> }): string[] =>
  written.changes.map((change) => change.page!.id);

/**
 * A space of a team (a reader, an editor, a guest) with Guide (and Setup
 * under it), FAQ (a table and a code block) and Old, a file, a variable and a
 * reusable content; and an open change request by the editor that moves Setup
 * to the top level, renames FAQ and edits a table cell and a code line in it,
 * deletes Old, adds New, a file, variables and a reusable content, and renames
 * the other.
 */
async function corpus() {
  const team = await t.factory.team(['read', 'edit', null]);
  const { admin } = team;
  const editor = team.member('edit');
  const space = await api.createSpace(admin, team.organization.id, { title: 'Docs' });
  const first = await api.change(admin, space.id, [
    { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: 'Guide.\n' } },
    { operation: 'insert_page', title: 'FAQ', slug: 'faq', document: { markdown: FAQ_BEFORE } },
    { operation: 'insert_page', title: 'Old', slug: 'old', document: { markdown: 'Old.\n' } },
    { operation: 'insert_files', files: [notes('notes.txt', 'notes')] },
    { operation: 'update_variables', variables: { product: 'Quire', edition: 'community' } },
    { operation: 'insert_reusable_content', title: 'Legal', document: { markdown: 'Legal.\n' } },
  ]);
  const [guide, faq, old] = pageIds(first.written) as [string, string, string];
  const legal = (first.written.insertedReusableContents as Array<{ id: string }>)[0]!.id;
  const second = await api.change(admin, space.id, [
    { operation: 'insert_page', title: 'Setup', slug: 'setup', into: guide, document: { markdown: 'Setup.\n' } },
  ]);
  const [setup] = pageIds(second.written) as [string];
  const changeRequest = await api.openChangeRequest(editor, space.id, 'Reorganise');
  const written = await api.writeContent(
    editor,
    space.id,
    changeRequest,
    [
      { operation: 'update_page', page: setup, into: null },
      { operation: 'update_page', page: faq, title: 'Questions', slug: 'questions', document: { markdown: FAQ_AFTER } },
      { operation: 'delete_page', page: old },
      { operation: 'insert_page', title: 'New', slug: 'new', document: { markdown: 'Fresh.\n' } },
      { operation: 'insert_files', files: [notes('more.txt', 'more notes')] },
      { operation: 'update_variables', variables: { product: 'Quire 2', edition: null, channel: 'stable' } },
      { operation: 'update_reusable_content', reusableContent: legal, title: 'Legal notice' },
      { operation: 'insert_reusable_content', title: 'Footer', document: { markdown: 'Footer.\n' } },
    ],
    { compat: 'false' },
  );
  expect(written.statusCode, written.body).toBe(200);
  const body = written.json();
  const newPage = (body.changes as Array<{ page?: { id: string } }>)[3]!.page!.id;
  const footer = (body.insertedReusableContents as Array<{ id: string }>)[0]!.id;
  const file = (body.insertedFiles as Array<{ id: string }>)[0]!.id;
  return { ...team, editor, space, changeRequest, ids: { guide, faq, old, setup, newPage, legal, footer, file } };
}

type Corpus = Awaited<ReturnType<typeof corpus>>;

const changesOf = (account: Account, spaceId: string, changeRequestId: string, query: Record<string, string> = {}) =>
  api.read(account, `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/changes`, query);

const storedDiffs = (spaceId: string) =>
  t.db
    .selectFrom('revision_diffs')
    .select(['id', 'from_revision_id', 'to_revision_id', 'created_at'])
    .where('space_id', '=', spaceId)
    .orderBy('created_at')
    .execute();

const pageDiffCount = async (diffId: string) =>
  Number(
    (
      await t.db
        .selectFrom('revision_page_diffs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('diff_id', '=', diffId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The changes the corpus's change request makes, exactly, in their order. */
function expectedChanges({ ids }: Corpus) {
  const page = (id: string, title: string, path: string) => ({ id, type: 'document', title, path });
  return [
    {
      type: 'page_edited',
      page: page(ids.faq, 'Questions', 'questions'),
      attributes: {
        title: { before: 'FAQ', after: 'Questions' },
        slug: { before: 'faq', after: 'questions' },
        document: { before: expect.any(String), after: expect.any(String) },
      },
    },
    {
      type: 'page_moved',
      page: page(ids.setup, 'Setup', 'setup'),
      parent: { before: page(ids.guide, 'Guide', 'guide') },
    },
    { type: 'page_created', page: page(ids.newPage, 'New', 'new') },
    { type: 'page_deleted', page: page(ids.old, 'Old', 'old') },
    {
      type: 'file_created',
      file: {
        id: ids.file,
        name: 'more.txt',
        contentType: 'text/plain',
        downloadURL: expect.stringContaining(`/files/`),
      },
    },
    {
      type: 'variables_edited',
      variables: {
        channel: { after: 'stable' },
        edition: { before: 'community' },
        product: { before: 'Quire', after: 'Quire 2' },
      },
    },
    // Reusable contents in the order they were created.
    {
      type: 'reusable_content_edited',
      reusableContent: { id: ids.legal, title: 'Legal notice', document: expect.any(String) },
      attributes: { title: { before: 'Legal', after: 'Legal notice' } },
    },
    {
      type: 'reusable_content_created',
      reusableContent: { id: ids.footer, title: 'Footer', document: expect.any(String) },
    },
  ];
}

const EDIT_ATTRIBUTES: Record<string, string> = {
  document: 'RevisionPageDocumentChangeAttributes',
  computed: 'RevisionPageDocumentChangeAttributes',
  group: 'RevisionPageGroupChangeAttributes',
  link: 'RevisionPageLinkChangeAttributes',
};

/**
 * Checks an answer against the newest spec. The spec's page_edited
 * `attributes` is a oneOf of three objects that allow any other property, so
 * every attributes object matches all three and no page_edited can pass the
 * oneOf as written (GitBook's own answers included): those changes are
 * checked against the spec's schemas of their parts, the attributes by the
 * page's type, and the rest of the answer against the operation's response.
 */
function expectSpecChanges(operationId: string, body: { changes: Array<Record<string, unknown>> }) {
  const edits = body.changes.filter((change) => change.type === 'page_edited');
  const others = { ...body, changes: body.changes.filter((change) => change.type !== 'page_edited') };
  // Both specs: the newest, and the reference one, which has the same operations.
  expectNewestSpecResponse(operationId, 200, others);
  expectSpecResponse(operationId, 200, others);
  for (const edit of edits) {
    const page = edit.page as { type: string };
    expect(Object.keys(edit).sort()).toEqual(['attributes', 'page', 'type']);
    for (const expectSchema of [expectNewestSpecSchema, expectSpecSchema]) {
      expectSchema('ChangedRevisionPage', page);
      expectSchema(EDIT_ATTRIBUTES[page.type]!, edit.attributes);
    }
  }
}

/** Signs in with the token as a person would, and gives the session's cookie. */
async function sessionOf(holder: Account): Promise<string> {
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/app/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
    payload: new URLSearchParams({ token: holder.token }).toString(),
  });
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  return String(signedIn.headers['set-cookie']).split(';')[0]!;
}

let endpoint: string;
beforeAll(async () => {
  endpoint = await listen(t.app);
});

describe('what a change request changes (getChangeRequestChanges)', () => {
  it('names every change of a fixed corpus exactly, in the spec’s shape, and stores it once', async () => {
    const corpusOf = await corpus();
    const { editor, space, changeRequest } = corpusOf;
    expect(await storedDiffs(space.id)).toEqual([]);

    const res = await changesOf(editor, space.id, changeRequest, { limit: '100' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ changes: expectedChanges(corpusOf) });
    expectSpecChanges('getChangeRequestChanges', body);

    // Stored once: one diff of the pair, with a block diff for each page whose document changed.
    const stored = await storedDiffs(space.id);
    expect(stored).toHaveLength(1);
    const { revision } = (await api.getChangeRequest(editor, space.id, changeRequest)).json();
    const head = await t.db
      .selectFrom('spaces')
      .select('revision_id')
      .where('id', '=', space.id)
      .executeTakeFirstOrThrow();
    expect(stored[0]).toMatchObject({ from_revision_id: head.revision_id, to_revision_id: revision });
    expect(await pageDiffCount(stored[0]!.id)).toBe(3);

    // A second call reads it back: no new row, the same changes.
    const again = await changesOf(editor, space.id, changeRequest, { limit: '100' });
    expect(again.json()).toEqual({ changes: expectedChanges(corpusOf) });
    expect(await storedDiffs(space.id)).toEqual(stored);
    // Read from the table, not computed again: what the row holds is what is answered.
    const kept = (body.changes as unknown[]).slice(0, 1);
    await t.db
      .updateTable('revision_diffs')
      .set({ changes: JSON.stringify(kept) })
      .where('id', '=', stored[0]!.id)
      .execute();
    expect((await changesOf(editor, space.id, changeRequest, { limit: '100' })).json()).toEqual({ changes: kept });
  });

  it('lists 10 changes by default and counts the others in `more`', async () => {
    const { editor, space, changeRequest } = await corpus();
    const byDefault = await changesOf(editor, space.id, changeRequest);
    expect(byDefault.json()).toEqual({ changes: expect.any(Array) });
    expect(byDefault.json().changes).toHaveLength(8);
    const two = (await changesOf(editor, space.id, changeRequest, { limit: '2' })).json();
    expect(two.changes.map((change: { type: string }) => change.type)).toEqual(['page_edited', 'page_moved']);
    expect(two.more).toBe(6);
    expectSpecChanges('getChangeRequestChanges', two);
    const none = (await changesOf(editor, space.id, changeRequest, { limit: '0' })).json();
    expect(none).toEqual({ changes: [], more: 8 });
  });

  it('answers through the official 0.202.0 client', async () => {
    const corpusOf = await corpus();
    const { editor, space, changeRequest } = corpusOf;
    const client = newestOfficialClient(endpoint, editor.token);
    const { data, status } = await client.spaces.getChangeRequestChanges(space.id, changeRequest, { limit: 100 });
    expect(status).toBe(200);
    expect(data).toEqual({ changes: expectedChanges(corpusOf) });
  });

  it('shows a page edited block by block, with the table cell and the code line that changed', async () => {
    const { editor, space, changeRequest, ids } = await corpus();
    const res = await api.read(
      editor,
      `/v1/spaces/${space.id}/change-requests/${changeRequest}/changes/pages/${ids.faq}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json();
    expect(diff).toMatchObject({
      object: 'page-diff',
      page: ids.faq,
      from: expect.any(String),
      to: expect.any(String),
    });
    expect(diff.blocks.map((block: { change: string }) => block.change)).toEqual(['unchanged', 'edited', 'edited']);
    expect(diff.blocks[1].rows).toEqual([
      { change: 'unchanged', cells: ['Tea', '2'] },
      { change: 'edited', before: ['Coffee', '3'], after: ['Coffee', '4'] },
    ]);
    expect(diff.blocks[2].lines).toEqual([
      { change: 'deleted', text: 'npm install' },
      { change: 'inserted', text: 'npm ci' },
      { change: 'unchanged', text: 'npm test' },
    ]);
    const deleted = await api.read(
      editor,
      `/v1/spaces/${space.id}/change-requests/${changeRequest}/changes/pages/${ids.old}`,
    );
    expect(deleted.json().blocks).toEqual([
      { change: 'deleted', block: expect.objectContaining({ type: 'paragraph' }) },
    ]);
    // Unchanged pages have no blocks changed; a page on neither side is a 404.
    const guide = await api.read(
      editor,
      `/v1/spaces/${space.id}/change-requests/${changeRequest}/changes/pages/${ids.guide}`,
    );
    expect(guide.json().blocks).toEqual([]);
    const unknown = await api.read(
      editor,
      `/v1/spaces/${space.id}/change-requests/${changeRequest}/changes/pages/nope`,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: { code: 404, message: 'No page with this id in either revision compared' },
    });
  });

  it('lists only its own changes once brought up to date with the space, which moved on', async () => {
    const corpusOf = await corpus();
    const { admin, editor, space, changeRequest } = corpusOf;
    await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Elsewhere', slug: 'elsewhere', document: { markdown: 'Meanwhile.\n' } },
    ]);
    const updated = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${changeRequest}/update`,
      headers: editor.headers,
    });
    expect(updated.json()).toMatchObject({ result: 'update' });
    const res = await changesOf(editor, space.id, changeRequest, { limit: '100' });
    expect(res.json()).toEqual({ changes: expectedChanges(corpusOf) });
    // Its base is now the space's newer revision: a second pair, stored beside the first none.
    const head = await t.db
      .selectFrom('spaces')
      .select('revision_id')
      .where('id', '=', space.id)
      .executeTakeFirstOrThrow();
    expect((await storedDiffs(space.id)).map((row) => row.from_revision_id)).toEqual([head.revision_id]);
    // The app reader counts the same: the page the space added meanwhile is not the change request's.
    const { urls } = (await api.getChangeRequest(editor, space.id, changeRequest)).json();
    const app = await t.app.inject({
      method: 'GET',
      url: new URL(urls.app as string).pathname,
      headers: { cookie: await sessionOf(editor) },
    });
    expect(app.body).toContain('It adds 1 page, changes 2 and removes 1: Old.');
  });

  it('is empty for a change request that changed nothing yet', async () => {
    const team = await t.factory.team(['edit']);
    const space = await api.createSpace(team.admin, team.organization.id, { title: 'Empty' });
    const changeRequest = await api.openChangeRequest(team.admin, space.id);
    const res = await changesOf(team.admin, space.id, changeRequest);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ changes: [] });
    expectNewestSpecResponse('getChangeRequestChanges', 200, res.json());
  });

  it('computes a pair asked for twice at once and stores it once', async () => {
    const { editor, space, changeRequest } = await corpus();
    const [a, b] = await Promise.all([
      changesOf(editor, space.id, changeRequest, { limit: '100' }),
      changesOf(editor, space.id, changeRequest, { limit: '100' }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().changes.map((c: { type: string }) => c.type)).toEqual(
      b.json().changes.map((c: { type: string }) => c.type),
    );
    const stored = await storedDiffs(space.id);
    expect(stored).toHaveLength(1);
    expect(await pageDiffCount(stored[0]!.id)).toBe(3);
  });
});

describe('what a revision changed (getRevisionSemanticChanges)', () => {
  it('names a merge’s changes over its parent, with the change request merged, through the official client', async () => {
    const corpusOf = await corpus();
    const { admin, editor, space, changeRequest } = corpusOf;
    const merged = await api.merge(admin, space.id, changeRequest);
    expect(merged.json()).toMatchObject({ result: 'merge' });
    const revision = merged.json().revision as string;

    const res = await api.read(editor, `/v1/spaces/${space.id}/revisions/${revision}/changes`, { limit: '100' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      mergedFrom: expect.objectContaining({ object: 'change-request', id: changeRequest, status: 'merged' }),
      changes: expectedChanges(corpusOf),
    });
    expectSpecChanges('getRevisionSemanticChanges', body);

    const client = newestOfficialClient(endpoint, editor.token);
    const viaClient = await client.spaces.getRevisionSemanticChanges(space.id, revision, { limit: 3, metadata: false });
    expect(viaClient.data.changes.map((change) => change.type)).toEqual(['page_edited', 'page_moved', 'page_created']);
    expect(viaClient.data.more).toBe(5);
  });

  it('compares the space’s first revision with nothing', async () => {
    const team = await t.factory.team();
    const space = await api.createSpace(team.admin, team.organization.id, { title: 'New' });
    const res = await api.read(team.admin, `/v1/spaces/${space.id}/revisions/${space.revision}/changes`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ changes: [] });
    expect(await storedDiffs(space.id)).toMatchObject([{ from_revision_id: null, to_revision_id: space.revision }]);
  });
});

describe('who may read a diff', () => {
  let c: Corpus;
  let outsider: Account;
  /** The space's current revision: the merge that added Setup, whose page diff is Setup's. */
  let head: string;
  beforeAll(async () => {
    c = await corpus();
    outsider = (await t.factory.team()).admin;
    head = (
      await t.db.selectFrom('spaces').select('revision_id').where('id', '=', c.space.id).executeTakeFirstOrThrow()
    ).revision_id;
  });
  const urls = () => [
    `/v1/spaces/${c.space.id}/change-requests/${c.changeRequest}/changes`,
    `/v1/spaces/${c.space.id}/change-requests/${c.changeRequest}/changes/pages/${c.ids.faq}`,
    `/v1/spaces/${c.space.id}/revisions/${head}/changes`,
    `/v1/spaces/${c.space.id}/revisions/${head}/changes/pages/${c.ids.setup}`,
  ];

  it('is any member with a role on the space, reader included', async () => {
    for (const url of urls()) expect((await api.read(c.member('read'), url)).statusCode, url).toBe(200);
  });

  it('is no one else: 401 without a token, 403 without space:read, 404 to another organization and to a guest', async () => {
    const before = await storedDiffs(c.space.id);
    const scoped = await t.factory.token(c.member('read').user.id, { scopes: ['organization:read'] });
    for (const url of urls()) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      const forbidden = await api.read(scoped, url);
      expect(forbidden.statusCode, url).toBe(403);
      expect(forbidden.json()).toEqual({
        error: { code: 403, message: 'This token lacks the "space:read" scope this operation needs' },
      });
      for (const stranger of [outsider, c.member(null)]) {
        const res = await api.read(stranger, url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ error: { code: 404, message: 'No space with this id is visible to you' } });
      }
    }
    // A refused request computes and stores nothing.
    expect(await storedDiffs(c.space.id)).toEqual(before);
  });

  it('answers 404 for a change request or revision of another space, and 400 for a bad limit', async () => {
    const other = await api.createSpace(c.admin, c.organization.id, { title: 'Other' });
    const elsewhere = await api.read(c.admin, `/v1/spaces/${other.id}/change-requests/${c.changeRequest}/changes`);
    expect(elsewhere.json()).toEqual({
      error: { code: 404, message: 'No change request with this id or number in the space' },
    });
    const revision = await api.read(c.admin, `/v1/spaces/${other.id}/revisions/${c.space.revision}/changes`);
    expect(revision.json()).toEqual({ error: { code: 404, message: 'No revision with this id in the space' } });
    for (const limit of ['-1', '1001', 'ten', '2.5']) {
      const res = await changesOf(c.admin, c.space.id, c.changeRequest, { limit });
      expect(res.statusCode, limit).toBe(400);
      expect(res.json().error.message).toMatch(/^querystring\/limit /);
    }
    expect(await storedDiffs(other.id)).toEqual([]);
  });
});

describe('the app reader’s view of a change request', () => {
  it('shows below a changed page what it adds, removes and edits, marked by element and by word', async () => {
    const { editor, space, changeRequest } = await corpus();
    const { urls } = (await api.getChangeRequest(editor, space.id, changeRequest)).json();
    const cookie = await sessionOf(editor);
    const page = await t.app.inject({
      method: 'GET',
      url: `${new URL(urls.app as string).pathname}/questions`,
      headers: { cookie },
    });
    expect(page.statusCode).toBe(200);
    const section = page.body.slice(page.body.indexOf('<section class="page-changes"'));
    expect(section).toContain('<h2 id="page-changes-title">Changes on this page</h2>');
    // The table's edited row and the code block's changed line, each as removed then added.
    expect(section).toContain('<p class="diff-edited">Edited table</p>');
    expect(section).toContain(
      '<li><del><span class="diff-label">Removed: </span>Coffee | 3</del> <ins><span class="diff-label">Added: </span>Coffee | 4</ins></li>',
    );
    expect(section).toContain('<li class="diff-unchanged">Tea | 2</li>');
    expect(section).toContain('<p class="diff-edited">Edited code</p>');
    expect(section).toContain('<li><del><span class="diff-label">Removed: </span>npm install</del></li>');
    expect(section).toContain('<li><ins><span class="diff-label">Added: </span>npm ci</ins></li>');
    // The paragraph the change request left alone is not listed.
    expect(section).not.toContain('Ask us.');
    expect(page.body).toContain('It adds 1 page, changes 2 and removes 1: Old.');

    const added = await t.app.inject({
      method: 'GET',
      url: `${new URL(urls.app as string).pathname}/new`,
      headers: { cookie },
    });
    expect(added.body).toContain('<ins><span class="diff-label">Added: </span>paragraph: Fresh.</ins>');
    // A page whose content did not change has no section.
    const guide = await t.app.inject({
      method: 'GET',
      url: `${new URL(urls.app as string).pathname}/guide`,
      headers: { cookie },
    });
    expect(guide.statusCode).toBe(200);
    expect(guide.body).not.toContain('page-changes');
  });
});
