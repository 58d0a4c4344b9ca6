import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncProcessor } from '../src/git-sync/processor.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { startGitServer, type GitServer } from './support/git-server.js';

/**
 * Git Sync never loses a change: an import writes only what Git changed since
 * the last sync, on the revision of that sync, so that the space's own edits
 * meanwhile stay, and a page both sides changed is a change request left
 * open; an export over a branch that moved brings Git's commits in first.
 */
const t = useTestApp();
const api = contentApi(() => t.app);

let git: GitServer;
beforeAll(async () => {
  git = await startGitServer({ auth: { username: 'bot', password: 'merge-token' } });
});
afterAll(async () => {
  await git.close();
});

const remoteOf = (name: string) => ({
  url: git.url(name).replace('http://', 'http://bot:merge-token@'),
  ref: 'refs/heads/main',
});

const SUMMARY = [
  '# Table of contents',
  '',
  '* [Welcome](README.md)',
  '* [Guide](guide/README.md)',
  '  * [Setup](guide/setup.md)',
  '  * [Usage](guide/usage.md)',
  '',
  '## Reference',
  '',
  '* [API](reference/api.md)',
  '* [Status](https://status.example.com)',
  '',
].join('\n');

const REPOSITORY: Record<string, string> = {
  'SUMMARY.md': SUMMARY,
  'README.md': '# Welcome\n\nStart with the [guide](guide/).\n',
  'guide/README.md': '# Guide\n\nRead [setup](setup.md).\n',
  'guide/setup.md': '# Setup\n\nRun the installer.\n',
  // Written as no writer of the format writes it (`+` bullets): the space's own form of it differs, though the page is the same.
  'guide/usage.md': '# Usage\n\n+ Call it.\n+ Then *check* it.\n',
  'reference/api.md': '# API\n\nThe endpoints.\n',
};

async function sync(
  account: Account,
  spaceId: string,
  direction: 'import' | 'export',
  name: string,
  extra: Record<string, unknown> = {},
) {
  const body = {
    ...remoteOf(name),
    ...(direction === 'export' ? { commitMessage: 'From the space' } : {}),
    ...extra,
  };
  const queued = await t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/git/${direction}`,
    headers: account.headers,
    payload: body,
  });
  expect(queued.statusCode, queued.body).toBe(204);
  const processor = createGitSyncProcessor(t.app.context);
  while (await processor.runNext());
  return t.db
    .selectFrom('git_sync_operations')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

interface Listed {
  id: string;
  title: string;
  type: string;
  pages?: Listed[];
}

/** Every page of the space by title, with its id and its parent's title, in order. */
async function pagesOf(account: Account, spaceId: string) {
  const listed = (await api.read(account, `/v1/spaces/${spaceId}/content/pages`)).json().pages as Listed[];
  const flat: Array<{ title: string; id: string; parent: string | null }> = [];
  const visit = (pages: Listed[], parent: string | null) => {
    for (const page of pages) {
      flat.push({ title: page.title, id: page.id, parent });
      visit(page.pages ?? [], page.title);
    }
  };
  visit(listed, null);
  return flat;
}

const idsByTitle = async (account: Account, spaceId: string) =>
  new Map((await pagesOf(account, spaceId)).map((page) => [page.title, page.id]));

async function markdownOf(account: Account, spaceId: string, pageId: string): Promise<string> {
  const page = (
    await api.read(account, `/v1/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' })
  ).json() as { markdown: string };
  return page.markdown;
}

async function started(name: string) {
  const { admin, organization } = await t.factory.team();
  const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
  await git.create(name);
  await git.commit(name, 'main', REPOSITORY);
  expect(await sync(admin, space.id, 'import', name)).toMatchObject({ state: 'success' });
  return { admin, organization, space, ids: await idsByTitle(admin, space.id) };
}

