import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncProcessor, RETRY_DELAYS_MS } from '../src/git-sync/processor.js';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { startGitServer, type GitServer } from './support/git-server.js';

/** A clock the test moves, so that an operation's retry comes due without waiting. */
let now = new Date('2026-11-29T09:00:00.000Z');
const t = useTestApp({ clock: { now: () => new Date(now.getTime()) } });
const api = contentApi(() => t.app);

/** Pushes (receive-pack requests) the server fails before answering one. */
let failingPushes = 0;
let git: GitServer;
beforeAll(async () => {
  git = await startGitServer({
    beforeRequest: async ({ method, url }) => {
      if (method === 'POST' && url.endsWith('/git-receive-pack') && failingPushes > 0) {
        failingPushes--;
        throw new Error('the network failed mid-push');
      }
    },
  });
});
afterAll(async () => {
  await git.close();
});

const REPOSITORY = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
  'README.md': '# Welcome\n\nHello.\n',
};

async function queue(account: Account, spaceId: string, direction: 'import' | 'export') {
  const response = await t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/git/${direction}`,
    headers: account.headers,
    payload: {
      url: git.url('retried'),
      ref: 'refs/heads/main',
      ...(direction === 'export' ? { commitMessage: 'Edit' } : {}),
    },
  });
  expect(response.statusCode, response.body).toBe(204);
}

/** The space's export (the clock stands still: the import before it has the same time). */
const latest = (spaceId: string) =>
  t.db
    .selectFrom('git_sync_operations')
    .selectAll()
    .where('space_id', '=', spaceId)
    .where('direction', '=', 'export')
    .executeTakeFirstOrThrow();

describe('a sync that fails for a reason that may pass', () => {
  it('is queued again with why, after a delay that grows, and then succeeds', async () => {
    const processor = createGitSyncProcessor(t.app.context);
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    await git.create('retried');
    const imported = await git.commit('retried', 'main', REPOSITORY);
    await queue(admin, space.id, 'import');
    while (await processor.runNext());
    const pages = (await api.read(admin, `/v1/spaces/${space.id}/content/pages`)).json().pages as Array<{ id: string }>;
    await api.change(admin, space.id, [
      { operation: 'update_page', page: pages[0]!.id, document: { markdown: 'Hello, edited.\n' } },
    ]);

    failingPushes = 2;
    await queue(admin, space.id, 'export');
    expect(await processor.runNext()).toBe(true);
    const first = await latest(space.id);
    expect(first).toMatchObject({
      state: 'queued',
      retries: 1,
      error: `The Git server at ${new URL(git.url('x')).origin}/ answered HTTP 500`,
      retry_at: new Date(now.getTime() + RETRY_DELAYS_MS[0]),
    });
    // Not due yet: nothing runs, the branch is as it was.
    expect(await processor.runNext()).toBe(false);
    expect(await git.git('retried', ['rev-parse', 'main'])).toBe(`${imported}\n`);

    now = new Date(now.getTime() + RETRY_DELAYS_MS[0]);
    expect(await processor.runNext()).toBe(true);
    expect(await latest(space.id)).toMatchObject({
      state: 'queued',
      retries: 2,
      retry_at: new Date(now.getTime() + RETRY_DELAYS_MS[1]),
    });

    now = new Date(now.getTime() + RETRY_DELAYS_MS[1]);
    expect(await processor.runNext()).toBe(true);
    const done = await latest(space.id);
    expect(done).toMatchObject({ state: 'success', error: null, retries: 2 });
    expect(await git.git('retried', ['rev-parse', 'main'])).toBe(`${done.commit_sha}\n`);
    expect(await git.git('retried', ['rev-parse', 'main^'])).toBe(`${imported}\n`);
    expect(await git.git('retried', ['show', 'main:README.md'])).toContain('Hello, edited.');
  });

  it('gives up after its last retry, with the reason', async () => {
    const processor = createGitSyncProcessor(t.app.context);
    const { admin, organization } = await t.factory.team();
    const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
    await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hi.\n' } },
    ]);
    await git.create('unreachable-push');
    failingPushes = RETRY_DELAYS_MS.length + 1;
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/git/export`,
      headers: admin.headers,
      payload: { url: git.url('unreachable-push'), ref: 'refs/heads/main', commitMessage: 'First' },
    });
    expect(response.statusCode).toBe(204);
    for (const delay of [0, ...RETRY_DELAYS_MS]) {
      now = new Date(now.getTime() + delay);
      expect(await processor.runNext()).toBe(true);
    }
    expect(await latest(space.id)).toMatchObject({
      state: 'failure',
      retries: RETRY_DELAYS_MS.length,
      error: `The Git server at ${new URL(git.url('x')).origin}/ answered HTTP 500`,
    });
    expect(await processor.runNext()).toBe(false);
    expect(await git.git('unreachable-push', ['for-each-ref'])).toBe('');
    failingPushes = 0;
  });
});
