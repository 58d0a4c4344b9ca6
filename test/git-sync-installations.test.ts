import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, testConfig, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { startFakeGitHub, startFakeGitLab, type FakeProviderApi } from './support/provider-apis.js';
import { expectNewestSpecResponse, expectNewestSpecSchema } from './support/spec.js';

const GITHUB_TOKEN = 'ghp_installationtoken0000000001';
const GITLAB_TOKEN = 'glpat-installationtoken000001';

let github: FakeProviderApi;
let gitlab: FakeProviderApi;
beforeAll(async () => {
  github = await startFakeGitHub({
    token: GITHUB_TOKEN,
    repositories: [1, 2, 3].map((id) => ({
      id,
      owner: 'acme',
      name: `docs-${id}`,
      defaultBranch: 'main',
      cloneUrl: `http://127.0.0.1:9/acme/docs-${id}.git`,
      branches: ['main', 'next', 'v1'],
      files: { 'refs/heads/main:.gitbook.yaml': { sha: 'a'.repeat(40), size: 42 } },
      folders: ['refs/heads/main:docs'],
    })),
  });
  gitlab = await startFakeGitLab({
    token: GITLAB_TOKEN,
    repositories: [7, 8, 9].map((id) => ({
      id,
      owner: 'group/sub',
      name: `handbook-${id}`,
      defaultBranch: id === 9 ? null : 'main',
      cloneUrl: `http://127.0.0.1:9/group/sub/handbook-${id}.git`,
      branches: ['main', 'draft', 'old'],
      files: { 'refs/heads/main:docs/README.md': { sha: 'b'.repeat(40), size: 7 } },
    })),
  });
});
afterAll(async () => {
  await github?.close();
  await gitlab?.close();
});

// After the fakes start: GitHub's API is the operator's setting, GitLab's each installation's customInstanceURL.
const t = useTestApp({
  config: () => ({ gitSync: { ...testConfig('postgres://unused').gitSync, githubApiUrl: github.url } }),
});
const api = contentApi(() => t.app);

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (account: Account, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });

async function install(account: Account, spaceId: string, provider = 'github') {
  const res = await call(account, 'POST', '/v1/git/installations', { provider, target: { type: 'space', spaceId } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; webhook: { url: string; secret?: string } };
}

const installations = () => t.db.selectFrom('git_sync_installations').selectAll().execute();
const operationsOf = (spaceId: string) =>
  t.db.selectFrom('git_sync_operations').selectAll().where('space_id', '=', spaceId).orderBy('created_at').execute();

async function setup() {
  const team = await t.factory.team(['edit', 'read']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  return { ...team, space };
}

describe('installing Git Sync on a space', () => {
  it('makes a pending installation whose webhook secret is shown once, and never its token', async () => {
    const { admin, space } = await setup();
    const created = await install(admin, space.id);
    expectNewestSpecResponse('installGitSyncProviderOnTarget', 201, created);
    expect(created).toMatchObject({
      object: 'git-sync-installation',
      provider: 'github',
      providerConfiguration: {},
      target: { type: 'space', spaceId: space.id },
      status: 'pending',
      createdBy: admin.user.id,
      urls: { location: `http://docs.test/v1/git/installations/${created.id}` },
      webhook: { url: `http://docs.test/webhooks/git-sync/${created.id}` },
    });
    expect(created.webhook.secret).toMatch(/^[A-Za-z0-9]{40}$/);

    const read = await call(admin, 'GET', `/v1/git/installations/${created.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expectNewestSpecResponse('getGitSyncInstallationById', 200, read.json());
    expect(read.json().webhook).toEqual({ url: created.webhook.url });

    const [row] = (await installations()).filter((candidate) => candidate.id === created.id);
    // Sealed: the secret is not in the row as it is.
    expect(JSON.stringify(row)).not.toContain(created.webhook.secret);
  });

  it('refuses an editor (403), an outsider (404), a second installation (409) and a site (400), storing nothing', async () => {
    const { admin, member, space } = await setup();
    const outsider = (await t.factory.team()).admin;
    const before = (await installations()).length;
    const body = (spaceId: string) => ({ provider: 'github', target: { type: 'space', spaceId } });
    expect((await call(member('edit'), 'POST', '/v1/git/installations', body(space.id))).statusCode).toBe(403);
    const stranger = await call(outsider, 'POST', '/v1/git/installations', body(space.id));
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ error: { code: 404, message: 'No space with this id is visible to you' } });
    const site = await call(admin, 'POST', '/v1/git/installations', {
      provider: 'github',
      target: { type: 'site', siteId: 'abc' },
    });
    expect(site.statusCode).toBe(400);
    expect(site.json().error.message).toMatch(/whole site/);
    const unknownProvider = await call(admin, 'POST', '/v1/git/installations', { ...body(space.id), provider: 'svn' });
    expect(unknownProvider.statusCode).toBe(400);
    expect((await installations()).length).toBe(before);

    await install(admin, space.id);
    const again = await call(admin, 'POST', '/v1/git/installations', body(space.id));
    expect(again.statusCode).toBe(409);
    expect((await installations()).length).toBe(before + 1);
  });

  it('is invisible to another organization on every route, which changes nothing', async () => {
    const { admin, space } = await setup();
    const created = await install(admin, space.id);
    const outsider = (await t.factory.team()).admin;
    const before = await installations();
    const base = `/v1/git/installations/${created.id}`;
    const requests: Array<[Method, string, object?]> = [
      ['GET', base],
      ['PATCH', base, { provider: 'github', providerConfiguration: { accessToken: 'x' } }],
      ['DELETE', base],
      ['GET', `${base}/github/repos`],
      ['GET', `${base}/github/repos/acme/docs-1/branches`],
      ['GET', `${base}/github/repos/acme/docs-1/file?path=README.md&ref=main`],
      ['GET', `${base}/gitlab/projects`],
      ['GET', `${base}/gitlab/projects/7/branches`],
      ['GET', `${base}/gitlab/projects/7/file?path=README.md&ref=main`],
      ['GET', `/v1/spaces/${space.id}/git/info`],
    ];
    for (const [method, url, payload] of requests) {
      const res = await call(outsider, method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.body).not.toContain(space.id);
    }
    expect(await installations()).toEqual(before);
  });
});

describe('configuring a GitHub installation', () => {
  it('resolves the repository with the token, becomes active and queues an import with its credentials', async () => {
    const { admin, space } = await setup();
    const created = await install(admin, space.id);
    const res = await call(admin, 'PATCH', `/v1/git/installations/${created.id}`, {
      provider: 'github',
      providerConfiguration: { repositoryId: 2, accessToken: GITHUB_TOKEN },
      projectDirectory: 'docs',
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expectNewestSpecResponse('updateGitSyncInstallationById', 200, updated);
    expect(updated).toMatchObject({
      status: 'active',
      providerConfiguration: { repositoryId: 2, branch: 'refs/heads/main' },
      projectDirectory: 'docs',
      priority: 'git',
      repositoryConnection: {
        repositoryId: '2',
        repositoryName: 'acme/docs-2',
        repositoryUrl: 'http://127.0.0.1:9/acme/docs-2.git',
        defaultBranch: 'main',
        authState: 'active',
      },
    });
    expect(res.body).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(await installations())).not.toContain(GITHUB_TOKEN);
    expect(github.requests.at(-1)).toEqual({ path: '/repositories/2', authorization: `Bearer ${GITHUB_TOKEN}` });

    const [operation] = await operationsOf(space.id);
    expect(operation).toMatchObject({
      state: 'queued',
      direction: 'import',
      url: 'http://127.0.0.1:9/acme/docs-2.git',
      ref: 'refs/heads/main',
      project_directory: 'docs',
      requested_by: admin.user.id,
    });
    expect(operation!.authorization_sealed).toEqual(expect.any(String));

    // The space shows its link, and its Git info the queued import.
    const spaceRes = await call(admin, 'GET', `/v1/spaces/${space.id}`);
    expect(spaceRes.json().gitSync).toEqual({
      installationId: created.id,
      installationProvider: 'github',
      installationStatus: 'active',
      repoName: 'acme/docs-2',
      url: 'http://127.0.0.1:9/acme/docs-2/tree/main/docs',
      updatedAt: updated.updatedAt,
    });
    expectNewestSpecSchema('GitSyncState', spaceRes.json().gitSync);
    const info = await call(admin, 'GET', `/v1/spaces/${space.id}/git/info`);
    expect(info.statusCode, info.body).toBe(200);
    expectNewestSpecResponse('getSpaceGitInfo', 200, info.json());
    expect(info.json()).toMatchObject({
      installationId: created.id,
      operation: { state: 'running', direction: 'import', startedAt: operation!.created_at.toISOString() },
      operationTimeout: expect.any(Number),
    });
  });

  it('keeps the space’s gitSync from its visitors', async () => {
    const { admin, space } = await setup();
    await call(admin, 'PATCH', `/v1/spaces/${space.id}`, { visibility: 'public' });
    await install(admin, space.id);
    const visitor = (await t.factory.team()).admin;
    const seen = await call(visitor, 'GET', `/v1/spaces/${space.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().gitSync).toBeUndefined();
    expect((await call(visitor, 'GET', `/v1/spaces/${space.id}/git/info`)).statusCode).toBe(404);
  });

  it('refuses what the provider does not take, a wrong provider or bounds, and changes nothing', async () => {
    const { admin, member, space } = await setup();
    const created = await install(admin, space.id);
    const patch = (payload: object, account = admin) =>
      call(account, 'PATCH', `/v1/git/installations/${created.id}`, payload);
    const before = await installations();
    const cases: Array<[number, object, Account?]> = [
      [403, { provider: 'github', providerConfiguration: { accessToken: 'x' } }, member('edit')],
      [400, { provider: 'gitlab', providerConfiguration: {} }],
      [400, { provider: 'github', providerConfiguration: { projectId: 3 } }],
      [400, { provider: 'github', providerConfiguration: { repositoryId: 1 } }],
      [400, { provider: 'github', providerConfiguration: { branch: 'main' } }],
      [400, { provider: 'github', providerConfiguration: {}, pollingIntervalSeconds: 5 }],
      [400, { provider: 'github', providerConfiguration: {}, pollingIntervalSeconds: 10_000_000 }],
      [400, { provider: 'github', providerConfiguration: { customInstanceURL: 'https://u:p@ghe.example.com/api' } }],
      [404, { provider: 'github', providerConfiguration: { repositoryId: 99, accessToken: GITHUB_TOKEN } }],
      [409, { provider: 'github', providerConfiguration: { repositoryId: 1, accessToken: 'wrong-token' } }],
    ];
    for (const [status, payload, account] of cases) {
      const res = await patch(payload, account);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(status);
    }
    expect(await installations()).toEqual(before);
    expect(await operationsOf(space.id)).toEqual([]);
  });

  it('lists repositories, branches and a file through every page, and checks the token', async () => {
    const { admin, space } = await setup();
    const created = await install(admin, space.id);
    const base = `/v1/git/installations/${created.id}`;
    const seen = github.requests.length;
    const noToken = await call(admin, 'GET', `${base}/github/repos`);
    expect(noToken.statusCode).toBe(400);
    await call(admin, 'PATCH', base, { provider: 'github', providerConfiguration: { accessToken: GITHUB_TOKEN } });

    const repos = await call(admin, 'GET', `${base}/github/repos`);
    expect(repos.statusCode, repos.body).toBe(200);
    expectNewestSpecResponse('listGitHubRepositoriesForGitSyncInstallation', 200, repos.json());
    expect(repos.json().items.map((repo: { fullName: string }) => repo.fullName)).toEqual([
      'acme/docs-1',
      'acme/docs-2',
      'acme/docs-3',
    ]);
    expect(repos.json().items[0]).toEqual({
      id: 1,
      accountName: 'acme',
      repositoryName: 'docs-1',
      fullName: 'acme/docs-1',
      defaultBranch: 'main',
    });

    const branches = await call(admin, 'GET', `${base}/github/repos/acme/docs-1/branches`);
    expect(branches.statusCode, branches.body).toBe(200);
    expectNewestSpecResponse('listGitHubRepoBranchesForGitSyncInstallation', 200, branches.json());
    expect(branches.json().items).toEqual([
      { name: 'main', ref: 'refs/heads/main' },
      { name: 'next', ref: 'refs/heads/next' },
      { name: 'v1', ref: 'refs/heads/v1' },
    ]);

    const file = await call(
      admin,
      'GET',
      `${base}/github/repos/acme/docs-1/file?path=.gitbook.yaml&ref=refs/heads/main`,
    );
    expect(file.statusCode, file.body).toBe(200);
    expectNewestSpecResponse('getGitHubRepoFileForGitSyncInstallation', 200, file.json());
    expect(file.json()).toEqual({ name: '.gitbook.yaml', path: '.gitbook.yaml', sha: 'a'.repeat(40), size: 42 });
    const folder = await call(admin, 'GET', `${base}/github/repos/acme/docs-1/file?path=docs&ref=refs/heads/main`);
    expect(folder.statusCode).toBe(404);
    expect((await call(admin, 'GET', `${base}/github/repos/acme/nope/branches`)).statusCode).toBe(404);
    // A GitHub installation has no GitLab projects.
    expect((await call(admin, 'GET', `${base}/gitlab/projects`)).statusCode).toBe(400);
    // Two pages of repositories, two of branches, a file, a folder, a missing repository: each with the token.
    const made = github.requests.slice(seen);
    expect(made).toHaveLength(7);
    expect(made.every((request) => request.authorization === `Bearer ${GITHUB_TOKEN}`)).toBe(true);
    expect(made.map((request) => request.path).slice(0, 2)).toEqual([
      '/user/repos?per_page=100&sort=full_name',
      '/user/repos?per_page=100&sort=full_name&page=2',
    ]);
  });

  it('marks the installation unauthenticated when GitHub refuses its token', async () => {
    const { admin, space } = await setup();
    const created = await install(admin, space.id);
    const base = `/v1/git/installations/${created.id}`;
    await call(admin, 'PATCH', base, { provider: 'github', providerConfiguration: { accessToken: 'revoked' } });
    const refused = await call(admin, 'GET', `${base}/github/repos`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/refused the installation's token/);
    expect((await call(admin, 'GET', base)).json().status).toBe('unauthenticated');
  });
});

describe('configuring a GitLab installation', () => {
  it('lists projects, branches and a file through X-Next-Page, and takes a project as its repository', async () => {
    const { admin, space } = await setup();
    const created = await install(admin, space.id, 'gitlab');
    const base = `/v1/git/installations/${created.id}`;
    const configured = await call(admin, 'PATCH', base, {
      provider: 'gitlab',
      providerConfiguration: { accessToken: GITLAB_TOKEN, customInstanceURL: gitlab.url },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    expect(configured.json()).toMatchObject({
      status: 'pending',
      providerConfiguration: { customInstanceURL: gitlab.url },
    });

    const projects = await call(admin, 'GET', `${base}/gitlab/projects`);
    expect(projects.statusCode, projects.body).toBe(200);
    expectNewestSpecResponse('listGitLabProjectsForGitSyncInstallation', 200, projects.json());
    expect(projects.json().items).toHaveLength(3);
    expect(projects.json().items[2]).toEqual({
      id: 9,
      accountName: 'group/sub',
      repositoryName: 'handbook-9',
      fullName: 'group/sub/handbook-9',
      defaultBranch: null,
    });
    const branches = await call(admin, 'GET', `${base}/gitlab/projects/8/branches`);
    expectNewestSpecResponse('listGitLabProjectBranchesForGitSyncInstallation', 200, branches.json());
    expect(branches.json().items.map((branch: { name: string }) => branch.name)).toEqual(['main', 'draft', 'old']);
    const file = await call(admin, 'GET', `${base}/gitlab/projects/8/file?path=docs/README.md&ref=refs/heads/main`);
    expect(file.statusCode, file.body).toBe(200);
    expectNewestSpecResponse('getGitLabProjectFileForGitSyncInstallation', 200, file.json());
    expect(file.json()).toEqual({ name: 'README.md', path: 'docs/README.md', sha: 'b'.repeat(40), size: 7 });
    expect((await call(admin, 'GET', `${base}/gitlab/projects/8/file?path=nope.md&ref=main`)).statusCode).toBe(404);

    const linked = await call(admin, 'PATCH', base, {
      provider: 'gitlab',
      providerConfiguration: { projectId: 8, branch: 'refs/heads/draft' },
      priority: 'gitbook',
      commitMessageTemplate: 'Docs from the space',
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expectNewestSpecResponse('updateGitSyncInstallationById', 200, linked.json());
    expect(linked.json()).toMatchObject({
      status: 'active',
      priority: 'gitbook',
      providerConfiguration: { projectId: 8, branch: 'refs/heads/draft' },
    });
    // Priority gitbook: the space is exported, with the template as the commit's message.
    expect(await operationsOf(space.id)).toEqual([
      expect.objectContaining({
        direction: 'export',
        url: 'http://127.0.0.1:9/group/sub/handbook-8.git',
        ref: 'refs/heads/draft',
        commit_message: 'Docs from the space',
      }),
    ]);
    expect(gitlab.requests.every((request) => request.authorization === `Bearer ${GITLAB_TOKEN}`)).toBe(true);
  });
});

describe('a Git host over HTTPS', () => {
  it('takes a URL and a token, and refuses a URL that carries credentials', async () => {
    const { admin, space } = await setup();
    const created = await install(admin, space.id, 'git');
    const base = `/v1/git/installations/${created.id}`;
    const withCredentials = await call(admin, 'PATCH', base, {
      provider: 'git',
      providerConfiguration: { url: 'https://bot:secret@git.example.com/docs.git' },
    });
    expect(withCredentials.statusCode).toBe(400);
    const res = await call(admin, 'PATCH', base, {
      provider: 'git',
      providerConfiguration: {
        url: 'https://git.example.com/docs.git',
        branch: 'refs/heads/main',
        username: 'bot',
        accessToken: 'gitea-token',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'active',
      providerConfiguration: { url: 'https://git.example.com/docs.git', branch: 'refs/heads/main' },
    });
    const [operation] = await operationsOf(space.id);
    expect(operation).toMatchObject({ direction: 'import', url: 'https://git.example.com/docs.git' });
    const sealed = operation!.authorization_sealed!;
    const opened = t.app.context.keyring.open(sealed, `git-sync-operation:${operation!.id}`);
    expect(opened).toBe(`Basic ${Buffer.from('bot:gitea-token').toString('base64')}`);
  });
});

describe('the installation’s token', () => {
  it('is never sent to another API or Git host unless it is given again', async () => {
    const { admin, space, organization } = await setup();
    const created = await install(admin, space.id, 'gitlab');
    const base = `/v1/git/installations/${created.id}`;
    const configured = await call(admin, 'PATCH', base, {
      provider: 'gitlab',
      providerConfiguration: { accessToken: GITLAB_TOKEN, customInstanceURL: gitlab.url },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const seen = gitlab.requests.length + github.requests.length;
    const elsewhere = await call(admin, 'PATCH', base, {
      provider: 'gitlab',
      providerConfiguration: { customInstanceURL: github.url, projectId: 7 },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.message).toMatch(/accessToken must be given again/);
    // Back to the operator's default API is another host too.
    const unset = await call(admin, 'PATCH', base, {
      provider: 'gitlab',
      providerConfiguration: { customInstanceURL: null },
    });
    expect(unset.statusCode).toBe(400);
    expect(gitlab.requests.length + github.requests.length).toBe(seen);
    expect((await call(admin, 'GET', base)).json().providerConfiguration).toEqual({ customInstanceURL: gitlab.url });

    const other = await api.createSpace(admin, organization.id, { title: 'Forge' });
    const forge = await install(admin, other.id, 'git');
    const forgeBase = `/v1/git/installations/${forge.id}`;
    const first = await call(admin, 'PATCH', forgeBase, {
      provider: 'git',
      providerConfiguration: { url: 'https://git.example.com/docs.git', accessToken: 'forge-token' },
    });
    expect(first.statusCode, first.body).toBe(200);
    const moved = await call(admin, 'PATCH', forgeBase, {
      provider: 'git',
      providerConfiguration: { url: 'https://attacker.example.net/docs.git' },
    });
    expect(moved.statusCode).toBe(400);
    const sameHost = await call(admin, 'PATCH', forgeBase, {
      provider: 'git',
      providerConfiguration: { url: 'https://git.example.com/handbook.git' },
    });
    expect(sameHost.statusCode, sameHost.body).toBe(200);
  });
});

describe('the site’s installations and uninstalling', () => {
  it('lists the installations of a site’s spaces to its admins, and uninstalling removes the link', async () => {
    const { admin, member, organization, space } = await setup();
    const other = await api.createSpace(admin, organization.id, { title: 'Elsewhere' });
    const site = await call(admin, 'POST', `/v1/orgs/${organization.id}/sites`, { title: 'Docs site' });
    expect(site.statusCode, site.body).toBe(201);
    const siteId = site.json().id as string;
    const added = await call(admin, 'POST', `/v1/orgs/${organization.id}/sites/${siteId}/site-spaces`, {
      spaceId: space.id,
    });
    expect(added.statusCode, added.body).toBe(201);
    const created = await install(admin, space.id);
    await install(admin, other.id);

    const url = `/v1/orgs/${organization.id}/sites/${siteId}/spaces/git/installations`;
    const listed = await call(admin, 'GET', url);
    expect(listed.statusCode, listed.body).toBe(200);
    expectNewestSpecResponse('listSiteGitSyncInstallations', 200, listed.json());
    expect(listed.json().items.map((item: { id: string }) => item.id)).toEqual([created.id]);
    expect((await call(member('read'), 'GET', url)).statusCode).toBe(403);
    expect((await call((await t.factory.team()).admin, 'GET', url)).statusCode).toBe(404);

    // The space's answer is cached by its organization's clock, which an installation's change ticks.
    const linked = await call(admin, 'GET', `/v1/spaces/${space.id}`);
    expect(linked.json().gitSync).toMatchObject({ installationId: created.id, installationStatus: 'pending' });
    const etag = linked.headers.etag as string;
    // Lists of the organization's spaces show it too, on the installed space only.
    const spaces = (await call(member('read'), 'GET', `/v1/orgs/${organization.id}/spaces`)).json().items as Array<{
      id: string;
      gitSync?: { installationId: string };
    }>;
    expect(spaces.find((item) => item.id === space.id)?.gitSync?.installationId).toBe(created.id);
    expect(spaces.find((item) => item.id === other.id)?.gitSync?.installationId).not.toBe(created.id);
    expect(etag).toMatch(/^"/);
    expect(
      (
        await call(admin, 'PATCH', `/v1/git/installations/${created.id}`, {
          provider: 'github',
          providerConfiguration: { accessToken: GITHUB_TOKEN, repositoryId: 1 },
        })
      ).statusCode,
    ).toBe(200);
    const active = await t.app.inject({
      method: 'GET',
      url: `/v1/spaces/${space.id}`,
      headers: { ...admin.headers, 'if-none-match': etag },
    });
    expect(active.statusCode).toBe(200);
    expect(active.json().gitSync).toMatchObject({ installationStatus: 'active', repoName: 'acme/docs-1' });

    expect((await call(member('edit'), 'DELETE', `/v1/git/installations/${created.id}`)).statusCode).toBe(403);
    const removed = await call(admin, 'DELETE', `/v1/git/installations/${created.id}`);
    expect(removed.statusCode, removed.body).toBe(205);
    expect((await call(admin, 'GET', `/v1/git/installations/${created.id}`)).statusCode).toBe(404);
    const info = await call(admin, 'GET', `/v1/spaces/${space.id}/git/info`);
    expect(info.statusCode).toBe(404);
    expect((await call(admin, 'GET', `/v1/spaces/${space.id}`)).json().gitSync).toBeUndefined();
  });
});

describe('the official client', () => {
  it('installs, configures and reads an installation and the space’s Git info', async () => {
    const { admin, space } = await setup();
    const client = newestOfficialClient(await listen(t.app), admin.token);
    // The client types the provider as its own enum, whose values are these strings.
    type Install = Parameters<typeof client.git.installGitSyncProviderOnTarget>[0];
    const created = await client.git.installGitSyncProviderOnTarget({
      provider: 'github',
      target: { type: 'space', spaceId: space.id },
    } as unknown as Install);
    expect(created.status).toBe(201);
    const updated = await client.git.updateGitSyncInstallationById(created.data.id, {
      provider: 'github',
      providerConfiguration: { repositoryId: 3, branch: 'refs/heads/v1' },
      // This service's own: the token the GitHub App would hold in GitBook.
      ...({ providerConfiguration: { repositoryId: 3, branch: 'refs/heads/v1', accessToken: GITHUB_TOKEN } } as object),
    });
    expect(updated.data).toMatchObject({ status: 'active', providerConfiguration: { branch: 'refs/heads/v1' } });
    const repos = await client.git.listGitHubRepositoriesForGitSyncInstallation(created.data.id);
    expect(repos.data.items).toHaveLength(3);
    const info = await client.spaces.getSpaceGitInfo(space.id);
    expect(info.data).toMatchObject({ installationId: created.data.id, installationProvider: 'github' });
  });
});