describe('an import after the first', () => {
  it('rewrites only the pages Git changed, keeping every page’s id and the space’s own edits of other pages', async () => {
    const { admin, space, ids } = await started('merge-clean');
    await api.change(admin, space.id, [
      { operation: 'update_page', page: ids.get('Usage')!, document: { markdown: 'Call it, edited in the space.\n' } },
    ]);
    const tip = await git.commit('merge-clean', 'main', {
      ...REPOSITORY,
      'guide/setup.md': '# Setup\n\nRun the new installer.\n',
    });

    const operation = await sync(admin, space.id, 'import', 'merge-clean');
    expect(operation).toMatchObject({ state: 'success', error: null, commit_sha: tip });
    expect(await idsByTitle(admin, space.id)).toEqual(ids);
    expect(await markdownOf(admin, space.id, ids.get('Setup')!)).toContain('Run the new installer.');
    expect(await markdownOf(admin, space.id, ids.get('Usage')!)).toContain('Call it, edited in the space.');

    // The change request holds Setup alone: no other page is among its own changes.
    const own = await t.db
      .selectFrom('tree_entries')
      .select(['kind', 'item_id'])
      .where('change_request_id', '=', operation.change_request_id)
      .where('to_seq', 'is', null)
      .execute();
    expect(own).toEqual([{ kind: 'page', item_id: ids.get('Setup') }]);
  });

  it('places, moves and deletes as the new table of contents says, keeping the ids of the pages that stay', async () => {
    const { admin, space, ids } = await started('merge-structure');
    await git.commit('merge-structure', 'main', {
      'SUMMARY.md': [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '* [Changelog](changelog.md)',
        '* [Guide](guide/README.md)',
        '  * [Usage](guide/usage.md)',
        '  * [Setup](guide/setup.md)',
        '  * [API](reference/api.md)',
        '',
        '## Reference',
        '',
        '* [Status](https://status.example.com)',
        '* [Setup again](guide/setup.md)',
        '',
      ].join('\n'),
      'README.md': REPOSITORY['README.md']!,
      'changelog.md': '# Changelog\n\nVersion 2.\n',
      'guide/README.md': REPOSITORY['guide/README.md']!,
      'guide/setup.md': REPOSITORY['guide/setup.md']!,
      'guide/usage.md': REPOSITORY['guide/usage.md']!,
      'reference/api.md': REPOSITORY['reference/api.md']!,
    });
    expect(await sync(admin, space.id, 'import', 'merge-structure')).toMatchObject({ state: 'success' });
    const pages = await pagesOf(admin, space.id);
    expect(pages.map(({ title, parent }) => [title, parent])).toEqual([
      ['Welcome', null],
      ['Changelog', null],
      ['Guide', null],
      ['Usage', 'Guide'],
      ['Setup', 'Guide'],
      ['API', 'Guide'],
      ['Reference', null],
      ['Status', 'Reference'],
      ['Setup again', 'Reference'],
    ]);
    const now = new Map(pages.map((page) => [page.title, page.id]));
    for (const title of ['Welcome', 'Guide', 'Usage', 'Setup', 'API', 'Reference', 'Status'])
      expect(now.get(title), title).toBe(ids.get(title));
    expect(ids.has('Changelog')).toBe(false);
  });

  it('leaves a change both sides made to one page in an open change request, writing nothing over the space', async () => {
    const { admin, space, ids } = await started('merge-conflict');
    await api.change(admin, space.id, [
      { operation: 'update_page', page: ids.get('Setup')!, document: { markdown: 'Setup, as the space says.\n' } },
    ]);
    await git.commit('merge-conflict', 'main', {
      ...REPOSITORY,
      'guide/setup.md': '# Setup\n\nSetup, as Git says.\n',
      'guide/usage.md': '# Usage\n\nUsage, as Git says.\n',
    });
    const spaceBefore = (await api.read(admin, `/v1/spaces/${space.id}`)).json() as { revision: string };

    const operation = await sync(admin, space.id, 'import', 'merge-conflict');
    expect(operation.state).toBe('failure');
    expect(operation.error).toMatch(
      /^The import conflicts with changes made in the space meanwhile; change request #\d+ holds it, open$/,
    );
    expect(((await api.read(admin, `/v1/spaces/${space.id}`)).json() as { revision: string }).revision).toBe(
      spaceBefore.revision,
    );
    expect(await markdownOf(admin, space.id, ids.get('Setup')!)).toContain('Setup, as the space says.');
    expect(await markdownOf(admin, space.id, ids.get('Usage')!)).toContain('Call it.');

    // Git's side is whole in the open change request.
    const number = Number(/#(\d+)/.exec(operation.error!)![1]);
    const changeRequest = (await api.read(admin, `/v1/spaces/${space.id}/change-requests/${number}`)).json() as {
      id: string;
      status: string;
    };
    expect(changeRequest.status).toBe('draft');
    const inRequest = (
      await api.read(
        admin,
        `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/page/${ids.get('Setup')}`,
        {
          format: 'markdown',
        },
      )
    ).json() as { markdown: string };
    expect(inRequest.markdown).toContain('Setup, as Git says.');
    // The link keeps the state of the failed sync: a later import compares with the same base, not the space's now.
    const link = await t.db
      .selectFrom('git_sync_links')
      .select(['commit_sha', 'revision_id'])
      .where('space_id', '=', space.id)
      .executeTakeFirstOrThrow();
    expect(link.revision_id).not.toBe(spaceBefore.revision);
  });
});

describe('a standalone import', () => {
  it('shows what the import would change in a change request left open, the space and the next import untouched', async () => {
    const { admin, space, ids } = await started('merge-standalone');
    await git.commit('merge-standalone', 'main', {
      ...REPOSITORY,
      'guide/setup.md': '# Setup\n\nRun the new installer.\n',
    });
    const before = (await api.read(admin, `/v1/spaces/${space.id}`)).json() as { revision: string };

    const looked = await sync(admin, space.id, 'import', 'merge-standalone', { standalone: true });
    expect(looked).toMatchObject({ state: 'success', standalone: true, change_request_id: expect.any(String) });
    const changeRequest = (
      await api.read(admin, `/v1/spaces/${space.id}/change-requests/${looked.change_request_id}`)
    ).json() as { status: string; subject: string };
    expect(changeRequest.status).toBe('draft');
    expect(changeRequest.subject).toMatch(/^What importing main at [0-9a-f]{7} from .* would change$/);
    const own = await t.db
      .selectFrom('tree_entries')
      .select(['kind', 'item_id'])
      .where('change_request_id', '=', looked.change_request_id)
      .where('to_seq', 'is', null)
      .execute();
    expect(own).toEqual([{ kind: 'page', item_id: ids.get('Setup') }]);
    expect(((await api.read(admin, `/v1/spaces/${space.id}`)).json() as { revision: string }).revision).toBe(
      before.revision,
    );

    // The real import after it still finds the branch ahead of the space.
    const imported = await sync(admin, space.id, 'import', 'merge-standalone');
    expect(imported).toMatchObject({ state: 'success', standalone: false });
    expect(imported.change_request_id).not.toBe(looked.change_request_id);
    expect(await markdownOf(admin, space.id, ids.get('Setup')!)).toContain('Run the new installer.');
  });
});

describe('an import that conflicted', () => {
  it('is written into by the next import rather than opening another, and settled when its change request is archived', async () => {
    const { admin, space, ids } = await started('merge-pending');
    await api.change(admin, space.id, [
      { operation: 'update_page', page: ids.get('Setup')!, document: { markdown: 'Setup, as the space says.\n' } },
    ]);
    await git.commit('merge-pending', 'main', { ...REPOSITORY, 'guide/setup.md': '# Setup\n\nSetup, as Git says.\n' });
    const first = await sync(admin, space.id, 'import', 'merge-pending');
    expect(first.state).toBe('failure');
    const number = /#(\d+)/.exec(first.error!)![1];

    // Git moves on: the same change request takes it, and still holds the conflict.
    const tip = await git.commit('merge-pending', 'main', {
      ...REPOSITORY,
      'guide/setup.md': '# Setup\n\nSetup, as Git says.\n',
      'guide/usage.md': '# Usage\n\nUsage, as Git says now.\n',
    });
    const second = await sync(admin, space.id, 'import', 'merge-pending');
    expect(second.state).toBe('failure');
    expect(second.error).toContain(`change request #${number} holds it`);
    const requests = (await api.read(admin, `/v1/spaces/${space.id}/change-requests`, { status: 'draft' })).json() as {
      items: Array<{ id: string; number: number }>;
    };
    expect(requests.items.map((request) => request.number)).toEqual([Number(number)]);
    const usage = (
      await api.read(
        admin,
        `/v1/spaces/${space.id}/change-requests/${requests.items[0]!.id}/content/page/${ids.get('Usage')}`,
        { format: 'markdown' },
      )
    ).json() as { markdown: string };
    expect(usage.markdown).toContain('Usage, as Git says now.');

    // Archived: the space keeps its side; it has seen that commit, and its next export goes on top of it.
    const archived = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}/change-requests/${requests.items[0]!.id}`,
      headers: admin.headers,
      payload: { status: 'archived' },
    });
    expect(archived.statusCode, archived.body).toBe(200);
    const settled = await sync(admin, space.id, 'import', 'merge-pending');
    expect(settled).toMatchObject({
      state: 'success',
      change_request_id: null,
    });
    expect(await markdownOf(admin, space.id, ids.get('Setup')!)).toContain('Setup, as the space says.');
    const exported = await sync(admin, space.id, 'export', 'merge-pending');
    expect(exported).toMatchObject({ state: 'success' });
    expect(await git.git('merge-pending', ['rev-parse', 'main^'])).toBe(`${tip}\n`);
    expect(await git.git('merge-pending', ['show', 'main:guide/setup.md'])).toContain('Setup, as the space says.');
  });
});

describe('an export to a branch that moved since the last sync', () => {
  it('brings Git’s commits into the space first, then commits the space’s content on top of them', async () => {
    const { admin, space, ids } = await started('export-moved');
    await api.change(admin, space.id, [
      { operation: 'update_page', page: ids.get('Usage')!, document: { markdown: 'Usage, from the space.\n' } },
    ]);
    const theirs = await git.commit('export-moved', 'main', {
      ...REPOSITORY,
      'README.md': '# Welcome\n\nWelcome, from Git.\n',
    });

    const operation = await sync(admin, space.id, 'export', 'export-moved');
    expect(operation).toMatchObject({ state: 'success', error: null });
    expect(await git.git('export-moved', ['rev-parse', 'main^'])).toBe(`${theirs}\n`);
    expect(await git.git('export-moved', ['show', 'main:README.md'])).toContain('Welcome, from Git.');
    expect(await git.git('export-moved', ['show', 'main:guide/usage.md'])).toContain('Usage, from the space.');
    expect(await markdownOf(admin, space.id, ids.get('Welcome')!)).toContain('Welcome, from Git.');
    expect(await idsByTitle(admin, space.id)).toEqual(ids);
  });

  it('leaves the branch as it is when both sides changed a page, Git’s side in an open change request', async () => {
    const { admin, space, ids } = await started('export-conflict');
    await api.change(admin, space.id, [
      { operation: 'update_page', page: ids.get('Welcome')!, document: { markdown: 'Welcome, from the space.\n' } },
    ]);
    const theirs = await git.commit('export-conflict', 'main', {
      ...REPOSITORY,
      'README.md': '# Welcome\n\nWelcome, from Git.\n',
    });

    const operation = await sync(admin, space.id, 'export', 'export-conflict');
    expect(operation.state).toBe('failure');
    expect(operation.error).toMatch(
      /^The branch main moved to [0-9a-f]{7} since the last sync, with changes to pages the space changed too: .*change request #\d+ holds it, open\. Merge it, then export again$/,
    );
    expect(await git.git('export-conflict', ['rev-parse', 'main'])).toBe(`${theirs}\n`);
    expect(await markdownOf(admin, space.id, ids.get('Welcome')!)).toContain('Welcome, from the space.');
  });
});

describe('a space with a Git Sync installation', () => {
  /** Opens a change request with `subject`, writes `changes`, merges it. */
  async function merge(account: Account, spaceId: string, subject: string, changes: unknown[]) {
    const created = await api.createChangeRequest(account, spaceId, { subject });
    const id = created.json().id as string;
    expect((await api.writeContent(account, spaceId, id, changes)).statusCode).toBe(200);
    expect((await api.merge(account, spaceId, id)).json()).toMatchObject({ result: 'merge' });
    return created.json() as { id: string; number: number };
  }

  const exportsOf = (spaceId: string) =>
    t.db
      .selectFrom('git_sync_operations')
      .select(['direction', 'state', 'revision_id', 'commit_message', 'requested_by'])
      .where('space_id', '=', spaceId)
      .where('direction', '=', 'export')
      .orderBy('created_at')
      .execute();

  it('makes each merge one commit on its branch, by who merged, with the change request’s subject and address', async () => {
    const { admin, organization, space, ids } = await started('merge-installed');
    const installed = await t.app.inject({
      method: 'POST',
      url: '/v1/git/installations',
      headers: admin.headers,
      payload: { provider: 'git', target: { type: 'space', spaceId: space.id } },
    });
    expect(installed.statusCode, installed.body).toBe(201);
    const configured = await t.app.inject({
      method: 'PATCH',
      url: `/v1/git/installations/${installed.json().id}`,
      headers: admin.headers,
      payload: {
        provider: 'git',
        providerConfiguration: {
          url: git.url('merge-installed'),
          branch: 'refs/heads/main',
          username: 'bot',
          accessToken: 'merge-token',
        },
      },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    await sync(admin, space.id, 'import', 'merge-installed');
    const before = await exportsOf(space.id);

    const first = await merge(admin, space.id, 'Fix the setup', [
      { operation: 'update_page', page: ids.get('Setup')!, document: { markdown: 'Run the fixed installer.\n' } },
    ]);
    const second = await merge(admin, space.id, 'Add usage notes', [
      { operation: 'update_page', page: ids.get('Usage')!, document: { markdown: 'Usage, with notes.\n' } },
    ]);
    const queued = (await exportsOf(space.id)).slice(before.length);
    const address = (number: number) =>
      t.app.context.urls.app('o', organization.id, 's', space.id, 'change-requests', String(number));
    expect(queued).toEqual([
      {
        direction: 'export',
        state: 'queued',
        revision_id: expect.any(String),
        commit_message: `Fix the setup\n\n${address(first.number)}\n`,
        requested_by: admin.user.id,
      },
      {
        direction: 'export',
        state: 'queued',
        revision_id: expect.any(String),
        commit_message: `Add usage notes\n\n${address(second.number)}\n`,
        requested_by: admin.user.id,
      },
    ]);

    const processor = createGitSyncProcessor(t.app.context);
    while (await processor.runNext());
    expect(await git.git('merge-installed', ['log', '-2', '--format=%an|%s', 'main'])).toBe(
      `${admin.user.display_name}|Add usage notes\n${admin.user.display_name}|Fix the setup\n`,
    );
    // The first merge's commit holds its own change and not yet the second's.
    expect(await git.git('merge-installed', ['show', 'main~1:guide/setup.md'])).toContain('Run the fixed installer.');
    expect(await git.git('merge-installed', ['show', 'main~1:guide/usage.md'])).not.toContain('with notes');
    expect(await git.git('merge-installed', ['show', 'main:guide/usage.md'])).toContain('Usage, with notes.');

    // What Git Sync merges from Git goes back to no one.
    const exportsNow = (await exportsOf(space.id)).length;
    await git.commit('merge-installed', 'main', {
      ...REPOSITORY,
      'guide/setup.md': '# Setup\n\nRun the fixed installer.\n',
      'guide/usage.md': '# Usage\n\nUsage, with notes.\n',
      'reference/api.md': '# API\n\nThe endpoints, from Git.\n',
    });
    expect(await sync(admin, space.id, 'import', 'merge-installed')).toMatchObject({ state: 'success' });
    expect(await exportsOf(space.id)).toHaveLength(exportsNow);
  });
});
