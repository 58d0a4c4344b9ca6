import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncProcessor } from '../src/git-sync/processor.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { startGitServer, type GitServer } from './support/git-server.js';

const t = useTestApp();
const api = contentApi(() => t.app);

let git: GitServer;
beforeAll(async () => {
  git = await startGitServer({ auth: { username: 'bot', password: 'git-token-1' } });
});
afterAll(async () => {
  await git.close();
});

/** The repository's URL with the credentials the server asks for. */
const withToken = (name: string, token = 'git-token-1') => git.url(name).replace('http://', `http://bot:${token}@`);

const REPOSITORY = {
  'SUMMARY.md':
    '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
  'README.md': '# Welcome\n\nStart with the [guide](guide/).\n',
  'guide/README.md': '# Guide\n\nRead [setup](setup.md).\n',
  'guide/setup.md': '---\ndescription: Install it.\n---\n\n# Setup\n\nRun the installer.\n',
  'package.json': '{ "name": "product" }\n',
  // Not in SUMMARY.md: no page, as in GitBook; an export leaves it where it is.
  'CONTRIBUTING.md': '# Contributing\n',
};

const post = (account: Account, spaceId: string, direction: 'import' | 'export', body: object) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/git/${direction}`,
    headers: account.headers,
    payload: body,
  });

async function operations(spaceId: string) {
  return t.db
    .selectFrom('git_sync_operations')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Runs every queued operation, as the worker of an instance would. */
async function runAll(): Promise<void> {
  const processor = createGitSyncProcessor(t.app.context);
  while (await processor.runNext());
}

async function pageTitles(account: Account, spaceId: string) {
  const pages = (await api.read(account, `/v1/spaces/${spaceId}/content/pages`)).json().pages as Array<{
    title: string;
    pages?: Array<{ title: string }>;
  }>;
  return pages.map((page) => [page.title, (page.pages ?? []).map((child) => child.title)]);
}

async function remoteFiles(name: string): Promise<Record<string, string>> {
  const listing = await git.git(name, ['ls-tree', '-r', '--name-only', '-z', 'refs/heads/main']);
  const files: Record<string, string> = {};
  for (const file of listing.split('\0').filter(Boolean))
    files[file] = await git.git(name, ['show', `refs/heads/main:${file}`]);
  return files;
}

describe('importing a Git repository', () => {
  it('queues it, then makes the branch’s content the space’s through a merged change request', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    await git.create('import-docs');
    const tip = await git.commit('import-docs', 'main', REPOSITORY);

    const queued = await post(admin, space.id, 'import', { url: withToken('import-docs'), ref: 'refs/heads/main' });
    expect(queued.statusCode, queued.body).toBe(204);
    expect(queued.body).toBe('');
    const [waiting] = await operations(space.id);
    expect(waiting).toMatchObject({ state: 'queued', direction: 'import', url: git.url('import-docs') });
    // The token is kept sealed: neither the URL nor the sealed value holds it.
    expect(waiting!.authorization_sealed).toEqual(expect.any(String));
    expect(JSON.stringify(waiting)).not.toContain('git-token-1');
    expect(JSON.stringify(waiting)).not.toContain(Buffer.from('bot:git-token-1').toString('base64'));

    await runAll();
    const [done] = await operations(space.id);
    expect(done).toMatchObject({ state: 'success', error: null, commit_sha: tip, authorization_sealed: null });
    expect(await pageTitles(admin, space.id)).toEqual([
      ['Welcome', []],
      ['Guide', ['Setup']],
    ]);
    const changeRequest = (
      await api.read(admin, `/v1/spaces/${space.id}/change-requests/${done!.change_request_id}`)
    ).json();
    expect(changeRequest).toMatchObject({
      status: 'merged',
      subject: `Import main at ${tip.slice(0, 7)} from ${git.url('import-docs')}`,
    });
    const setup = (
      await api.read(admin, `/v1/spaces/${space.id}/content/path/guide/setup`, { format: 'markdown' })
    ).json();
    expect(setup).toMatchObject({ title: 'Setup', description: 'Install it.' });
  });

  it('imports a tip the space already matches only when forced, and a new tip as the space’s next content', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    await git.create('reimport');
    await git.commit('reimport', 'main', REPOSITORY);
    const body = { url: withToken('reimport'), ref: 'refs/heads/main' };
    expect((await post(admin, space.id, 'import', body)).statusCode).toBe(204);
    await runAll();
    expect((await post(admin, space.id, 'import', body)).statusCode).toBe(204);
    await runAll();
    const again = (await operations(space.id))[1]!;
    expect(again).toMatchObject({ state: 'success', change_request_id: null });

    const next = await git.commit('reimport', 'main', {
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Changelog](changelog.md)\n',
      'README.md': REPOSITORY['README.md'],
      'changelog.md': '# Changelog\n\nVersion 2.\n',
    });
    expect((await post(admin, space.id, 'import', body)).statusCode).toBe(204);
    await runAll();
    expect((await operations(space.id))[2]).toMatchObject({ state: 'success', commit_sha: next });
    expect(await pageTitles(admin, space.id)).toEqual([
      ['Welcome', []],
      ['Changelog', []],
    ]);
  });

  it('fails with the reason when the remote refuses, has no such repository or no such branch', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    await git.create('failing');
    await git.commit('failing', 'main', REPOSITORY);
    for (const body of [
      { url: withToken('failing', 'wrong-token'), ref: 'refs/heads/main' },
      { url: withToken('nowhere'), ref: 'refs/heads/main' },
      { url: withToken('failing'), ref: 'refs/heads/absent' },
    ])
      expect((await post(admin, space.id, 'import', body)).statusCode).toBe(204);
    await runAll();
    expect((await operations(space.id)).map((operation) => [operation.state, operation.error])).toEqual([
      ['failure', `The Git server at ${new URL(git.url('x')).origin}/ refused the credentials (HTTP 401)`],
      ['failure', `The Git server at ${new URL(git.url('x')).origin}/ has no repository at this URL`],
      ['failure', 'The repository has no branch absent'],
    ]);
    expect(await pageTitles(admin, space.id)).toEqual([]);
  });

  it('is refused to a reader, hidden from a non-member, and refused for a ref or URL Git cannot take; nothing is queued', async () => {
    const team = await t.factory.team(['read']);
    const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
    const stranger = await t.factory.account();
    const body = { url: withToken('import-docs'), ref: 'refs/heads/main' };
    expect((await post(team.member('read'), space.id, 'import', body)).statusCode).toBe(403);
    expect((await post(stranger, space.id, 'import', body)).statusCode).toBe(404);
    for (const bad of [
      { url: 'ssh://git@example.com/docs.git', ref: 'refs/heads/main' },
      { url: withToken('import-docs'), ref: 'refs/heads/a..b' },
      { url: withToken('import-docs'), ref: 'refs/heads/main', repoProjectDirectory: '../outside' },
      { url: withToken('import-docs'), ref: 'refs/heads/main', unknown: true },
      { ref: 'refs/heads/main' },
    ]) {
      const refused = await post(team.admin, space.id, 'import', bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const exportWithoutMessage = await post(team.admin, space.id, 'export', body);
    expect(exportWithoutMessage.statusCode).toBe(400);
    expect(await operations(space.id)).toEqual([]);
  });
});

describe('exporting to a Git repository', () => {
  it('commits the space’s content on top of the commit it synced with, as its caller, keeping the repository’s own files', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    await git.create('export-docs');
    const imported = await git.commit('export-docs', 'main', REPOSITORY);
    const remote = { url: withToken('export-docs'), ref: 'refs/heads/main' };
    expect((await post(admin, space.id, 'import', remote)).statusCode).toBe(204);
    await runAll();

    const pages = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages as Array<{
      id: string;
      pages: Array<{ id: string }>;
    }>;
    await api.change(admin, space.id, [
      { operation: 'update_page', page: pages[0]!.id, document: { markdown: 'Welcome, edited in the space.\n' } },
      { operation: 'delete_page', page: pages[1]!.pages[0]!.id },
    ]);
    const exported = await post(admin, space.id, 'export', { ...remote, commitMessage: 'Edit the welcome page' });
    expect(exported.statusCode, exported.body).toBe(204);
    await runAll();

    const operation = (await operations(space.id))[1]!;
    expect(operation).toMatchObject({ direction: 'export', state: 'success', error: null });
    expect(await git.git('export-docs', ['rev-parse', 'main'])).toBe(`${operation.commit_sha}\n`);
    expect(await git.git('export-docs', ['rev-parse', 'main^'])).toBe(`${imported}\n`);
    expect(await git.git('export-docs', ['log', '-1', '--format=%an <%ae>|%s', 'main'])).toBe(
      `${admin.user.display_name} <${admin.user.email}>|Edit the welcome page\n`,
    );
    const files = await remoteFiles('export-docs');
    expect(files['README.md']).toBe('# Welcome\n\nWelcome, edited in the space.\n');
    expect(files['package.json']).toBe(REPOSITORY['package.json']);
    expect(files['CONTRIBUTING.md']).toBe(REPOSITORY['CONTRIBUTING.md']);
    // Gone from the space, gone from the branch; its folder's page stays, now without subpages.
    expect(files['guide/setup.md']).toBeUndefined();
    expect(Object.keys(files).sort()).toEqual(
      ['CONTRIBUTING.md', 'README.md', 'SUMMARY.md', 'guide.md', 'package.json'].sort(),
    );
  });

  it('is not run for a caller who can no longer edit the space when its turn comes', async () => {
    const team = await t.factory.team(['edit']);
    const editor = team.member('edit');
    const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
    await git.create('demoted');
    const remote = { url: withToken('demoted'), ref: 'refs/heads/main', commitMessage: 'From the space' };
    expect((await post(editor, space.id, 'export', remote)).statusCode).toBe(204);
    await t.db
      .updateTable('organization_members')
      .set({ role: 'read' })
      .where('organization_id', '=', team.organization.id)
      .where('user_id', '=', editor.user.id)
      .execute();
    await runAll();
    expect((await operations(space.id))[0]).toMatchObject({
      state: 'failure',
      error: 'Exporting to a Git repository needs the edit role on the space',
    });
    expect(await git.git('demoted', ['for-each-ref'])).toBe('');
  });

  it('never writes over a branch it never synced with, unless forced, and then only on top of it', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    await git.create('moved');
    await git.commit('moved', 'main', REPOSITORY);
    const remote = { url: withToken('moved'), ref: 'refs/heads/main', commitMessage: 'From the space' };

    // Never synced: the branch has commits of its own.
    const first = await post(admin, space.id, 'export', remote);
    expect(first.statusCode, first.body).toBe(204);
    await runAll();
    expect((await operations(space.id))[0]).toMatchObject({
      state: 'failure',
      error:
        'The branch main already has commits and the space never synced with it: import it first, or export with force',
    });

    expect(await git.git('moved', ['rev-list', '--count', 'main'])).toBe('1\n');
    expect((await post(admin, space.id, 'import', { url: remote.url, ref: remote.ref })).statusCode).toBe(204);
    await runAll();

    // Forced, into a branch it never synced with: a commit on top, never a force-push.
    await git.create('forced');
    const before = await git.commit('forced', 'main', { 'notes.txt': 'keep me\n', 'old.md': '# Old\n' });
    expect(
      (await post(admin, space.id, 'export', { ...remote, url: withToken('forced'), force: true })).statusCode,
    ).toBe(204);
    await runAll();
    expect((await operations(space.id))[2]).toMatchObject({ state: 'success' });
    expect(await git.git('forced', ['rev-parse', 'main^'])).toBe(`${before}\n`);
    const files = await remoteFiles('forced');
    expect(files['notes.txt']).toBe('keep me\n');
    expect(files['old.md']).toBeUndefined();
    expect(files['README.md']).toContain('# Welcome');
  });
});
