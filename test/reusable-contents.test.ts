import { GitBookAPIError } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import {
  applyReusableContentChanges,
  MAX_REUSABLE_CONTENTS,
} from '../src/change-requests/changes/reusable-contents.js';
import type { ReusableContentState } from '../src/content/reusable-contents.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';
import { rowsInSpace, type SpaceTable } from './support/rows.js';

const t = useTestApp();
const api = contentApi(() => t.app);

async function space(visibility: 'private' | 'public' = 'private') {
  const team = await t.factory.team(['read', 'edit']);
  const created = await api.createSpace(team.admin, team.organization.id, { title: 'Library', visibility });
  return { ...team, space: created };
}

const openChangeRequest = (account: Account, spaceId: string) => api.openChangeRequest(account, spaceId, 'Library');

const paths = (spaceId: string) => ({
  inSpace: (id: string) => `/v1/spaces/${spaceId}/content/reusable-contents/${id}`,
  inChangeRequest: (cr: string, id: string) =>
    `/v1/spaces/${spaceId}/change-requests/${cr}/content/reusable-contents/${id}`,
  inRevision: (revision: string, id: string) => `/v1/spaces/${spaceId}/revisions/${revision}/reusable-contents/${id}`,
  document: (revision: string, id: string) =>
    `/v1/spaces/${spaceId}/revisions/${revision}/reusable-contents/${id}/document`,
});

