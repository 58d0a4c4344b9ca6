import { GitBookAPIError } from '@gitbook/api';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebasedVariables } from '../src/change-requests/merge.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi, flatten } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';
import { rowsInSpace, type SpaceTable } from './support/rows.js';

const t = useTestApp({ config: { outbound: { allowPrivate: true, timeoutMs: 2_000, maxBytes: 1024 * 1024 } } });
const api = contentApi(() => t.app);

/** Serves one markdown file, for imports straight into a space. */
let markdownSite: Server;
let markdownUrl: string;
beforeAll(async () => {
  markdownSite = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/markdown' }).end('# Imported\n\nFrom outside.\n');
  });
  await new Promise<void>((resolve) => markdownSite.listen(0, '127.0.0.1', resolve));
  markdownUrl = `http://127.0.0.1:${(markdownSite.address() as AddressInfo).port}/imported.md`;
});
afterAll(async () => {
  markdownSite.closeAllConnections();
  await new Promise<void>((resolve) => markdownSite.close(() => resolve()));
});

const updateFromSpace = (account: Account, spaceId: string, changeRequestId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/update`,
    headers: account.headers,
  });

/** A space of a team (readers, reviewers, editors) with two pages, Alpha and Beta, merged. */
async function spaceWithPages(visibility: 'private' | 'public' = 'private') {
  const team = await t.factory.team(['read', 'review', 'edit', null]);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs', visibility });
  const { written } = await api.change(team.admin, space.id, [
    { operation: 'insert_page', title: 'Alpha', document: { markdown: 'Alpha v1.\n' } },
    { operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta v1.\n' } },
  ]);
  const [alpha, beta] = (written.changes as Array<{ page: { id: string } }>).map((change) => change.page.id);
  return { ...team, space, alpha: alpha!, beta: beta! };
}

async function openChangeRequest(account: Account, spaceId: string, changes: unknown[] = []): Promise<string> {
  const created = await api.createChangeRequest(account, spaceId, { subject: 'Work' });
  expect(created.statusCode).toBe(201);
  const id = created.json().id as string;
  if (changes.length > 0) {
    const written = await api.writeContent(account, spaceId, id, changes);
    expect(written.statusCode, written.body).toBe(200);
  }
  return id;
}

const changeRequestOf = async (account: Account, spaceId: string, id: string) => {
  const res = await api.getChangeRequest(account, spaceId, id);
  expect(res.statusCode).toBe(200);
  expectSpecResponse('getChangeRequestById', 200, res.json());
  return res.json() as { revision: string; revisionInitial: string; outdated: boolean; status: string };
};

const outdated = async (account: Account, spaceId: string, id: string) =>
  (await changeRequestOf(account, spaceId, id)).outdated;

/** The titles of a content's pages, sorted, from a page-tree URL. */
async function titles(account: Account, url: string): Promise<string[]> {
  const res = await api.read(account, url);
  expect(res.statusCode, res.body).toBe(200);
  return flatten(res.json().pages)
    .map((page) => page.title)
    .sort();
}

const markdownOf = async (account: Account, url: string) => {
  const res = await api.read(account, url, { format: 'markdown' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().markdown as string;
};

const spaceHead = async (spaceId: string) =>
  (await t.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow())
    .revision_id;

/** What an update that is refused or conflicts must leave as it was. */
async function storedState(spaceId: string) {
  const count = (table: SpaceTable) => rowsInSpace(t.db, table, spaceId);
  return {
    space: await t.db
      .selectFrom('spaces')
      .select(['revision_id', 'updated_at', 'change_requests_open_count', 'change_requests_draft_count'])
      .where('id', '=', spaceId)
      .executeTakeFirstOrThrow(),
    changeRequests: await t.db
      .selectFrom('change_requests')
      .select(['id', 'status', 'revision_id', 'updated_at'])
      .where('space_id', '=', spaceId)
      .orderBy('id')
      .execute(),
    revisions: await count('revisions'),
    entries: await count('tree_entries'),
  };
}

describe('updating a change request from its space', () => {
  it('rebases it on the space’s current revision, keeps its own changes on top, and leaves it up to date', async () => {
    const { admin, member, space, alpha, beta } = await spaceWithPages();
    const editor = member('edit');
    const ours = await openChangeRequest(editor, space.id, [
      { operation: 'update_page', page: alpha, document: { markdown: 'Alpha, ours.\n' } },
      { operation: 'insert_page', title: 'Gamma', document: { markdown: 'Gamma.\n' } },
    ]);
    const before = await changeRequestOf(editor, space.id, ours);
    expect(before.outdated).toBe(false);

    // Meanwhile the space moves on: another change request edits Beta and adds Delta.
    await api.change(admin, space.id, [
      { operation: 'update_page', page: beta, document: { markdown: 'Beta v2.\n' } },
      { operation: 'insert_page', title: 'Delta', document: { markdown: 'Delta.\n' } },
    ]);
    const head = await spaceHead(space.id);
    expect(await outdated(editor, space.id, ours)).toBe(true);

    const res = await updateFromSpace(editor, space.id, ours);
    expect(res.statusCode, res.body).toBe(200);
    expectSpecResponse('updateChangeRequest', 200, res.json());
    const { result, revision } = res.json() as { result: string; revision: string };
    expect(result).toBe('update');
    expect(revision).not.toBe(before.revision);

    const after = await changeRequestOf(editor, space.id, ours);
    expect(after).toMatchObject({
      revision,
      revisionInitial: before.revisionInitial,
      outdated: false,
      status: 'draft',
    });
    const stored = await t.db
      .selectFrom('revisions')
      .select(['change_request_id', 'type', 'parents', 'base_seq', 'created_by'])
      .where('id', '=', revision)
      .executeTakeFirstOrThrow();
    const headSeq = (await t.db.selectFrom('revisions').select('seq').where('id', '=', head).executeTakeFirstOrThrow())
      .seq;
    expect(stored).toEqual({
      change_request_id: ours,
      type: 'update',
      parents: [before.revision, head],
      base_seq: headSeq,
      created_by: editor.user.id,
    });
    const asRevision = await api.read(editor, `/v1/spaces/${space.id}/revisions/${revision}`);
    expect(asRevision.json()).toMatchObject({ id: revision, type: 'update', parents: [before.revision, head] });
    expectSpecResponse('getRevisionById', 200, asRevision.json());

    // The change request now holds the space's new content with its own changes on top.
    const inChangeRequest = `/v1/spaces/${space.id}/change-requests/${ours}/content`;
    expect(await titles(editor, `${inChangeRequest}/pages`)).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
    expect(await markdownOf(editor, `${inChangeRequest}/page/${alpha}`)).toBe('Alpha, ours.\n');
    expect(await markdownOf(editor, `${inChangeRequest}/page/${beta}`)).toBe('Beta v2.\n');
    // Its older revision still reads as it was.
    expect(await titles(editor, `/v1/spaces/${space.id}/revisions/${before.revision}/pages`)).toEqual([
      'Alpha',
      'Beta',
      'Gamma',
    ]);
    // The space itself did not move.
    expect(await spaceHead(space.id)).toBe(head);

    // Edits go on from the updated revision, and the merge that follows has nothing to conflict with.
    const edited = await api.writeContent(editor, space.id, ours, [
      { operation: 'update_page', page: beta, document: { markdown: 'Beta, ours on v2.\n' } },
    ]);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await outdated(editor, space.id, ours)).toBe(false);
    expect((await api.merge(editor, space.id, ours)).json().result).toBe('merge');
    expect(await titles(editor, `/v1/spaces/${space.id}/content/pages`)).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
    expect(await markdownOf(editor, `/v1/spaces/${space.id}/content/page/${alpha}`)).toBe('Alpha, ours.\n');
    expect(await markdownOf(editor, `/v1/spaces/${space.id}/content/page/${beta}`)).toBe('Beta, ours on v2.\n');
  });

  it('brings a change request with no changes, or an open one, to the space’s content', async () => {
    const { admin, space } = await spaceWithPages();
    const empty = await openChangeRequest(admin, space.id);
    const opened = await openChangeRequest(admin, space.id, [
      { operation: 'insert_page', title: 'Mine', document: {} },
    ]);
    expect((await api.patchChangeRequest(admin, space.id, opened, { status: 'open' })).statusCode).toBe(200);
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);

    for (const id of [empty, opened]) {
      const res = await updateFromSpace(admin, space.id, id);
      expect(res.json().result).toBe('update');
      expect(await changeRequestOf(admin, space.id, id)).toMatchObject({
        revision: res.json().revision,
        outdated: false,
      });
    }
    const inChangeRequest = (id: string) => `/v1/spaces/${space.id}/change-requests/${id}/content/pages`;
    expect(await titles(admin, inChangeRequest(empty))).toEqual(['Alpha', 'Beta', 'Later']);
    expect(await titles(admin, inChangeRequest(opened))).toEqual(['Alpha', 'Beta', 'Later', 'Mine']);
    expect((await changeRequestOf(admin, space.id, opened)).status).toBe('open');
  });

  it('leaves a change request that is already up to date as it is, without an empty revision', async () => {
    const { admin, space } = await spaceWithPages();
    const id = await openChangeRequest(admin, space.id, [{ operation: 'insert_page', title: 'Mine', document: {} }]);
    const before = await storedState(space.id);
    const { revision } = await changeRequestOf(admin, space.id, id);

    const res = await updateFromSpace(admin, space.id, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: 'update', revision });
    expect(await storedState(space.id)).toEqual(before);
  });

  it('accepts the change request’s number in place of its id', async () => {
    const { admin, space } = await spaceWithPages();
    const id = await openChangeRequest(admin, space.id);
    const { number } = (await api.getChangeRequest(admin, space.id, id)).json() as { number: number };
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);
    expect((await updateFromSpace(admin, space.id, String(number))).json().result).toBe('update');
    expect(await outdated(admin, space.id, id)).toBe(false);
  });
});

describe('conflicts', () => {
  it('answer as a merge’s do: result conflicts, the change request’s revision unchanged, nothing written', async () => {
    const { admin, space, alpha } = await spaceWithPages();
    const ours = await openChangeRequest(admin, space.id, [
      { operation: 'update_page', page: alpha, document: { markdown: 'Alpha, ours.\n' } },
    ]);
    await api.change(admin, space.id, [
      { operation: 'update_page', page: alpha, document: { markdown: 'Alpha, theirs.\n' } },
    ]);
    const { revision } = await changeRequestOf(admin, space.id, ours);
    const before = await storedState(space.id);

    const res = await updateFromSpace(admin, space.id, ours);
    expect(res.statusCode).toBe(200);
    expectSpecResponse('updateChangeRequest', 200, res.json());
    expect(res.json()).toEqual({ result: 'conflicts', revision });
    expect(await storedState(space.id)).toEqual(before);
    expect(await outdated(admin, space.id, ours)).toBe(true);
    expect(await markdownOf(admin, `/v1/spaces/${space.id}/change-requests/${ours}/content/page/${alpha}`)).toBe(
      'Alpha, ours.\n',
    );
    // The merge sees the same conflict.
    expect((await api.merge(admin, space.id, ours)).json().result).toBe('conflicts');
  });

  it('include a page deleted on one side and changed on the other', async () => {
    const { admin, space, alpha, beta } = await spaceWithPages();
    const deletes = await openChangeRequest(admin, space.id, [{ operation: 'delete_page', page: alpha }]);
    const edits = await openChangeRequest(admin, space.id, [
      { operation: 'update_page', page: beta, document: { markdown: 'Beta, edited.\n' } },
    ]);
    await api.change(admin, space.id, [
      { operation: 'update_page', page: alpha, document: { markdown: 'Alpha v2.\n' } },
      { operation: 'delete_page', page: beta },
    ]);
    expect((await updateFromSpace(admin, space.id, deletes)).json().result).toBe('conflicts');
    expect((await updateFromSpace(admin, space.id, edits)).json().result).toBe('conflicts');
  });

  it('include a tree the two sides leave broken: a child under a page deleted, or two siblings with one slug', async () => {
    const { admin, space, alpha } = await spaceWithPages();
    const orphan = await openChangeRequest(admin, space.id, [
      { operation: 'insert_page', title: 'Child', into: alpha, document: {} },
    ]);
    const twin = await openChangeRequest(admin, space.id, [
      { operation: 'insert_page', title: 'Twin', slug: 'twin', document: {} },
    ]);
    await api.change(admin, space.id, [
      { operation: 'delete_page', page: alpha },
      { operation: 'insert_page', title: 'Twin', slug: 'twin', document: {} },
    ]);
    const before = await storedState(space.id);
    expect((await updateFromSpace(admin, space.id, orphan)).json().result).toBe('conflicts');
    expect((await updateFromSpace(admin, space.id, twin)).json().result).toBe('conflicts');
    expect(await storedState(space.id)).toEqual(before);
  });

  it('do not arise from changes to different pages, files included', async () => {
    const { admin, space, alpha, beta } = await spaceWithPages();
    const ours = await openChangeRequest(admin, space.id, [
      { operation: 'update_page', page: alpha, title: 'Alpha renamed' },
      {
        operation: 'insert_files',
        files: [{ name: 'ours.txt', contentType: 'text/plain', base64: Buffer.from('ours').toString('base64') }],
      },
    ]);
    await api.change(admin, space.id, [
      { operation: 'update_page', page: beta, title: 'Beta renamed' },
      {
        operation: 'insert_files',
        files: [{ name: 'theirs.txt', contentType: 'text/plain', base64: Buffer.from('theirs').toString('base64') }],
      },
    ]);
    expect((await updateFromSpace(admin, space.id, ours)).json().result).toBe('update');
    const files = await api.read(admin, `/v1/spaces/${space.id}/change-requests/${ours}/content/files`);
    expect(
      files
        .json()
        .items.map((file: { name: string }) => file.name)
        .sort(),
    ).toEqual(['ours.txt', 'theirs.txt']);
    expect(await titles(admin, `/v1/spaces/${space.id}/change-requests/${ours}/content/pages`)).toEqual([
      'Alpha renamed',
      'Beta renamed',
    ]);
  });
});

describe('revision variables', () => {
  it('take each side’s change since the base, and conflict where both changed one name differently', () => {
    const base = { product: 'Acme', version: 1, beta: true };
    expect(rebasedVariables(base, base, { ...base, version: 2 })).toEqual({ ...base, version: 2 });
    expect(rebasedVariables(base, { ...base, product: 'Ours' }, { ...base, version: 2 })).toEqual({
      product: 'Ours',
      version: 2,
      beta: true,
    });
    expect(rebasedVariables(base, { ...base, extra: 'x' }, { product: 'Acme', version: 1 })).toEqual({
      product: 'Acme',
      version: 1,
      extra: 'x',
    });
    expect(rebasedVariables(base, { ...base, version: 3 }, { ...base, version: 3 })).toEqual({ ...base, version: 3 });
    expect(rebasedVariables(base, { ...base, version: 3 }, { ...base, version: 2 })).toBeNull();
    expect(rebasedVariables(base, { product: 'Acme', beta: true }, { ...base, version: 2 })).toBeNull();
  });

  it('carry the space’s newer variables into the change request, and its own into the merge', async () => {
    const { admin, space } = await spaceWithPages();
    // Written straight into the revisions, as a batch of variable changes would have made them.
    const setVariables = (revisionId: string, variables: Record<string, string | number>) =>
      t.db
        .updateTable('revisions')
        .set({ variables: JSON.stringify(variables) })
        .where('id', '=', revisionId)
        .execute();
    await setVariables(await spaceHead(space.id), { product: 'Acme', version: 1 });
    const ours = await openChangeRequest(admin, space.id, [{ operation: 'insert_page', title: 'Mine', document: {} }]);
    const clashing = await openChangeRequest(admin, space.id, [
      { operation: 'insert_page', title: 'Clash', document: {} },
    ]);
    await setVariables((await changeRequestOf(admin, space.id, ours)).revision, {
      product: 'Acme',
      version: 1,
      edition: 'ours',
    });
    await setVariables((await changeRequestOf(admin, space.id, clashing)).revision, { product: 'Acme', version: 3 });
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);
    await setVariables(await spaceHead(space.id), { product: 'Acme', version: 2 });

    const variablesOf = async (revisionId: string) =>
      (await t.db.selectFrom('revisions').select('variables').where('id', '=', revisionId).executeTakeFirstOrThrow())
        .variables;
    const updated = await updateFromSpace(admin, space.id, ours);
    expect(updated.json().result).toBe('update');
    expect(await variablesOf(updated.json().revision)).toEqual({ product: 'Acme', version: 2, edition: 'ours' });
    expect((await updateFromSpace(admin, space.id, clashing)).json().result).toBe('conflicts');
    expect((await api.merge(admin, space.id, clashing)).json().result).toBe('conflicts');

    // A merge keeps what the space changed since the change request's base, as an update does.
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Even later', document: {} }]);
    await setVariables(await spaceHead(space.id), { product: 'Acme', version: 2, channel: 'stable' });
    const merged = await api.merge(admin, space.id, ours);
    expect(merged.json().result).toBe('merge');
    expect(await variablesOf(merged.json().revision)).toEqual({
      product: 'Acme',
      version: 2,
      edition: 'ours',
      channel: 'stable',
    });
  });
});

describe('who may update, and what', () => {
  it('needs the edit role on the space: 403 to readers, reviewers, read-only tokens and on locked spaces', async () => {
    const { admin, member, space } = await spaceWithPages();
    const id = await openChangeRequest(admin, space.id);
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);
    const before = await storedState(space.id);

    const readOnlyToken = await t.factory.token(admin.user.id, { scopes: ['space:read'] });
    for (const account of [member('read'), member('review'), readOnlyToken])
      expect((await updateFromSpace(account, space.id, id)).statusCode).toBe(403);
    expect((await updateFromSpace(member('read'), space.id, id)).json()).toEqual({
      error: { code: 403, message: 'Updating a change request from its space needs the edit role on the space' },
    });
    expect(await storedState(space.id)).toEqual(before);

    const setEditMode = (editMode: 'live' | 'locked') =>
      t.app.inject({ method: 'PATCH', url: `/v1/spaces/${space.id}`, headers: admin.headers, payload: { editMode } });
    await setEditMode('locked');
    const locked = await updateFromSpace(admin, space.id, id);
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error.message).toContain('locked');
    await setEditMode('live');
    const { revisions, entries, changeRequests } = await storedState(space.id);
    expect({ revisions, entries, changeRequests }).toEqual({
      revisions: before.revisions,
      entries: before.entries,
      changeRequests: before.changeRequests,
    });
    // An editor may.
    expect((await updateFromSpace(member('edit'), space.id, id)).json().result).toBe('update');
  });

  it('answers 404 to non-members (even on a public space), guests, and unknown spaces or change requests', async () => {
    const { admin, member, space } = await spaceWithPages('public');
    const id = await openChangeRequest(admin, space.id);
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);
    const other = await api.createSpace(admin, (await spaceOrganization(space.id))!, { title: 'Other' });
    const outsider = await t.factory.account();
    const before = await storedState(space.id);

    const spaceGone = { error: { code: 404, message: 'No space with this id is visible to you' } };
    expect((await updateFromSpace(outsider, space.id, id)).json()).toEqual(spaceGone);
    expect((await updateFromSpace(member(null), space.id, id)).json()).toEqual(spaceGone);
    expect((await updateFromSpace(admin, 'AAAAAAAAAAAAAAAAAAAA', id)).json()).toEqual(spaceGone);
    const unknown = await updateFromSpace(admin, space.id, 'BBBBBBBBBBBBBBBBBBBB');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('No change request with this id or number in the space');
    expect((await updateFromSpace(admin, space.id, '99')).statusCode).toBe(404);
    // A change request is found only in its own space.
    expect((await updateFromSpace(admin, other.id, id)).statusCode).toBe(404);
    expect(await storedState(space.id)).toEqual(before);
  });

  it('answers 409 for a merged or an archived change request, and changes nothing', async () => {
    const { admin, space } = await spaceWithPages();
    const merged = await openChangeRequest(admin, space.id, [{ operation: 'insert_page', title: 'M', document: {} }]);
    expect((await api.merge(admin, space.id, merged)).json().result).toBe('merge');
    const archived = await openChangeRequest(admin, space.id, [{ operation: 'insert_page', title: 'A', document: {} }]);
    expect((await api.patchChangeRequest(admin, space.id, archived, { status: 'archived' })).statusCode).toBe(200);
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);
    const before = await storedState(space.id);

    const onMerged = await updateFromSpace(admin, space.id, merged);
    expect(onMerged.statusCode).toBe(409);
    expect(onMerged.json().error.message).toBe('The change request is merged; its content can no longer change');
    const onArchived = await updateFromSpace(admin, space.id, archived);
    expect(onArchived.statusCode).toBe(409);
    expect(onArchived.json().error.message).toBe(
      'The change request is archived; set its status to open or draft to change it',
    );
    expect(await storedState(space.id)).toEqual(before);

    // Reopened, it updates.
    await api.patchChangeRequest(admin, space.id, archived, { status: 'open' });
    expect((await updateFromSpace(admin, space.id, archived)).json().result).toBe('update');
  });
});

async function spaceOrganization(spaceId: string) {
  return (await t.db.selectFrom('spaces').select('organization_id').where('id', '=', spaceId).executeTakeFirstOrThrow())
    .organization_id;
}

describe('concurrency', () => {
  it('an update racing a merge of the same change request loses nothing, whichever goes first', async () => {
    for (let round = 0; round < 4; round++) {
      const { admin, space, alpha } = await spaceWithPages();
      const ours = await openChangeRequest(admin, space.id, [
        { operation: 'update_page', page: alpha, document: { markdown: 'Alpha, ours.\n' } },
        { operation: 'insert_page', title: 'Ours', document: {} },
      ]);
      await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Theirs', document: {} }]);

      const [update, merge] = await Promise.all([
        updateFromSpace(admin, space.id, ours),
        api.merge(admin, space.id, ours),
      ]);
      expect(merge.json().result, merge.body).toBe('merge');
      // Either the update came first and the merge built on it, or the merge did and the update was refused.
      if (update.statusCode === 200) expect(update.json().result).toBe('update');
      else expect(update.json().error.message).toContain('merged');

      expect(await titles(admin, `/v1/spaces/${space.id}/content/pages`)).toEqual(['Alpha', 'Beta', 'Ours', 'Theirs']);
      expect(await markdownOf(admin, `/v1/spaces/${space.id}/content/page/${alpha}`)).toBe('Alpha, ours.\n');
      expect(await changeRequestOf(admin, space.id, ours)).toMatchObject({ status: 'merged', outdated: false });
    }
  });

  it('an update racing merges of other change requests and edits of its own keeps every write', async () => {
    const { admin, space } = await spaceWithPages();
    const ours = await openChangeRequest(admin, space.id, [
      { operation: 'insert_page', title: 'Ours 0', document: {} },
    ]);
    const others = [];
    for (let i = 0; i < 3; i++)
      others.push(
        await openChangeRequest(admin, space.id, [{ operation: 'insert_page', title: `Theirs ${i}`, document: {} }]),
      );
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Before', document: {} }]);

    const answers = await Promise.all([
      updateFromSpace(admin, space.id, ours),
      ...others.map((other) => api.merge(admin, space.id, other)),
      ...[1, 2, 3].map((i) =>
        api.writeContent(admin, space.id, ours, [{ operation: 'insert_page', title: `Ours ${i}`, document: {} }]),
      ),
      updateFromSpace(admin, space.id, ours),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual(Array(answers.length).fill(200));
    const results = answers.map((res) => res.json().result as string | undefined);
    expect(results.filter((result) => result === 'update')).toHaveLength(2);
    expect(results.filter((result) => result === 'merge')).toHaveLength(3);

    // Every edit is there, on top of whatever the space had when the last update ran.
    const inChangeRequest = await titles(admin, `/v1/spaces/${space.id}/change-requests/${ours}/content/pages`);
    expect(inChangeRequest).toEqual(
      expect.arrayContaining(['Alpha', 'Before', 'Ours 0', 'Ours 1', 'Ours 2', 'Ours 3']),
    );
    // Outdated exactly when some merge came after the last update.
    const seqs = await t.db
      .selectFrom('change_requests as cr')
      .innerJoin('revisions as r', 'r.id', 'cr.revision_id')
      .innerJoin('spaces as s', 's.id', 'cr.space_id')
      .innerJoin('revisions as head', 'head.id', 's.revision_id')
      .select(['r.base_seq', 'head.seq'])
      .where('cr.id', '=', ours)
      .executeTakeFirstOrThrow();
    expect(await outdated(admin, space.id, ours)).toBe(seqs.base_seq! < seqs.seq);
    const theirs = inChangeRequest.filter((title) => title.startsWith('Theirs')).length;
    expect(theirs).toBe(seqs.base_seq! - (seqs.seq - 3));

    // One more update brings in whatever came after, and the merge takes it all.
    expect((await updateFromSpace(admin, space.id, ours)).json().result).toBe('update');
    expect(await outdated(admin, space.id, ours)).toBe(false);
    expect((await api.merge(admin, space.id, ours)).json().result).toBe('merge');
    expect(await titles(admin, `/v1/spaces/${space.id}/content/pages`)).toEqual([
      'Alpha',
      'Before',
      'Beta',
      'Ours 0',
      'Ours 1',
      'Ours 2',
      'Ours 3',
      'Theirs 0',
      'Theirs 1',
      'Theirs 2',
    ]);
  });
});

describe('outdated', () => {
  it('follows every path that moves the space’s revision: merges, imports and updates', async () => {
    const { admin, space, alpha } = await spaceWithPages();
    const ours = await openChangeRequest(admin, space.id);
    const bystander = await openChangeRequest(admin, space.id, [
      { operation: 'insert_page', title: 'Bystander', document: {} },
    ]);
    expect(await outdated(admin, space.id, ours)).toBe(false);

    // Edits of the change request itself leave its base where it was.
    await api.writeContent(admin, space.id, ours, [{ operation: 'insert_page', title: 'Ours', document: {} }]);
    expect(await outdated(admin, space.id, ours)).toBe(false);

    // A merge of another change request.
    await api.change(admin, space.id, [{ operation: 'update_page', page: alpha, title: 'Alpha 2' }]);
    expect(await outdated(admin, space.id, ours)).toBe(true);
    expect(await outdated(admin, space.id, bystander)).toBe(true);

    // An update brings it level; another change request's update moves no space revision.
    expect((await updateFromSpace(admin, space.id, ours)).json().result).toBe('update');
    expect(await outdated(admin, space.id, ours)).toBe(false);
    expect((await updateFromSpace(admin, space.id, bystander)).json().result).toBe('update');
    expect(await outdated(admin, space.id, ours)).toBe(false);

    // An import straight into the space.
    const imported = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/content/import`,
      headers: admin.headers,
      payload: { source: 'markdown', url: markdownUrl },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(await outdated(admin, space.id, ours)).toBe(true);
    // An import into another change request moves nothing of the space.
    expect((await updateFromSpace(admin, space.id, ours)).json().result).toBe('update');
    const intoBystander = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${bystander}/content/import`,
      headers: admin.headers,
      payload: { source: 'markdown', url: markdownUrl },
    });
    expect(intoBystander.statusCode, intoBystander.body).toBe(201);
    expect(await outdated(admin, space.id, ours)).toBe(false);
    expect(await titles(admin, `/v1/spaces/${space.id}/change-requests/${ours}/content/pages`)).toEqual([
      'Alpha 2',
      'Beta',
      'Imported',
      'Ours',
    ]);

    // A conflicting update leaves it behind.
    await api.writeContent(admin, space.id, ours, [{ operation: 'update_page', page: alpha, title: 'Alpha ours' }]);
    await api.change(admin, space.id, [{ operation: 'update_page', page: alpha, title: 'Alpha theirs' }]);
    expect((await updateFromSpace(admin, space.id, ours)).json().result).toBe('conflicts');
    expect(await outdated(admin, space.id, ours)).toBe(true);

    // Lists say the same as reads.
    const listed = await api.listChangeRequests(admin, space.id, { status: 'draft' });
    expectSpecResponse('listChangeRequestsForSpace', 200, listed.json());
    const byId = new Map(
      (listed.json().items as Array<{ id: string; outdated: boolean }>).map((item) => [item.id, item.outdated]),
    );
    expect(byId.get(ours)).toBe(true);
    expect(byId.get(bystander)).toBe(true);
  });

  it('holds for archived change requests too, and never for merged ones', async () => {
    const { admin, space } = await spaceWithPages();
    const archived = await openChangeRequest(admin, space.id, [{ operation: 'insert_page', title: 'A', document: {} }]);
    await api.patchChangeRequest(admin, space.id, archived, { status: 'archived' });
    const merged = await openChangeRequest(admin, space.id, [{ operation: 'insert_page', title: 'M', document: {} }]);
    expect(await outdated(admin, space.id, archived)).toBe(false);

    expect((await api.merge(admin, space.id, merged)).json().result).toBe('merge');
    expect(await outdated(admin, space.id, archived)).toBe(true);
    // A merged change request is in the space; there is nothing to bring up to date.
    expect(await outdated(admin, space.id, merged)).toBe(false);
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);
    expect(await outdated(admin, space.id, merged)).toBe(false);
  });
});

describe('the official client', () => {
  it('updates a change request, and reports refusals as errors with their status', async () => {
    const { admin, space, alpha } = await spaceWithPages();
    const client = officialClient(await listen(t.app), admin.token);
    const created = await client.spaces.createChangeRequest(space.id, { subject: 'Through the client' });
    await api.writeContent(admin, space.id, created.data.id, [
      { operation: 'update_page', page: alpha, title: 'Ours' },
    ]);
    await api.change(admin, space.id, [{ operation: 'insert_page', title: 'Later', document: {} }]);
    expect((await client.spaces.getChangeRequestById(space.id, created.data.id)).data.outdated).toBe(true);

    const updated = await client.spaces.updateChangeRequest(space.id, created.data.id);
    expect(updated.status).toBe(200);
    expect(updated.data.result).toBe('update');
    const read = await client.spaces.getChangeRequestById(space.id, created.data.id);
    expect(read.data).toMatchObject({ revision: updated.data.revision, outdated: false });

    await api.change(admin, space.id, [{ operation: 'update_page', page: alpha, title: 'Theirs' }]);
    const conflict = await client.spaces.updateChangeRequest(space.id, created.data.id);
    expect(conflict.data).toEqual({ result: 'conflicts', revision: updated.data.revision });

    await client.spaces.updateChangeRequestById(space.id, created.data.id, { status: 'archived' });
    const refused = await client.spaces.updateChangeRequest(space.id, created.data.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GitBookAPIError);
    expect((refused as GitBookAPIError).code).toBe(409);
  });
});
