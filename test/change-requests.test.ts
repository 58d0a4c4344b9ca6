import { describe, expect, it } from 'vitest';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi, flatten, outline } from './support/content.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

async function spaceWithTeam() {
  const team = await t.factory.team(['read', 'edit']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  return { ...team, space };
}

const spaceCounters = async (spaceId: string) =>
  t.db
    .selectFrom('spaces')
    .select(['change_requests_count', 'change_requests_open_count', 'change_requests_draft_count', 'revision_id'])
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();

describe('change requests', () => {
  it('are numbered from 1 per space, start as drafts on the space revision, and move the space counters', async () => {
    const { admin, space } = await spaceWithTeam();

    const first = await api.createChangeRequest(admin, space.id, { subject: 'First' });
    const second = await api.createChangeRequest(admin, space.id);

    expect(first.statusCode).toBe(201);
    expectSpecResponse('createChangeRequest', 201, first.json());
    expect(first.headers.location).toBe(`${PUBLIC_URL}/v1/spaces/${space.id}/change-requests/${first.json().id}`);
    expect(first.json()).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'draft',
      subject: 'First',
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      createdBy: { object: 'user', id: admin.user.id },
    });
    expect(second.json()).toMatchObject({ number: 2, subject: '' });
    expect(await spaceCounters(space.id)).toMatchObject({
      change_requests_count: 2,
      change_requests_draft_count: 2,
      change_requests_open_count: 0,
    });

    const opened = await api.patchChangeRequest(admin, space.id, first.json().id, {
      status: 'open',
      subject: 'Renamed',
    });
    expect(opened.statusCode).toBe(200);
    expectSpecResponse('updateChangeRequestById', 200, opened.json());
    expect(opened.json()).toMatchObject({ status: 'open', subject: 'Renamed' });
    expect(await spaceCounters(space.id)).toMatchObject({
      change_requests_count: 2,
      change_requests_draft_count: 1,
      change_requests_open_count: 1,
    });

    const byNumber = await api.getChangeRequest(admin, space.id, 1);
    expect(byNumber.json().id).toBe(first.json().id);
    expectSpecResponse('getChangeRequestById', 200, byNumber.json());
  });

  it('list by status (open by default), newest first, paginated', async () => {
    const { admin, space } = await spaceWithTeam();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = (await api.createChangeRequest(admin, space.id, { subject: `CR ${i}` })).json();
      await api.patchChangeRequest(admin, space.id, created.id, { status: 'open' });
      ids.push(created.id);
    }
    await api.createChangeRequest(admin, space.id, { subject: 'still a draft' });

    const page1 = await api.listChangeRequests(admin, space.id, { limit: '2' });
    expect(page1.statusCode).toBe(200);
    expectSpecResponse('listChangeRequestsForSpace', 200, page1.json());
    expect(page1.json().count).toBe(3);
    expect(page1.json().items.map((cr: { id: string }) => cr.id)).toEqual([ids[2], ids[1]]);
    const page2 = await api.listChangeRequests(admin, space.id, { limit: '2', page: page1.json().next.page });
    expect(page2.json().items.map((cr: { id: string }) => cr.id)).toEqual([ids[0]]);
    expect(page2.json().next).toBeUndefined();

    const drafts = await api.listChangeRequests(admin, space.id, { status: 'draft' });
    expect(drafts.json()).toMatchObject({ count: 1, items: [{ subject: 'still a draft' }] });
    expect((await api.listChangeRequests(admin, space.id, { status: 'nope' })).statusCode).toBe(400);
    expect((await api.listChangeRequests(admin, space.id, { limit: '0' })).json()).toEqual({ count: 3, items: [] });
  });

  it('answer 400 to bad input, 403 to readers and to locked spaces, and 404 to unknown ids', async () => {
    const { admin, member, space } = await spaceWithTeam();
    expect((await api.createChangeRequest(admin, space.id, { subject: 'x'.repeat(101) })).statusCode).toBe(400);
    expect((await api.createChangeRequest(admin, space.id, { title: 'wrong field' })).json().error.message).toContain(
      'is not an accepted field',
    );
    expect((await api.createChangeRequest(member('read'), space.id)).statusCode).toBe(403);
    expect((await api.getChangeRequest(admin, space.id, 99)).statusCode).toBe(404);
    const created = (await api.createChangeRequest(member('edit'), space.id)).json();
    expect((await api.patchChangeRequest(admin, space.id, created.id, { status: 'merged' })).statusCode).toBe(400);
    expect((await api.patchChangeRequest(admin, space.id, created.id, {})).statusCode).toBe(400);

    const outsider = await t.factory.account();
    expect((await api.getChangeRequest(outsider, space.id, created.id)).statusCode).toBe(404);
    expect((await api.createChangeRequest(outsider, space.id)).statusCode).toBe(404);

    await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { editMode: 'locked' },
    });
    const locked = await api.createChangeRequest(admin, space.id);
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error.message).toContain('locked');
    expect(
      (await api.writeContent(admin, space.id, created.id, [{ operation: 'insert_page', document: {} }])).statusCode,
    ).toBe(403);
    expect((await api.merge(admin, space.id, created.id)).statusCode).toBe(403);
    expect(await spaceCounters(space.id)).toMatchObject({ change_requests_count: 1 });
  });
});