/** What a refused write must leave as it was. */
async function writeState(spaceId: string, changeRequestId: string) {
  const changeRequest = await t.db
    .selectFrom('change_requests')
    .select(['revision_id', 'updated_at'])
    .where('id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  const count = (table: SpaceTable) => rowsInSpace(t.db, table, spaceId);
  return {
    changeRequest,
    versions: await count('reusable_content_versions'),
    documents: await count('documents'),
    revisions: await count('revisions'),
    entries: await count('tree_entries'),
  };
}

describe('reusable contents', () => {
  it('are created in a change request, read there by id, and reach the space with the merge', async () => {
    const { admin, member, space: s } = await space();
    const at = paths(s.id);
    const cr = await openChangeRequest(admin, s.id);
    const written = await api.writeContent(
      member('edit'),
      s.id,
      cr,
      [
        {
          operation: 'insert_reusable_content',
          title: 'Support notice',
          document: { markdown: '# Need help?\n\nWrite to **support**.\n' },
        },
        {
          operation: 'insert_reusable_content',
          title: 'From a document',
          document: {
            document: {
              object: 'document',
              nodes: [
                { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'Plain words.' }] }] },
              ],
            },
          },
        },
        { operation: 'insert_reusable_content', title: 'Empty', document: {} },
      ],
      { compat: 'false' },
    );
    expect(written.statusCode, written.body).toBe(200);
    const [notice, fromDocument, empty] = written.json().insertedReusableContents as Array<{
      id: string;
      title: string;
      document?: string;
    }>;
    expect(notice).toEqual({ id: expect.any(String), title: 'Support notice', document: expect.any(String) });
    expect(fromDocument!.title).toBe('From a document');
    expect(empty).toEqual({ id: expect.any(String), title: 'Empty' });
    // The batch touched no page.
    expect(written.json().changes).toEqual([]);

    const draft = await api.read(member('read'), at.inChangeRequest(cr, notice!.id));
    expect(draft.statusCode).toBe(200);
    expectSpecResponse('getReusableContentInChangeRequestById', 200, draft.json());
    expect(draft.json()).toEqual(notice);
    const draftRevision = await api.read(admin, `/v1/spaces/${s.id}/change-requests/${cr}/content`);
    expectSpecResponse('getRevisionOfChangeRequestById', 200, draftRevision.json());
    // Oldest first; those made together by id.
    const byId = [notice, fromDocument, empty].sort((a, b) => (a!.id < b!.id ? -1 : 1));
    expect(draftRevision.json().reusableContents).toEqual(byId);
    // Unmerged work is not the space's.
    expect((await api.read(admin, at.inSpace(notice!.id))).statusCode).toBe(404);

    expect((await api.merge(admin, s.id, cr)).json()).toMatchObject({ result: 'merge' });
    const inSpace = await api.read(member('read'), at.inSpace(notice!.id));
    expectSpecResponse('getReusableContentById', 200, inSpace.json());
    expect(inSpace.json()).toEqual(notice);
    const revision = await api.read(member('read'), `/v1/spaces/${s.id}/content`);
    expectSpecResponse('getCurrentRevision', 200, revision.json());
    expect(revision.json().reusableContents).toEqual(byId);
    const revisionId = revision.json().id as string;

    const byRevision = await api.read(member('read'), at.inRevision(revisionId, notice!.id));
    expectSpecResponse('getReusableContentInRevisionById', 200, byRevision.json());
    expect(byRevision.json()).toEqual(notice);
    const document = await api.read(member('read'), at.document(revisionId, notice!.id));
    expect(document.statusCode).toBe(200);
    expectSpecResponse('getReusableContentDocumentInRevisionById', 200, document.json());
    // The whole markdown is the content: its heading is not taken as a title.
    expect(document.json().nodes.map((node: { type: string }) => node.type)).toEqual(['heading-1', 'paragraph']);
    const plain = await api.read(member('read'), at.document(revisionId, fromDocument!.id));
    expect(JSON.stringify(plain.json())).toContain('Plain words.');
    const none = await api.read(member('read'), at.document(revisionId, empty!.id));
    expectSpecResponse('getReusableContentDocumentInRevisionById', 200, none.json());
    expect(none.json()).toEqual({ object: 'document', data: {}, nodes: [] });

    const rows = await t.db
      .selectFrom('reusable_content_versions')
      .select(['reusable_content_id', 'title', 'document_id'])
      .where('space_id', '=', s.id)
      .execute();
    expect(rows).toHaveLength(3);
    const stored = await t.db
      .selectFrom('documents')
      .select('markdown')
      .where('id', '=', notice!.document!)
      .executeTakeFirstOrThrow();
    expect(stored.markdown).toBe('# Need help?\n\nWrite to **support**.\n');
  });

  it('are changed and deleted through content changes, while older revisions keep what they held', async () => {
    const { admin, space: s } = await space();
    const at = paths(s.id);
    const { written } = await api.change(admin, s.id, [
      { operation: 'insert_reusable_content', title: 'Version', document: { markdown: 'Version one.\n' } },
      { operation: 'insert_reusable_content', title: 'Doomed', document: { markdown: 'Going away.\n' } },
    ]);
    const [version, doomed] = written.insertedReusableContents as Array<{ id: string; document: string }>;
    const first = (await api.read(admin, `/v1/spaces/${s.id}`)).json().revision as string;

    const cr = await openChangeRequest(admin, s.id);
    const renamed = await api.writeContent(admin, s.id, cr, [
      { operation: 'update_reusable_content', reusableContent: version!.id, title: 'Current version' },
      { operation: 'update_reusable_content', reusableContent: version!.id, document: { markdown: 'Version two.\n' } },
      { operation: 'delete_reusable_content', reusableContent: doomed!.id },
    ]);
    expect(renamed.statusCode, renamed.body).toBe(200);
    // A reusable content changed twice in a batch gets one new version.
    const versions = await t.db
      .selectFrom('reusable_content_versions')
      .select('id')
      .where('reusable_content_id', '=', version!.id)
      .execute();
    expect(versions).toHaveLength(2);
    expect((await api.read(admin, at.inChangeRequest(cr, doomed!.id))).statusCode).toBe(404);
    expect((await api.merge(admin, s.id, cr)).json()).toMatchObject({ result: 'merge' });

    const now = (await api.read(admin, `/v1/spaces/${s.id}/content`)).json();
    expect(now.reusableContents).toHaveLength(1);
    expect(now.reusableContents[0]).toMatchObject({ id: version!.id, title: 'Current version' });
    expect(now.reusableContents[0].document).not.toBe(version!.document);
    expect((await api.read(admin, at.inSpace(doomed!.id))).statusCode).toBe(404);
    const current = await api.read(admin, at.document(now.id, version!.id));
    expect(JSON.stringify(current.json())).toContain('Version two.');

    // The first revision still holds both, as they were.
    const old = await api.read(admin, at.inRevision(first, version!.id));
    expect(old.json()).toEqual({ id: version!.id, title: 'Version', document: version!.document });
    expect(JSON.stringify((await api.read(admin, at.document(first, version!.id))).json())).toContain('Version one.');
    expect((await api.read(admin, at.inRevision(first, doomed!.id))).statusCode).toBe(200);
  });

  it('changed by two change requests make the second merge a conflict', async () => {
    const { admin, space: s } = await space();
    const { written } = await api.change(admin, s.id, [
      { operation: 'insert_reusable_content', title: 'Shared', document: { markdown: 'Shared.\n' } },
    ]);
    const shared = written.insertedReusableContents[0].id as string;
    const one = await openChangeRequest(admin, s.id);
    const two = await openChangeRequest(admin, s.id);
    await api.writeContent(admin, s.id, one, [
      { operation: 'update_reusable_content', reusableContent: shared, title: 'One' },
    ]);
    await api.writeContent(admin, s.id, two, [
      { operation: 'update_reusable_content', reusableContent: shared, title: 'Two' },
    ]);
    expect((await api.merge(admin, s.id, one)).json()).toMatchObject({ result: 'merge' });
    expect((await api.merge(admin, s.id, two)).json()).toMatchObject({ result: 'conflicts' });
    expect((await api.read(admin, paths(s.id).inSpace(shared))).json().title).toBe('One');
  });

  it('evaluate the space’s variables in their document when asked', async () => {
    const { admin, space: s } = await space();
    const { written } = await api.change(admin, s.id, [
      { operation: 'update_variables', variables: { product: 'Quire' } },
      {
        operation: 'insert_reusable_content',
        title: 'Banner',
        document: { markdown: 'Made with {{ space.vars.product }}; {{ page.vars.product }} has no page here.\n' },
      },
    ]);
    const banner = written.insertedReusableContents[0].id as string;
    const revision = (await api.read(admin, `/v1/spaces/${s.id}`)).json().revision as string;
    const url = paths(s.id).document(revision, banner);
    const text = async (query: Record<string, string>) => {
      const res = await api.read(admin, url, query);
      expect(res.statusCode, res.body).toBe(200);
      expectSpecResponse('getReusableContentDocumentInRevisionById', 200, res.json());
      return JSON.stringify(res.json());
    };
    expect(await text({})).toContain('Made with {{ space.vars.product }}');
    expect(await text({ evaluated: 'true' })).toContain('Made with Quire; {{ page.vars.product }} has no page here.');
    expect(await text({ evaluated: 'deterministic-only' })).toContain('Made with Quire;');
    expect(await text({ evaluated: 'false' })).toContain('{{ space.vars.product }}');
    expect((await api.read(admin, url, { evaluated: 'maybe' })).statusCode).toBe(400);
  });

  it('refuse bad changes with a 400, and write nothing', async () => {
    const { admin, space: s } = await space();
    const { written } = await api.change(admin, s.id, [
      { operation: 'insert_reusable_content', title: 'Kept', document: { markdown: 'Kept.\n' } },
    ]);
    const kept = written.insertedReusableContents[0].id as string;
    const cr = await openChangeRequest(admin, s.id);
    const state = await writeState(s.id, cr);
    const cases: Array<[unknown[], string]> = [
      [[{ operation: 'update_reusable_content', reusableContent: 'nope', title: 'X' }], 'no reusable content nope'],
      [[{ operation: 'delete_reusable_content', reusableContent: 'nope' }], 'no reusable content nope'],
      [[{ operation: 'update_reusable_content', reusableContent: kept }], 'must set title or document'],
      [[{ operation: 'insert_reusable_content', title: '', document: {} }], 'body/changes/0'],
      [[{ operation: 'insert_reusable_content', title: 'x'.repeat(256), document: {} }], 'body/changes/0'],
      [[{ operation: 'insert_reusable_content', title: 'No document' }], 'body/changes/0'],
      [[{ operation: 'insert_reusable_content', title: 'Extra', document: {}, id: 'mine' }], 'body/changes/0'],
      [
        [
          { operation: 'insert_reusable_content', title: 'Fine', document: { markdown: 'Fine.\n' } },
          { operation: 'delete_reusable_content', reusableContent: kept },
          { operation: 'update_reusable_content', reusableContent: kept, title: 'Gone' },
        ],
        'body/changes/2/reusableContent: no reusable content',
      ],
      [
        [{ operation: 'insert_reusable_content', title: 'Deep', document: { markdown: `${'> '.repeat(40)}deep\n` } }],
        'body/changes/0/document',
      ],
    ];
    for (const [changes, message] of cases) {
      const res = await api.writeContent(admin, s.id, cr, changes);
      expect(res.statusCode, JSON.stringify(changes).slice(0, 100)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    expect(await writeState(s.id, cr)).toEqual(state);
  });

  it('hold at most the limit in a revision', () => {
    const now = new Date();
    const full = new Map<string, ReusableContentState>(
      Array.from({ length: MAX_REUSABLE_CONTENTS }, (_, i) => [
        `r${i}`,
        {
          reusableContentId: `r${i}`,
          versionId: `v${i}`,
          title: 'T',
          documentId: null,
          createdAt: now,
          updatedAt: now,
        },
      ]),
    );
    const insert = { operation: 'insert_reusable_content' as const, title: 'One more', document: {} };
    expect(() => applyReusableContentChanges(full, [insert], new Map(), now)).toThrow(/at most 1000 reusable contents/);
    // Deleting one first makes room.
    const applied = applyReusableContentChanges(
      full,
      [{ operation: 'delete_reusable_content', reusableContent: 'r0' }, insert],
      new Map(),
      now,
    );
    expect(applied.contents.size).toBe(MAX_REUSABLE_CONTENTS);
    expect(applied.entries).toEqual([
      { kind: 'reusable_content', itemId: 'r0', versionId: null },
      { kind: 'reusable_content', itemId: applied.inserted[0]!.reusableContentId, versionId: expect.any(String) },
    ]);
  });

  it('are written by editors only, and read as the rest of the content is', async () => {
    const { admin, member, space: s } = await space('public');
    const at = paths(s.id);
    const { written } = await api.change(admin, s.id, [
      { operation: 'insert_reusable_content', title: 'Public', document: { markdown: 'Public.\n' } },
    ]);
    const item = written.insertedReusableContents[0].id as string;
    const first = (await api.read(admin, `/v1/spaces/${s.id}`)).json().revision as string;
    await api.change(admin, s.id, [{ operation: 'update_reusable_content', reusableContent: item, title: 'Newer' }]);
    const current = (await api.read(admin, `/v1/spaces/${s.id}`)).json().revision as string;
    const cr = await openChangeRequest(admin, s.id);

    // Writes: a reader is refused, a non-member does not see the space; nothing changes.
    const state = await writeState(s.id, cr);
    const change = [{ operation: 'insert_reusable_content', title: 'Mine', document: {} }];
    expect((await api.writeContent(member('read'), s.id, cr, change)).statusCode).toBe(403);
    const stranger = await t.factory.account();
    expect((await api.writeContent(stranger, s.id, cr, change)).statusCode).toBe(404);
    expect(await writeState(s.id, cr)).toEqual(state);

    // Reads: a visitor of the public space reads the published side only.
    expect((await api.read(stranger, at.inSpace(item))).json()).toMatchObject({ id: item, title: 'Newer' });
    expect((await api.read(stranger, at.inRevision(current, item))).statusCode).toBe(200);
    expect((await api.read(stranger, at.document(current, item))).statusCode).toBe(200);
    const unknownRevision = (await api.read(stranger, at.inRevision('AAAAAAAAAAAAAAAAAAAA', item))).json();
    for (const url of [at.inRevision(first, item), at.document(first, item), at.inChangeRequest(cr, item)]) {
      const res = await api.read(stranger, url);
      expect(res.statusCode, url).toBe(404);
      if (!url.includes('change-requests')) expect(res.json()).toEqual(unknownRevision);
    }
    expect((await api.read(member('read'), at.inRevision(first, item))).json().title).toBe('Public');
    expect((await api.read(member('read'), at.inChangeRequest(cr, item))).statusCode).toBe(200);

    // Unknown ids are 404s; a deleted space answers 404 to all of them.
    expect((await api.read(admin, at.inSpace('nope'))).statusCode).toBe(404);
    expect((await api.read(admin, at.document(current, 'nope'))).statusCode).toBe(404);
    expect((await api.read(admin, at.inChangeRequest('nope', item))).statusCode).toBe(404);
    const privateSpace = await space();
    expect((await api.read(stranger, paths(privateSpace.space.id).inSpace(item))).statusCode).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/v1/spaces/${s.id}`, headers: admin.headers });
    expect((await api.read(admin, at.inSpace(item))).statusCode).toBe(404);
  });

  it('are read through the official client', async () => {
    const { admin, space: s } = await space();
    const { written } = await api.change(admin, s.id, [
      { operation: 'insert_reusable_content', title: 'Client', document: { markdown: 'Read by the client.\n' } },
    ]);
    const item = written.insertedReusableContents[0] as { id: string; title: string; document: string };
    const cr = await openChangeRequest(admin, s.id);
    const client = officialClient(await listen(t.app), admin.token);

    const inSpace = await client.spaces.getReusableContentById(s.id, item.id);
    expect(inSpace.data).toEqual(item);
    const inChangeRequest = await client.spaces.getReusableContentInChangeRequestById(s.id, cr, item.id);
    expect(inChangeRequest.data).toEqual(item);
    const revision = (await client.spaces.getCurrentRevision(s.id)).data;
    expect(revision.reusableContents).toEqual([item]);
    const inRevision = await client.spaces.getReusableContentInRevisionById(s.id, revision.id, item.id);
    expect(inRevision.data).toEqual(item);
    const document = await client.spaces.getReusableContentDocumentInRevisionById(s.id, revision.id, item.id, {
      evaluated: true,
    });
    expect(JSON.stringify(document.data)).toContain('Read by the client.');
    const missing = await client.spaces.getReusableContentById(s.id, 'nope').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect((missing as GitBookAPIError).code).toBe(404);
  });
});
