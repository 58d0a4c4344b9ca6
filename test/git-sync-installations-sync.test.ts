import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncPoller } from '../src/git-sync/installations/polling.js';
import { createGitSyncProcessor } from '../src/git-sync/processor.js';
import { testConfig, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { startGitServer, type GitServer } from './support/git-server.js';
import { startFakeGitHub, startFakeGitLab, type FakeProviderApi } from './support/provider-apis.js';
import { expectNewestSpecResponse } from './support/spec.js';

/**
 * A push reaches the space: through a provider's signed webhook, or found by
 * polling, it queues an import of the installation's branch from a real Git
 * server, which the worker runs into the space.
 */

const GITHUB_TOKEN = 'ghp_synctoken000000000000000001';
const GITLAB_TOKEN = 'glpat-synctoken0000000000001';

let git: GitServer;
let github: FakeProviderApi;
let gitlab: FakeProviderApi;
beforeAll(async () => {
  git = await startGitServer({ auth: { username: 'x-access-token', password: GITHUB_TOKEN } });
  github = await startFakeGitHub({ token: GITHUB_TOKEN, repositories: [] });
  gitlab = await startFakeGitLab({ token: GITLAB_TOKEN, repositories: [] });
});
afterAll(async () => {
  await git?.close();
  await github?.close();
  await gitlab?.close();
});

const t = useTestApp({
  config: () => ({
    gitSync: {
      ...testConfig('postgres://unused').gitSync,
      githubApiUrl: github.url,
      gitlabApiUrl: gitlab.url,
      webhookMaxBytes: 64 * 1024,
    },
  }),
});
const api = contentApi(() => t.app);

const summary = (pages: string[]) =>
  `# Table of contents\n\n${pages.map((page) => `* [${page}](${page.toLowerCase()}.md)`).join('\n')}\n`;
const repository = (pages: string[]) => ({
  'SUMMARY.md': summary(pages),
  ...Object.fromEntries(pages.map((page) => [`${page.toLowerCase()}.md`, `# ${page}\n\nAbout ${page}.\n`])),
});

async function runAll(): Promise<void> {
  const processor = createGitSyncProcessor(t.app.context);
  while (await processor.runNext());
}

async function titles(account: Account, spaceId: string): Promise<string[]> {
  const pages = (await api.read(account, `/v1/spaces/${spaceId}/content/pages`)).json().pages as Array<{
    title: string;
  }>;
  return pages.map((page) => page.title);
}

const operationsOf = (spaceId: string) =>
  t.db
    .selectFrom('git_sync_operations')
    .selectAll()
    .where('space_id', '=', spaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** A space linked to the repository `name` on the Git server through a GitHub installation, first import run. */
async function linkedSpace(name: string, repositoryId: number) {
  const { admin, organization } = await t.factory.team();
  const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
  await git.create(name);
  await git.commit(name, 'main', repository(['Welcome']));
  github.repositories.push({
    id: repositoryId,
    owner: 'acme',
    name,
    defaultBranch: 'main',
    cloneUrl: git.url(name),
    branches: ['main'],
  });
  const installed = await t.app.inject({
    method: 'POST',
    url: '/v1/git/installations',
    headers: admin.headers,
    payload: { provider: 'github', target: { type: 'space', spaceId: space.id } },
  });
  expect(installed.statusCode, installed.body).toBe(201);
  const { id, webhook } = installed.json() as { id: string; webhook: { secret: string } };
  const configured = await t.app.inject({
    method: 'PATCH',
    url: `/v1/git/installations/${id}`,
    headers: admin.headers,
    payload: { provider: 'github', providerConfiguration: { repositoryId, accessToken: GITHUB_TOKEN } },
  });
  expect(configured.statusCode, configured.body).toBe(200);
  await runAll();
  expect(await titles(admin, space.id)).toEqual(['Welcome']);
  return { admin, space, installationId: id, secret: webhook.secret };
}

const signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function deliver(installationId: string, body: string, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/webhooks/git-sync/${installationId}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
}

const pushTo = (ref: string, after = 'c'.repeat(40)) => JSON.stringify({ ref, before: 'b'.repeat(40), after });

describe('a provider’s webhook', () => {
  it('queues an import for a signed push to the branch, and nothing for anything else', async () => {
    const { admin, space, installationId, secret } = await linkedSpace('webhook-docs', 101);
    await git.commit('webhook-docs', 'main', repository(['Welcome', 'Changelog']));
    const push = pushTo('refs/heads/main');
    const queuedBefore = (await operationsOf(space.id)).length;

    const refused: Array<[string, Record<string, string>]> = [
      ['no signature', { 'x-github-event': 'push' }],
      ['another secret', { 'x-github-event': 'push', 'x-hub-signature-256': signature('not-the-secret', push) }],
      ['another body', { 'x-github-event': 'push', 'x-hub-signature-256': signature(secret, `${push} `) }],
      ['GitLab’s token on GitHub', { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret }],
    ];
    for (const [why, headers] of refused) {
      const res = await deliver(installationId, push, headers);
      expect(res.statusCode, why).toBe(401);
      expect(res.json().error.code).toBe(401);
    }
    const ignored: Array<[string, string, Record<string, string>]> = [
      ['a ping', JSON.stringify({ zen: 'Keep it simple' }), { 'x-github-event': 'ping' }],
      ['another branch', pushTo('refs/heads/feature'), { 'x-github-event': 'push' }],
      ['a deleted branch', pushTo('refs/heads/main', '0'.repeat(40)), { 'x-github-event': 'push' }],
      ['another event', push, { 'x-github-event': 'issues' }],
    ];
    for (const [why, body, headers] of ignored) {
      const res = await deliver(installationId, body, { ...headers, 'x-hub-signature-256': signature(secret, body) });
      expect(res.statusCode, `${why}: ${res.body}`).toBe(204);
    }
    expect(await operationsOf(space.id)).toHaveLength(queuedBefore);

    const headers = { 'x-github-event': 'push', 'x-hub-signature-256': signature(secret, push) };
    const accepted = await deliver(installationId, push, headers);
    expect(accepted.statusCode, accepted.body).toBe(202);
    expect(accepted.body).toBe('');
    // A second push before the import ran: the waiting import reads the newest tip.
    expect((await deliver(installationId, push, headers)).statusCode).toBe(202);
    const queued = (await operationsOf(space.id)).slice(queuedBefore);
    expect(queued).toEqual([
      expect.objectContaining({ direction: 'import', state: 'queued', requested_by: admin.user.id }),
    ]);

    await runAll();
    expect(await titles(admin, space.id)).toEqual(['Welcome', 'Changelog']);
    const info = await t.app.inject({ method: 'GET', url: `/v1/spaces/${space.id}/git/info`, headers: admin.headers });
    expectNewestSpecResponse('getSpaceGitInfo', 200, info.json());
    expect(info.json().operation).toMatchObject({ state: 'success', direction: 'import' });
  });

  it('refuses a body over the limit (413), one that is not JSON (415) and an unknown installation (404)', async () => {
    const { space, installationId, secret } = await linkedSpace('webhook-limits', 102);
    const before = (await operationsOf(space.id)).length;
    const large = JSON.stringify({ ref: 'refs/heads/main', padding: 'x'.repeat(70 * 1024) });
    const tooLarge = await deliver(installationId, large, {
      'x-github-event': 'push',
      'x-hub-signature-256': signature(secret, large),
    });
    expect(tooLarge.statusCode).toBe(413);
    const push = pushTo('refs/heads/main');
    const form = await t.app.inject({
      method: 'POST',
      url: `/webhooks/git-sync/${installationId}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-github-event': 'push',
        'x-hub-signature-256': signature(secret, push),
      },
      payload: `payload=${encodeURIComponent(push)}`,
    });
    expect(form.statusCode).toBe(415);
    const unknown = await deliver('NoSuchInstallation00', push, { 'x-github-event': 'push' });
    expect(unknown.statusCode).toBe(404);
    expect(await operationsOf(space.id)).toHaveLength(before);
  });

  it('takes GitLab’s X-Gitlab-Token on a GitLab installation, and only it', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Handbook' });
    gitlab.repositories.push({
      id: 55,
      owner: 'group',
      name: 'handbook',
      defaultBranch: 'main',
      cloneUrl: 'http://127.0.0.1:9/group/handbook.git',
      branches: ['main'],
    });
    const installed = await t.app.inject({
      method: 'POST',
      url: '/v1/git/installations',
      headers: admin.headers,
      payload: { provider: 'gitlab', target: { type: 'space', spaceId: space.id } },
    });
    const { id, webhook } = installed.json() as { id: string; webhook: { secret: string } };
    const push = pushTo('refs/heads/main');
    // Not yet configured: a proven push is refused with the reason.
    const early = await deliver(id, push, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': webhook.secret });
    expect(early.statusCode).toBe(409);
    const configured = await t.app.inject({
      method: 'PATCH',
      url: `/v1/git/installations/${id}`,
      headers: admin.headers,
      payload: { provider: 'gitlab', providerConfiguration: { projectId: 55, accessToken: GITLAB_TOKEN } },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    await t.db.deleteFrom('git_sync_operations').where('space_id', '=', space.id).execute();

    const wrong = await deliver(id, push, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'guess' });
    expect(wrong.statusCode).toBe(401);
    const hmac = await deliver(id, push, {
      'x-github-event': 'push',
      'x-hub-signature-256': signature(webhook.secret, push),
    });
    expect(hmac.statusCode).toBe(401);
    expect(await operationsOf(space.id)).toEqual([]);
    const right = await deliver(id, push, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': webhook.secret });
    expect(right.statusCode, right.body).toBe(202);
    expect(await operationsOf(space.id)).toEqual([
      expect.objectContaining({ direction: 'import', url: 'http://127.0.0.1:9/group/handbook.git' }),
    ]);
  });

  it('takes a Gitea or Forgejo push, signed as GitHub signs, on a Git host installation', async () => {
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Forge' });
    const installed = await t.app.inject({
      method: 'POST',
      url: '/v1/git/installations',
      headers: admin.headers,
      payload: { provider: 'git', target: { type: 'space', spaceId: space.id } },
    });
    const { id, webhook } = installed.json() as { id: string; webhook: { secret: string } };
    const configured = await t.app.inject({
      method: 'PATCH',
      url: `/v1/git/installations/${id}`,
      headers: admin.headers,
      payload: {
        provider: 'git',
        providerConfiguration: { url: 'http://127.0.0.1:9/forge/docs.git', branch: 'refs/heads/trunk' },
      },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    await t.db.deleteFrom('git_sync_operations').where('space_id', '=', space.id).execute();
    const push = pushTo('refs/heads/trunk');
    const signed = { 'x-gitea-event': 'push', 'x-hub-signature-256': signature(webhook.secret, push) };
    expect((await deliver(id, push, signed)).statusCode).toBe(202);
    const tokened = await deliver(id, push, { 'x-forgejo-event': 'push', 'x-gitlab-token': webhook.secret });
    expect(tokened.statusCode).toBe(202);
    expect(await operationsOf(space.id)).toEqual([
      expect.objectContaining({
        direction: 'import',
        url: 'http://127.0.0.1:9/forge/docs.git',
        ref: 'refs/heads/trunk',
      }),
    ]);
  });

  it('stops taking the old secret once an admin rotates it', async () => {
    const { admin, installationId, secret } = await linkedSpace('webhook-rotate', 103);
    const rotated = await t.app.inject({
      method: 'PATCH',
      url: `/v1/git/installations/${installationId}`,
      headers: admin.headers,
      payload: { provider: 'github', providerConfiguration: {}, rotateWebhookSecret: true },
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().webhook.secret as string;
    expect(fresh).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(fresh).not.toBe(secret);
    const push = pushTo('refs/heads/main');
    const old = await deliver(installationId, push, {
      'x-github-event': 'push',
      'x-hub-signature-256': signature(secret, push),
    });
    expect(old.statusCode).toBe(401);
    const now = await deliver(installationId, push, {
      'x-github-event': 'push',
      'x-hub-signature-256': signature(fresh, push),
    });
    expect(now.statusCode).toBe(202);
  });
});

describe('polling', () => {
  const makeDue = (installationId: string) =>
    t.db
      .updateTable('git_sync_polls')
      .set({ due_at: new Date(Date.now() - 1000) })
      .where('installation_id', '=', installationId)
      .execute();

  it('queues an import when the branch moved, once per interval, claimed by one poller at a time', async () => {
    const { admin, space, installationId } = await linkedSpace('polled-docs', 201);
    const enabled = await t.app.inject({
      method: 'PATCH',
      url: `/v1/git/installations/${installationId}`,
      headers: admin.headers,
      payload: { provider: 'github', providerConfiguration: {}, pollingIntervalSeconds: 60 },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json().pollingIntervalSeconds).toBe(60);
    await runAll();
    const poller = createGitSyncPoller(t.app.context);
    // Not due for a minute.
    expect(await poller.pollNext()).toBe(false);

    // Due, and the branch is where the space synced: nothing to import.
    await makeDue(installationId);
    const before = (await operationsOf(space.id)).length;
    expect(await poller.pollNext()).toBe(true);
    expect(await operationsOf(space.id)).toHaveLength(before);
    const [poll] = await t.db
      .selectFrom('git_sync_polls')
      .selectAll()
      .where('installation_id', '=', installationId)
      .execute();
    expect(poll).toMatchObject({ error: null, lease_expires_at: null });
    expect(poll!.polled_at).toBeInstanceOf(Date);
    expect(poll!.due_at.getTime()).toBeGreaterThan(Date.now() + 50_000);

    // A new commit, found by whichever of two pollers claims the installation.
    await git.commit('polled-docs', 'main', repository(['Welcome', 'Roadmap']));
    await makeDue(installationId);
    const other = createGitSyncPoller(t.app.context);
    const claimed = await Promise.all([poller.pollNext(), other.pollNext()]);
    expect(claimed.filter(Boolean)).toHaveLength(1);
    const queued = (await operationsOf(space.id)).slice(before);
    expect(queued).toEqual([expect.objectContaining({ direction: 'import', state: 'queued' })]);
    await runAll();
    expect(await titles(admin, space.id)).toEqual(['Welcome', 'Roadmap']);

    // Turned off: no poll left.
    const disabled = await t.app.inject({
      method: 'PATCH',
      url: `/v1/git/installations/${installationId}`,
      headers: admin.headers,
      payload: { provider: 'github', providerConfiguration: {}, pollingIntervalSeconds: null },
    });
    expect(disabled.json().pollingIntervalSeconds).toBeNull();
    expect(
      await t.db.selectFrom('git_sync_polls').selectAll().where('installation_id', '=', installationId).execute(),
    ).toEqual([]);
  });

  it('records why a poll could not read the branch, and polls again an interval later', async () => {
    const { admin, installationId } = await linkedSpace('polled-gone', 202);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/git/installations/${installationId}`,
      headers: admin.headers,
      payload: { provider: 'github', providerConfiguration: {}, pollingIntervalSeconds: 120 },
    });
    await runAll();
    // The token the Git server takes is no longer the installation's.
    await t.db
      .updateTable('git_sync_installations')
      .set({
        access_token_sealed: t.app.context.keyring.seal('stale', `git-sync-installation:${installationId}:token`),
      })
      .where('id', '=', installationId)
      .execute();
    await makeDue(installationId);
    expect(await createGitSyncPoller(t.app.context).pollNext()).toBe(true);
    const [poll] = await t.db
      .selectFrom('git_sync_polls')
      .selectAll()
      .where('installation_id', '=', installationId)
      .execute();
    expect(poll!.error).toMatch(/refused the credentials/);
    expect(poll!.due_at.getTime()).toBeGreaterThan(Date.now() + 110_000);
    // The installation's admins see why.
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/git/installations/${installationId}`,
      headers: admin.headers,
    });
    expect(read.json().polling).toEqual({
      nextAt: poll!.due_at.toISOString(),
      lastAt: poll!.polled_at!.toISOString(),
      error: poll!.error,
    });
  });
});