describe('without a valid token', () => {
  it('every change request and content route answers 401 and changes nothing', async () => {
    const { admin, space } = await spaceWithTeam();
    const cr = (await api.createChangeRequest(admin, space.id)).json();
    const routes: Array<[string, string, unknown?]> = [
      ['POST', `/v1/spaces/${space.id}/change-requests`, {}],
      ['GET', `/v1/spaces/${space.id}/change-requests`],
      ['GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`],
      ['PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { subject: 'x' }],
      [
        'POST',
        `/v1/spaces/${space.id}/change-requests/${cr.id}/content`,
        { changes: [{ operation: 'insert_page', document: {} }] },
      ],
      ['POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`],
      ['GET', `/v1/spaces/${space.id}/content`],
      ['GET', `/v1/spaces/${space.id}/content/pages`],
      ['GET', `/v1/spaces/${space.id}/content/files`],
      ['GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`],
      ['GET', `/v1/spaces/${space.id}/revisions/${space.revision}`],
    ];
    for (const [method, url, payload] of routes) {
      for (const headers of [{}, { authorization: 'Bearer quire_not-a-real-token' }]) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers,
          ...(payload ? { payload: payload } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().error.code).toBe(401);
      }
    }
    expect((await api.getChangeRequest(admin, space.id, cr.id)).json()).toMatchObject({
      subject: '',
      status: 'draft',
      revision: space.revision,
    });
    expect(await spaceCounters(space.id)).toMatchObject({ change_requests_count: 1, revision_id: space.revision });
  });
});

describe('writing content and merging', () => {
  it('inserts, updates, moves and deletes pages, and a merge makes a new space revision', async () => {
    const { admin, member, space } = await spaceWithTeam();
    const editor = member('edit');
    const cr = (await api.createChangeRequest(editor, space.id, { subject: 'Guides' })).json();

    const written = await api.writeContent(
      editor,
      space.id,
      cr.id,
      [
        {
          operation: 'insert_page',
          ref: 'intro',
          document: {
            markdown: '---\ndescription: Start here\n---\n# Introduction\n\nRead [the setup](./setup.md).\n',
          },
        },
        {
          operation: 'insert_page',
          ref: 'setup',
          title: 'Setup',
          into: 'intro',
          document: { markdown: 'Install it.\n' },
        },
        { operation: 'insert_page', title: 'FAQ', slug: 'questions', document: {} },
      ],
      { compat: 'false' },
    );
    expect(written.statusCode, written.body).toBe(200);
    const { changeRequest, changes } = written.json();
    expect(changes.map((change: { object: string; ref?: string }) => [change.object, change.ref])).toEqual([
      ['created_page', 'intro'],
      ['created_page', 'setup'],
      ['created_page', undefined],
    ]);
    expect(changeRequest.revision).not.toBe(space.revision);
    const introId = changes[0].page.id as string;
    const setupId = changes[1].page.id as string;
    expect(changes[0].page.urls.location).toBe(
      `${PUBLIC_URL}/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${introId}`,
    );

    // The space is unchanged until the merge.
    expect((await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json()).toEqual({ pages: [] });
    const inCr = await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expectSpecResponse('listPagesInChangeRequest', 200, inCr.json());
    expect(outline(inCr.json().pages)).toEqual([
      {
        title: 'Introduction',
        path: 'introduction',
        pages: [{ title: 'Setup', path: 'introduction/setup', pages: [] }],
      },
      { title: 'FAQ', path: 'questions', pages: [] },
    ]);
    const intro = inCr.json().pages[0];
    expect(intro).toMatchObject({ description: 'Start here', markdown: `Read [the setup](/pages/${setupId}).\n` });

    const merged = await api.merge(editor, space.id, String(cr.number));
    expect(merged.statusCode).toBe(200);
    expectSpecResponse('mergeChangeRequest', 200, merged.json());
    expect(merged.json().result).toBe('merge');
    const counters = await spaceCounters(space.id);
    expect(counters.revision_id).toBe(merged.json().revision);
    expect(counters).toMatchObject({
      change_requests_draft_count: 0,
      change_requests_open_count: 0,
      change_requests_count: 1,
    });
    const after = (await api.getChangeRequest(admin, space.id, cr.id)).json();
    expect(after).toMatchObject({ status: 'merged', revisionMerged: merged.json().revision });

    const revision = await api.read(admin, `/v1/spaces/${space.id}/content`);
    expectSpecResponse('getCurrentRevision', 200, revision.json());
    expect(revision.json()).toMatchObject({
      object: 'revision',
      id: merged.json().revision,
      type: 'merge',
      parents: [space.revision, changeRequest.revision],
    });
    expect(revision.json().mergedFrom).toMatchObject({ id: cr.id, status: 'merged' });

    // A second change request moves, renames and deletes.
    await api.change(editor, space.id, [
      { operation: 'update_page', page: setupId, into: null, at: 0, title: 'Set up' },
      { operation: 'delete_page', page: flatten(inCr.json().pages).find((p) => p.title === 'FAQ')!.id },
      { operation: 'update_page', page: introId, document: { markdown: 'New body.\n' } },
    ]);
    const pages = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages;
    expect(outline(pages)).toEqual([
      { title: 'Set up', path: 'setup', pages: [] },
      { title: 'Introduction', path: 'introduction', pages: [] },
    ]);
    expect(pages[1].markdown).toBe('New body.\n');
    expect(pages[1].description).toBe('Start here');

    // The older revision still reads as it was.
    const old = await api.read(admin, `/v1/spaces/${space.id}/revisions/${merged.json().revision}`);
    expectSpecResponse('getRevisionById', 200, old.json());
    expect(outline(old.json().pages)).toEqual(outline(inCr.json().pages));
  });

  it('refuses a bad batch with 400 and applies none of it', async () => {
    const { admin, space } = await spaceWithTeam();
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Parent', document: {} },
      { operation: 'insert_page', title: 'Other', document: {} },
    ]);
    const parentId = written.changes[0].page.id as string;
    const cr = (await api.createChangeRequest(admin, space.id)).json();
    const child = await api.writeContent(
      admin,
      space.id,
      cr.id,
      [{ operation: 'insert_page', title: 'Child', into: parentId, document: {} }],
      { compat: 'false' },
    );
    const childId = child.json().changes[0].page.id as string;
    const before = (await api.getChangeRequest(admin, space.id, cr.id)).json().revision;

    const cases: Array<[unknown[], string]> = [
      [
        [
          { operation: 'insert_page', title: 'ok', document: {} },
          { operation: 'update_page', page: 'nope', title: 'x' },
        ],
        'no page nope',
      ],
      [
        [
          { operation: 'insert_page', title: 'ok', document: {} },
          { operation: 'delete_page', page: 'nope' },
        ],
        'no page nope',
      ],
      [[{ operation: 'update_page', page: parentId, into: childId }], 'cannot move under itself'],
      [[{ operation: 'update_page', page: parentId, into: parentId }], 'cannot move under itself'],
      [
        [
          { operation: 'insert_page', ref: 'a', document: {} },
          { operation: 'insert_page', ref: 'a', document: {} },
        ],
        'used twice',
      ],
      [
        [
          {
            operation: 'insert_files',
            files: [
              {
                name: 'big.bin',
                contentType: 'application/octet-stream',
                base64: Buffer.alloc(1024 * 1024 + 1).toString('base64'),
              },
            ],
          },
        ],
        '1 MiB',
      ],
      [[{ operation: 'insert_files', files: [{ name: 'x.png', base64: 'AAA' }] }], 'is not valid base64'],
      [[{ operation: 'insert_page', into: 'nope', document: {} }], 'no page nope'],
      [[{ operation: 'insert_page', document: { markdown: '---\ntitle: [unclosed\n---\nbody' } }], 'frontmatter'],
      [
        [{ operation: 'insert_page', title: 'Deep', document: { markdown: `${'>'.repeat(10_000)} x` } }],
        'nests too deeply',
      ],
      [[{ operation: 'rename_page', page: parentId }], 'body/changes/0'],
      [[], 'must NOT have fewer than 1 items'],
    ];
    for (const [changes, message] of cases) {
      const res = await api.writeContent(admin, space.id, cr.id, changes);
      expect(res.statusCode, JSON.stringify(changes).slice(0, 200)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    const slugTaken = await api.writeContent(admin, space.id, cr.id, [
      { operation: 'insert_page', title: 'x', slug: 'parent', document: {} },
    ]);
    expect(slugTaken.statusCode).toBe(409);

    expect((await api.getChangeRequest(admin, space.id, cr.id)).json().revision).toBe(before);
    const pages = (await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).json().pages;
    expect(outline(pages)).toEqual([
      { title: 'Parent', path: 'parent', pages: [{ title: 'Child', path: 'parent/child', pages: [] }] },
      { title: 'Other', path: 'other', pages: [] },
    ]);
  });

  it('reports a conflict when a page changed on both sides, and writes nothing', async () => {
    const { admin, space } = await spaceWithTeam();
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Shared', document: { markdown: 'v1\n' } },
    ]);
    const pageId = written.changes[0].page.id as string;

    const first = (await api.createChangeRequest(admin, space.id)).json();
    const second = (await api.createChangeRequest(admin, space.id)).json();
    await api.writeContent(admin, space.id, first.id, [
      { operation: 'update_page', page: pageId, document: { markdown: 'first\n' } },
    ]);
    await api.writeContent(admin, space.id, second.id, [
      { operation: 'update_page', page: pageId, document: { markdown: 'second\n' } },
    ]);
    expect((await api.merge(admin, space.id, first.id)).json().result).toBe('merge');
    const head = (await spaceCounters(space.id)).revision_id;
    const entriesBefore = await t.db
      .selectFrom('tree_entries')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();

    expect((await api.getChangeRequest(admin, space.id, second.id)).json().outdated).toBe(true);
    const conflict = await api.merge(admin, space.id, second.id);
    expect(conflict.statusCode).toBe(200);
    expect(conflict.json()).toEqual({ result: 'conflicts', revision: head });
    expect((await spaceCounters(space.id)).revision_id).toBe(head);
    expect((await api.getChangeRequest(admin, space.id, second.id)).json().status).toBe('draft');
    const entriesAfter = await t.db
      .selectFrom('tree_entries')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(entriesAfter).toEqual(entriesBefore);
    const page = await api.read(admin, `/v1/spaces/${space.id}/content/page/${pageId}`, { format: 'markdown' });
    expect(page.json().markdown).toBe('first\n');

    // Changes to different pages merge; a merged change request cannot merge again.
    expect((await api.merge(admin, space.id, first.id)).statusCode).toBe(409);
  });

  it('treats a child added under a page deleted on the other side as a conflict', async () => {
    const { admin, space } = await spaceWithTeam();
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Doomed', document: {} },
    ]);
    const doomed = written.changes[0].page.id as string;
    const adds = (await api.createChangeRequest(admin, space.id)).json();
    await api.writeContent(admin, space.id, adds.id, [
      { operation: 'insert_page', title: 'Orphan', into: doomed, document: {} },
    ]);
    await api.change(admin, space.id, [{ operation: 'delete_page', page: doomed }]);
    expect((await api.merge(admin, space.id, adds.id)).json().result).toBe('conflicts');
  });

  it('serialises concurrent batches on one change request and concurrent merges on one space', async () => {
    const { admin, space } = await spaceWithTeam();
    const cr = (await api.createChangeRequest(admin, space.id)).json();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.writeContent(admin, space.id, cr.id, [
          { operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Body ${i}\n` } },
        ]),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    const pages = (await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).json().pages;
    expect(pages.map((page: { title: string }) => page.title).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `Page ${i}`),
    );

    const others = await Promise.all(Array.from({ length: 4 }, () => api.createChangeRequest(admin, space.id)));
    for (const [i, other] of others.entries())
      await api.writeContent(admin, space.id, other.json().id, [
        { operation: 'insert_page', title: `Merge ${i}`, document: {} },
      ]);
    const merges = await Promise.all(others.map((other) => api.merge(admin, space.id, other.json().id)));
    expect(merges.map((res) => res.json().result)).toEqual(['merge', 'merge', 'merge', 'merge']);
    const seqs = await t.db
      .selectFrom('revisions')
      .select('seq')
      .where('space_id', '=', space.id)
      .where('change_request_id', 'is', null)
      .orderBy('seq')
      .execute();
    expect(seqs.map((row) => row.seq)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('a space with content', () => {
  it('takes its content along when transferred to another organization', async () => {
    const { admin, space, ...team } = await spaceWithTeam();
    await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Moves', document: { markdown: 'Along.\n' } },
      {
        operation: 'insert_files',
        files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('a').toString('base64') }],
      },
    ]);
    // Read once before, so that what the caches hold is put to the test.
    expect((await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages[0].urls.app).toContain(
      `/o/${team.organization.id}/`,
    );
    const target = await t.factory.organization(admin.user.id);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/transfer`,
      headers: admin.headers,
      payload: { organization: target.id },
    });
    expect(moved.statusCode).toBe(200);

    for (const table of [
      'change_requests',
      'revisions',
      'documents',
      'page_versions',
      'file_versions',
      'tree_entries',
    ] as const) {
      const organizations = await t.db
        .selectFrom(table)
        .select('organization_id')
        .distinct()
        .where('space_id', '=', space.id)
        .execute();
      expect(organizations, table).toEqual([{ organization_id: target.id }]);
    }
    const pages = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages;
    expect(pages).toMatchObject([{ title: 'Moves', markdown: 'Along.\n' }]);
    expect(pages[0].urls.app).toContain(`/o/${target.id}/`);
  });
});

describe('through the official client', () => {
  it('creates, reads, lists and merges change requests, and reads the content', async () => {
    const { admin, space } = await spaceWithTeam();
    const client = officialClient(await listen(t.app), admin.token);

    const created = await client.spaces.createChangeRequest(space.id, { subject: 'From the client' });
    expect(created.status).toBe(201);
    await api.writeContent(admin, space.id, created.data.id, [
      { operation: 'insert_page', title: 'Hello', document: { markdown: '**Bold** text\n' } },
    ]);
    const read = await client.spaces.getChangeRequestById(space.id, String(created.data.number));
    expect(read.data.id).toBe(created.data.id);
    await client.spaces.updateChangeRequestById(space.id, created.data.id, { status: 'open' });
    const listed = await client.spaces.listChangeRequestsForSpace(space.id);
    expect(listed.data.items.map((cr) => cr.id)).toEqual([created.data.id]);

    const merged = await client.spaces.mergeChangeRequest(space.id, created.data.id);
    expect(merged.data.result).toBe('merge');
    const revision = await client.spaces.getCurrentRevision(space.id);
    expect(revision.data.id).toBe(merged.data.revision);
    const pages = await client.spaces.listPages(space.id);
    const hello = pages.data.pages[0]!;
    expect(hello.title).toBe('Hello');
    const page = await client.spaces.getPageById(space.id, hello.id, { format: 'markdown' });
    expect((page.data as { markdown?: string }).markdown).toBe('**Bold** text\n');
    const document = await client.spaces.getPageById(space.id, hello.id);
    expectSpecResponse('getPageById', 200, document.data);
    expect((document.data as { document?: unknown }).document).toMatchObject({ object: 'document' });
  });
});
