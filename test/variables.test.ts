import { describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

async function space(visibility: 'private' | 'public' = 'private') {
  const team = await t.factory.team(['read', 'edit']);
  const created = await api.createSpace(team.admin, team.organization.id, { title: 'Variables', visibility });
  return { ...team, space: created };
}

const openChangeRequest = (account: Account, spaceId: string) => api.openChangeRequest(account, spaceId, 'Variables');

/** What a refused write must leave as it was: the change request's head and the space's revisions. */
async function writeState(spaceId: string, changeRequestId: string) {
  const changeRequest = await t.db
    .selectFrom('change_requests')
    .select(['revision_id', 'updated_at'])
    .where('id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  const revisions = await t.db
    .selectFrom('revisions')
    .select(['id', 'variables'])
    .where('space_id', '=', spaceId)
    .orderBy('id')
    .execute();
  const pages = await t.db.selectFrom('page_versions').select('id').where('space_id', '=', spaceId).execute();
  return { changeRequest, revisions, pages: pages.length };
}

describe('space variables', () => {
  it('are written in a change request, shown on its revision, and reach the space when it is merged', async () => {
    const { admin, member, space: s } = await space();
    const cr = await openChangeRequest(admin, s.id);
    const written = await api.writeContent(member('edit'), s.id, cr, [
      { operation: 'update_variables', variables: { product: 'Quire', version: 2, beta: true } },
      { operation: 'update_variables', variables: { version: 3, codename: 'Kestrel' } },
    ]);
    expect(written.statusCode, written.body).toBe(200);

    const draft = await api.read(member('read'), `/v1/spaces/${s.id}/change-requests/${cr}/content`);
    expect(draft.statusCode).toBe(200);
    expectSpecResponse('getRevisionOfChangeRequestById', 200, draft.json());
    expect(draft.json().variables).toEqual({ product: 'Quire', version: 3, beta: true, codename: 'Kestrel' });
    // The space's own revision has none until the merge.
    expect((await api.read(admin, `/v1/spaces/${s.id}/content`)).json().variables).toEqual({});

    expect((await api.merge(admin, s.id, cr)).json()).toMatchObject({ result: 'merge' });
    const current = await api.read(member('read'), `/v1/spaces/${s.id}/content`);
    expectSpecResponse('getCurrentRevision', 200, current.json());
    expect(current.json().variables).toEqual({ product: 'Quire', version: 3, beta: true, codename: 'Kestrel' });
    const stored = await t.db
      .selectFrom('revisions')
      .select('variables')
      .where('id', '=', current.json().id)
      .executeTakeFirstOrThrow();
    expect(stored.variables).toEqual({ product: 'Quire', version: 3, beta: true, codename: 'Kestrel' });

    // null removes a name; the revision before keeps what it had.
    const { id: second } = await api.change(admin, s.id, [
      { operation: 'update_variables', variables: { codename: null, beta: false, missing: null } },
    ]);
    expect(second).toBeTruthy();
    const after = (await api.read(admin, `/v1/spaces/${s.id}/content`)).json();
    expect(after.variables).toEqual({ product: 'Quire', version: 3, beta: false });
    const before = await api.read(admin, `/v1/spaces/${s.id}/revisions/${current.json().id}`);
    expectSpecResponse('getRevisionById', 200, before.json());
    expect(before.json().variables).toEqual({ product: 'Quire', version: 3, beta: true, codename: 'Kestrel' });
  });

  it('set on both sides are kept side by side by merges, and the same name changed twice is a conflict', async () => {
    const { admin, space: s } = await space();
    const first = await openChangeRequest(admin, s.id);
    const second = await openChangeRequest(admin, s.id);
    const third = await openChangeRequest(admin, s.id);
    await api.writeContent(admin, s.id, first, [{ operation: 'update_variables', variables: { a: 'one' } }]);
    await api.writeContent(admin, s.id, second, [{ operation: 'update_variables', variables: { b: 'two' } }]);
    await api.writeContent(admin, s.id, third, [{ operation: 'update_variables', variables: { a: 'other' } }]);
    expect((await api.merge(admin, s.id, first)).json()).toMatchObject({ result: 'merge' });
    expect((await api.merge(admin, s.id, second)).json()).toMatchObject({ result: 'merge' });
    expect((await api.read(admin, `/v1/spaces/${s.id}/content`)).json().variables).toEqual({ a: 'one', b: 'two' });
    const conflict = await api.merge(admin, s.id, third);
    expect(conflict.json()).toMatchObject({ result: 'conflicts' });
    expect((await api.read(admin, `/v1/spaces/${s.id}/content`)).json().variables).toEqual({ a: 'one', b: 'two' });
  });

  it('are refused with a 400 naming the rule, and nothing is written', async () => {
    const { admin, space: s } = await space();
    const cr = await openChangeRequest(admin, s.id);
    const state = await writeState(s.id, cr);
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`v${i}`, i]));
    const cases: Array<[unknown[], string]> = [
      [[{ operation: 'update_variables', variables: { '1st': 'x' } }], 'is not a variable name'],
      [[{ operation: 'update_variables', variables: { 'with-dash': 'x' } }], 'is not a variable name'],
      [[{ operation: 'update_variables', variables: { _hidden: 'x' } }], 'is not a variable name'],
      [[{ operation: 'update_variables', variables: { ['n'.repeat(65)]: 'x' } }], 'is not a variable name'],
      [[{ operation: 'update_variables', variables: { long: 'x'.repeat(257) } }], 'must NOT have more than 256'],
      [[{ operation: 'update_variables', variables: { nested: { a: 1 } } }], 'body/changes/0/variables/nested'],
      [[{ operation: 'update_variables', variables: { list: [1] } }], 'body/changes/0/variables/list'],
      [[{ operation: 'update_variables', variables: {} }], 'must NOT have fewer than 1'],
      [[{ operation: 'update_variables', variables: { ...hundred, more: 1 } }], 'must NOT have more than 100'],
      [
        [
          { operation: 'update_variables', variables: hundred },
          { operation: 'update_variables', variables: { oneTooMany: 1 } },
        ],
        'would hold more than 100 variables',
      ],
      [[{ operation: 'update_variables', page: 'nope', variables: { a: 1 } }], 'no page nope'],
      [
        [
          { operation: 'insert_page', title: 'Fine', document: { markdown: 'Fine.\n' } },
          { operation: 'update_variables', variables: { 'bad name': 1 } },
        ],
        'body/changes/1/variables',
      ],
    ];
    for (const [changes, message] of cases) {
      const res = await api.writeContent(admin, s.id, cr, changes);
      expect(res.statusCode, JSON.stringify(changes).slice(0, 80)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    // Frontmatter variables follow the same rules.
    const frontmatter = await api.writeContent(admin, s.id, cr, [
      { operation: 'insert_page', document: { markdown: '---\nvars:\n  bad-name: 1\n---\nText.\n' } },
    ]);
    expect(frontmatter.statusCode).toBe(400);
    expect(frontmatter.json().error.message).toContain('is not a variable name');
    expect(await writeState(s.id, cr)).toEqual(state);
  });

  it('are written by editors only: 403 to a reader and on a locked space, 404 to a non-member', async () => {
    const { admin, member, space: s } = await space();
    const cr = await openChangeRequest(admin, s.id);
    const state = await writeState(s.id, cr);
    const change = [{ operation: 'update_variables', variables: { a: 1 } }];
    expect((await api.writeContent(member('read'), s.id, cr, change)).statusCode).toBe(403);
    const stranger = await t.factory.account();
    expect((await api.writeContent(stranger, s.id, cr, change)).statusCode).toBe(404);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${s.id}`,
      headers: admin.headers,
      payload: { editMode: 'locked' },
    });
    expect((await api.writeContent(admin, s.id, cr, change)).statusCode).toBe(403);
    expect(await writeState(s.id, cr)).toEqual(state);
  });
});

describe('page variables', () => {
  it('are set by update_variables on a page (by id or by the batch’s ref) and shown on the page', async () => {
    const { admin, member, space: s } = await space();
    const cr = await openChangeRequest(admin, s.id);
    const written = await api.writeContent(
      admin,
      s.id,
      cr,
      [
        {
          operation: 'insert_page',
          ref: 'guide',
          title: 'Guide',
          document: { markdown: '---\nvars:\n  edition: first\n---\nThe guide.\n' },
        },
        { operation: 'update_variables', page: 'guide', variables: { audience: 'admins', edition: 'second' } },
      ],
      { compat: 'false' },
    );
    expect(written.statusCode, written.body).toBe(200);
    const pageId = written.json().changes[0].page.id as string;
    // One page touched: one entry, created.
    expect(written.json().changes).toHaveLength(1);
    expect(written.json().changes[0]).toMatchObject({ object: 'created_page', page: { id: pageId } });

    const next = await api.writeContent(
      admin,
      s.id,
      cr,
      [{ operation: 'update_variables', page: pageId, variables: { audience: null, level: 3 } }],
      { compat: 'false' },
    );
    expect(next.json().changes).toEqual([expect.objectContaining({ object: 'updated_page' })]);
    const page = await api.read(member('read'), `/v1/spaces/${s.id}/change-requests/${cr}/content/page/${pageId}`);
    expectSpecResponse('getPageInChangeRequestById', 200, page.json());
    expect(page.json().variables).toEqual({ edition: 'second', level: 3 });
    // The space's variables are untouched by a page's.
    expect((await api.read(admin, `/v1/spaces/${s.id}/change-requests/${cr}/content`)).json().variables).toEqual({});
    // The page's content did not change: it still shares its document.
    const versions = await t.db
      .selectFrom('page_versions')
      .select('document_id')
      .where('page_id', '=', pageId)
      .execute();
    expect(versions).toHaveLength(2);
    expect(versions[0]!.document_id).toBe(versions[1]!.document_id);
  });
});

describe('evaluated reads', () => {
  const markdown = [
    '---',
    'vars:',
    '  product: Page product',
    '  edition: Pro',
    '---',
    'Welcome to {{ space.vars.product }} {{ page.vars.edition }}, version <code class="expression">space.vars.version</code>.',
    '',
    'Here {{ page.vars.product }} is the page’s; {{ space.vars.unknown }} and {{ page.vars.version }} stay.',
    '',
  ].join('\n');

  async function evaluatedSpace() {
    const team = await space('public');
    const { written } = await api.change(team.admin, team.space.id, [
      { operation: 'update_variables', variables: { product: 'Quire', version: 2 } },
      { operation: 'insert_page', title: 'Welcome', document: { markdown } },
    ]);
    return { ...team, pageId: written.changes[0].page.id as string };
  }

  it('replace each expression by the variable of its scope, in markdown and in the document', async () => {
    const { member, space: s, pageId } = await evaluatedSpace();
    const url = `/v1/spaces/${s.id}/content/page/${pageId}`;
    const asWritten = await api.read(member('read'), url, { format: 'markdown' });
    expect(asWritten.json().markdown).toBe(markdown.slice(markdown.indexOf('Welcome')));

    const evaluated = await api.read(member('read'), url, { format: 'markdown', evaluated: 'true' });
    expect(evaluated.statusCode).toBe(200);
    expectSpecResponse('getPageById', 200, evaluated.json());
    expect(evaluated.json().markdown).toBe(
      [
        'Welcome to Quire Pro, version 2.',
        '',
        'Here Page product is the page’s; {{ space.vars.unknown }} and {{ page.vars.version }} stay.',
        '',
      ].join('\n'),
    );

    const document = await api.read(member('read'), url, { evaluated: 'true' });
    expectSpecResponse('getPageById', 200, document.json());
    const text = JSON.stringify(document.json().document);
    expect(text).toContain('Welcome to Quire Pro, version 2.');
    expect(text).not.toContain('space.vars.product');
    const plain = JSON.stringify((await api.read(member('read'), url)).json().document);
    expect(plain).toContain('{{ space.vars.product }}');

    // A visitor of the public space reads it evaluated too, by path as by id.
    const stranger = await t.factory.account();
    const byPath = await api.read(stranger, `/v1/spaces/${s.id}/content/path/welcome`, {
      format: 'markdown',
      evaluated: 'true',
    });
    expect(byPath.json().markdown).toBe(evaluated.json().markdown);
  });

  it('use the change request’s variables in a change request, and each revision’s own', async () => {
    const { admin, space: s, pageId } = await evaluatedSpace();
    const firstRevision = (await api.read(admin, `/v1/spaces/${s.id}`)).json().revision as string;
    const cr = await openChangeRequest(admin, s.id);
    await api.writeContent(admin, s.id, cr, [
      { operation: 'update_variables', variables: { product: 'Quire Next' } },
      { operation: 'update_variables', page: pageId, variables: { edition: 'Team' } },
    ]);
    const inDraft = await api.read(admin, `/v1/spaces/${s.id}/change-requests/${cr}/content/page/${pageId}`, {
      format: 'markdown',
      evaluated: 'true',
    });
    expect(inDraft.json().markdown).toContain('Welcome to Quire Next Team, version 2.');
    const inSpace = await api.read(admin, `/v1/spaces/${s.id}/content/page/${pageId}`, {
      format: 'markdown',
      evaluated: 'true',
    });
    expect(inSpace.json().markdown).toContain('Welcome to Quire Pro, version 2.');
    await api.merge(admin, s.id, cr);
    const old = await api.read(admin, `/v1/spaces/${s.id}/revisions/${firstRevision}/page/${pageId}`, {
      format: 'markdown',
      evaluated: 'true',
    });
    expect(old.json().markdown).toContain('Welcome to Quire Pro, version 2.');
    const now = await api.read(admin, `/v1/spaces/${s.id}/content/path/welcome`, {
      format: 'markdown',
      evaluated: 'true',
    });
    expect(now.json().markdown).toContain('Welcome to Quire Next Team, version 2.');
  });

  it('through the official client', async () => {
    const { admin, space: s, pageId } = await evaluatedSpace();
    const client = officialClient(await listen(t.app), admin.token);
    const revision = await client.spaces.getCurrentRevision(s.id);
    expect(revision.data.variables).toEqual({ product: 'Quire', version: 2 });
    const page = await client.spaces.getPageById(s.id, pageId, { format: 'markdown', evaluated: true });
    expect((page.data as { markdown?: string }).markdown).toContain('Welcome to Quire Pro, version 2.');
    expect((page.data as { variables?: unknown }).variables).toEqual({ product: 'Page product', edition: 'Pro' });
  });

  it('are bounded: a page whose evaluation would pass the limit is refused with a 400, and read as written', async () => {
    const team = await space();
    const long = 'x'.repeat(256);
    // 9,000 expressions of 16 characters (144 KB) that become 256 each: 2.3 MB once evaluated.
    const expressions = Array.from({ length: 90 }, () => '{{space.vars.a}} '.repeat(100)).join('\n\n');
    const { written } = await api.change(team.admin, team.space.id, [
      { operation: 'update_variables', variables: { a: long } },
      { operation: 'insert_page', title: 'Heavy', document: { markdown: expressions } },
    ]);
    const url = `/v1/spaces/${team.space.id}/content/page/${written.changes[0].page.id as string}`;
    const refused = await api.read(team.admin, url, { format: 'markdown', evaluated: 'true' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('would be longer than 2097152 characters');
    expect((await api.read(team.admin, url, { format: 'markdown' })).statusCode).toBe(200);
  });
});
