import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncProcessor } from '../src/git-sync/processor.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { contentApi, flatten } from './support/content.js';
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

const withToken = (name: string) => git.url(name).replace('http://', 'http://bot:git-token-1@');

const CONFIG =
  'redirects:\n  old-setup: guide/setup.md\n  /help/: README.md\n  ghost: missing.md\n  intro: guide/README.md\n';
const REPOSITORY = {
  '.gitbook.yaml': CONFIG,
  'SUMMARY.md':
    '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n* [Intro](intro.md)\n',
  'README.md': '# Welcome\n\nHello.\n',
  'guide/README.md': '# Guide\n\nThe guide.\n',
  'guide/setup.md': '# Setup\n\nRun the installer.\n',
  'intro.md': '# Intro\n\nA page of its own.\n',
};

const call = (account: Account, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
const visit = (url: string) => t.app.inject({ method: 'GET', url });

/** Runs every queued operation, as the worker of an instance would. */
async function runAll(): Promise<void> {
  const processor = createGitSyncProcessor(t.app.context);
  while (await processor.runNext());
}

async function gitSync(account: Account, spaceId: string, direction: 'import' | 'export', repository: string) {
  const remote = { url: withToken(repository), ref: 'refs/heads/main' };
  const body = direction === 'export' ? { ...remote, commitMessage: 'From the space' } : remote;
  const queued = await call(account, 'POST', `/v1/spaces/${spaceId}/git/${direction}`, body);
  expect(queued.statusCode, queued.body).toBe(204);
  await runAll();
  const [operation] = await t.db
    .selectFrom('git_sync_operations')
    .select(['state', 'error'])
    .where('space_id', '=', spaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  expect(operation).toEqual({ state: 'success', error: null });
}

/** A site publishing the space; `at(path)` is the reader's address of a path in it, `now(path)` a page's. */
async function publish(account: Account, organizationId: string, spaceId: string) {
  const created = await call(account, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = (created.json() as { id: string }).id;
  const added = await call(account, 'POST', `/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`, { spaceId });
  expect(added.statusCode, added.body).toBe(201);
  expect((await call(account, 'POST', `/v1/orgs/${organizationId}/sites/${siteId}/publish`)).statusCode).toBe(200);
  const siteSpacePath = (added.json() as { path: string }).path;
  return {
    at: (path: string) => `/s/${siteId}/${path}`,
    now: (path: string) => `${PUBLIC_URL}/s/${siteId}/${siteSpacePath}/${path}`,
  };
}

const storedRedirects = (spaceId: string) =>
  t.db
    .selectFrom('space_git_redirects')
    .select(['source', 'target'])
    .where('space_id', '=', spaceId)
    .orderBy('position')
    .execute();

async function pagePaths(account: Account, spaceId: string) {
  const pages = (await api.read(account, `/v1/spaces/${spaceId}/content/pages`)).json().pages;
  return new Map(flatten(pages).map((page) => [page.title, { id: page.id, path: page.path }]));
}

async function remoteConfig(repository: string): Promise<string> {
  return git.git(repository, ['show', 'refs/heads/main:.gitbook.yaml']);
}

describe('the redirects of .gitbook.yaml', () => {
  it('are kept from an import and answered by every site publishing the space, never over a page', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Product docs' });
    await git.create('redirects-import');
    await git.commit('redirects-import', 'main', REPOSITORY);
    await gitSync(admin, space.id, 'import', 'redirects-import');

    // The redirect to a file the repository lacks was left out when read; `/help/` reads as `help`.
    expect(await storedRedirects(space.id)).toEqual([
      { source: 'old-setup', target: 'guide/setup.md' },
      { source: 'help', target: 'README.md' },
      { source: 'intro', target: 'guide/README.md' },
    ]);
    const paths = await pagePaths(admin, space.id);
    for (const site of [
      await publish(admin, organization.id, space.id),
      await publish(admin, organization.id, space.id),
    ]) {
      const setup = await visit(site.at('old-setup'));
      expect(setup.statusCode).toBe(308);
      expect(setup.headers.location).toBe(site.now(paths.get('Setup')!.path));
      const help = await visit(site.at('help'));
      expect(help.statusCode).toBe(308);
      expect(help.headers.location).toBe(site.now(paths.get('Welcome')!.path));
      // `intro` is a page: the redirect from it never shadows it.
      const intro = await visit(site.at('intro'));
      expect(intro.statusCode).toBe(200);
      expect(intro.body).toContain('A page of its own.');
      expect((await visit(site.at('ghost'))).statusCode).toBe(404);
    }
  });

  it('follow their page when the space moves it, are written back by an export, and read again alike', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Product docs' });
    await git.create('redirects-round-trip');
    await git.commit('redirects-round-trip', 'main', REPOSITORY);
    await gitSync(admin, space.id, 'import', 'redirects-round-trip');
    const site = await publish(admin, organization.id, space.id);

    const guide = (await pagePaths(admin, space.id)).get('Guide')!;
    await api.change(admin, space.id, [{ operation: 'update_page', page: guide.id, slug: 'handbook' }]);
    const setup = await visit(site.at('old-setup'));
    expect(setup.statusCode).toBe(308);
    expect(setup.headers.location).toBe(site.now('handbook/setup'));

    await gitSync(admin, space.id, 'export', 'redirects-round-trip');
    expect(await remoteConfig('redirects-round-trip')).toBe(
      'redirects:\n  old-setup: handbook/setup.md\n  help: README.md\n  intro: handbook/README.md\n',
    );

    // The exported repository, imported into another space, gives it the same redirects.
    const copy = await api.createSpace(admin, organization.id, { title: 'Copy' });
    await gitSync(admin, copy.id, 'import', 'redirects-round-trip');
    expect(await storedRedirects(copy.id)).toEqual([
      { source: 'old-setup', target: 'handbook/setup.md' },
      { source: 'help', target: 'README.md' },
      { source: 'intro', target: 'handbook/README.md' },
    ]);
  });

  it('are replaced by the next import’s, and leave out of an export those whose page is gone', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Product docs' });
    await git.create('redirects-replaced');
    await git.commit('redirects-replaced', 'main', REPOSITORY);
    await gitSync(admin, space.id, 'import', 'redirects-replaced');
    const site = await publish(admin, organization.id, space.id);

    const { '.gitbook.yaml': _config, ...withoutConfig } = REPOSITORY;
    await git.commit('redirects-replaced', 'main', {
      ...withoutConfig,
      '.gitbook.yaml': 'redirects:\n  start: intro.md\n  guide-start: guide/README.md\n',
    });
    await gitSync(admin, space.id, 'import', 'redirects-replaced');
    expect(await storedRedirects(space.id)).toEqual([
      { source: 'start', target: 'intro.md' },
      { source: 'guide-start', target: 'guide/README.md' },
    ]);
    expect((await visit(site.at('old-setup'))).statusCode).toBe(404);
    expect((await visit(site.at('start'))).headers.location).toBe(site.now('intro'));

    // The page a redirect leads to is deleted: the redirect leads nowhere, and an export leaves it out.
    const intro = (await pagePaths(admin, space.id)).get('Intro')!;
    await api.change(admin, space.id, [{ operation: 'delete_page', page: intro.id }]);
    expect((await visit(site.at('start'))).statusCode).toBe(404);
    await gitSync(admin, space.id, 'export', 'redirects-replaced');
    expect(await remoteConfig('redirects-replaced')).toBe('redirects:\n  guide-start: guide/README.md\n');
  });

  it('of one space lead nowhere in another organization’s site', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Product docs' });
    await git.create('redirects-tenant');
    await git.commit('redirects-tenant', 'main', REPOSITORY);
    await gitSync(admin, space.id, 'import', 'redirects-tenant');

    const outsider = await t.factory.team();
    const theirs = await api.createSpace(outsider.admin, outsider.organization.id, { title: 'Product docs' });
    await api.change(outsider.admin, theirs.id, [
      { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: 'Theirs.' } },
    ]);
    const site = await publish(outsider.admin, outsider.organization.id, theirs.id);
    expect((await visit(site.at('old-setup'))).statusCode).toBe(404);
    expect(await storedRedirects(theirs.id)).toEqual([]);
  });
});
