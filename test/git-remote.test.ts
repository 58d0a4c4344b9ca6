import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { gitClient, type GitClient } from './support/git-client.js';

const remoteDir = await mkdtemp(path.join(tmpdir(), 'git-remote-test-'));
const MAX_PUSH_BYTES = 256 * 1024;
const t = useTestApp({
  config: () => ({
    gitRemote: { dir: remoteDir, maxPushBytes: MAX_PUSH_BYTES, timeoutMs: 60_000, commitsPerFetch: 20 },
  }),
});
const api = contentApi(() => t.app);

let base: string;
let git: GitClient;
beforeAll(async () => {
  base = await listen(t.app);
  git = await gitClient();
});
afterAll(async () => {
  await git?.close();
  await rm(remoteDir, { recursive: true, force: true });
});

/** The space's remote, with the token as the password. */
const remote = (spaceId: string, token: string, at = base) =>
  `${at.replace('http://', `http://someone:${token}@`)}/git/${spaceId}.git`;

interface Page {
  id: string;
  title: string;
  path: string;
  pages?: Page[];
}

async function pagesOf(account: Account, spaceId: string): Promise<Page[]> {
  const flat: Page[] = [];
  const visit = (pages: Page[]) => {
    for (const page of pages) {
      flat.push(page);
      visit(page.pages ?? []);
    }
  };
  visit((await api.read(account, `/v1/spaces/${spaceId}/content/pages`)).json().pages as Page[]);
  return flat;
}

async function markdownOf(account: Account, spaceId: string, pageId: string): Promise<string> {
  const res = await api.read(account, `/v1/spaces/${spaceId}/content/page/${pageId}`, { format: 'markdown' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().markdown as string;
}

async function currentRevision(account: Account, spaceId: string): Promise<string> {
  return (await api.read(account, `/v1/spaces/${spaceId}`)).json().revision as string;
}

/** A space of three pages: Welcome, and Guide with Setup under it. */
async function docsSpace() {
  const team = await t.factory.team(['edit', 'read']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  await api.change(team.admin, space.id, [
    { operation: 'insert_page', ref: 'welcome', title: 'Welcome', document: { markdown: 'Start here.\n' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.\n' } },
    {
      operation: 'insert_page',
      title: 'Setup',
      into: 'guide',
      document: { markdown: 'Run the installer.\n' },
    },
  ]);
  const pages = await pagesOf(team.admin, space.id);
  const id = (title: string) => pages.find((page) => page.title === title)!.id;
  return { ...team, space, pageId: id };
}

let clones = 0;
async function clone(spaceId: string, token: string): Promise<string> {
  const dir = `clone-${++clones}`;
  await git.ok(['clone', '--quiet', remote(spaceId, token), dir]);
  return dir;
}

const inClone = (dir: string) => path.join(git.root, dir);

async function commitAll(dir: string, message: string): Promise<string> {
  await git.ok(['add', '-A'], inClone(dir));
  await git.ok(['commit', '--quiet', '-m', message], inClone(dir));
  return (await git.ok(['rev-parse', 'HEAD'], inClone(dir))).trim();
}

describe('cloning a space', () => {
  it('gives the space’s files as GitBook’s Git Sync writes them, in one commit by the space’s last editor', async () => {
    const { admin, space } = await docsSpace();
    const dir = await clone(space.id, admin.token);
    expect((await git.ok(['ls-files'], inClone(dir))).split('\n').filter(Boolean).sort()).toEqual([
      'README.md',
      'SUMMARY.md',
      'guide/README.md',
      'guide/setup.md',
    ]);
    expect(await git.read(`${dir}/guide/setup.md`)).toContain('Run the installer.');
    expect(await git.read(`${dir}/SUMMARY.md`)).toContain('[Setup](guide/setup.md)');
    const log = await git.ok(['log', '--format=%an <%ae> %s'], inClone(dir));
    expect(log.trim().split('\n')).toEqual([
      `${admin.user.display_name} <${admin.user.id}@users.noreply.docs.test> Edit`,
    ]);
    expect(log).not.toContain(admin.user.email);
  });

  it('fast-forwards a pull to each revision merged since, and builds the same commits again when the cache is gone', async () => {
    const { admin, space, pageId } = await docsSpace();
    const dir = await clone(space.id, admin.token);
    const first = (await git.ok(['rev-parse', 'HEAD'], inClone(dir))).trim();
    await api.change(admin, space.id, [
      { operation: 'update_page', page: pageId('Setup'), document: { markdown: 'Run the new installer.\n' } },
    ]);
    await api.change(admin, space.id, [
      { operation: 'update_page', page: pageId('Welcome'), document: { markdown: 'Welcome aboard.\n' } },
    ]);
    // A new page changes the paths every page's links are written with: every page's file is written again.
    await api.change(admin, space.id, [
      { operation: 'insert_page', title: 'FAQ', into: pageId('Guide'), document: { markdown: 'Ask away.\n' } },
    ]);
    const pulled = await git.run(['pull', '--ff-only'], inClone(dir));
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await git.read(`${dir}/guide/setup.md`)).toContain('Run the new installer.');
    expect(await git.read(`${dir}/README.md`)).toContain('Welcome aboard.');
    const history = (await git.ok(['rev-list', '--first-parent', 'HEAD'], inClone(dir))).trim().split('\n');
    expect(history).toHaveLength(4);
    expect(history[3]).toBe(first);
    expect(await git.read(`${dir}/guide/faq.md`)).toContain('Ask away.');
    const rows = await t.db
      .selectFrom('git_remote_commits')
      .select(['commit_sha'])
      .where('space_id', '=', space.id)
      .execute();
    expect(rows.map((row) => row.commit_sha).sort()).toEqual([...history].sort());

    // Another instance, or this one after its disk was wiped: the same commits.
    await rm(path.join(remoteDir, `${space.id}.git`), { recursive: true, force: true });
    const listed = await git.ok(['ls-remote', remote(space.id, admin.token), 'refs/heads/main']);
    expect(listed.split('\t')[0]).toBe(history[0]);
    const again = await git.run(['pull', '--ff-only'], inClone(dir));
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('a transferred space', () => {
  it('keeps its history: a pull after a merge in its new organization fast-forwards', async () => {
    const { admin, space, pageId } = await docsSpace();
    const dir = await clone(space.id, admin.token);
    // Merged before the transfer, fetched after it: its revision names the organization it was made in.
    await api.change(admin, space.id, [
      { operation: 'update_page', page: pageId('Welcome'), document: { markdown: 'Moving soon.\n' } },
    ]);
    const target = await t.factory.organization(admin.user.id);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/transfer`,
      headers: admin.headers,
      payload: { organization: target.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await api.change(admin, space.id, [
      { operation: 'update_page', page: pageId('Setup'), document: { markdown: 'Run it in the new home.\n' } },
    ]);
    const pulled = await git.run(['pull', '--ff-only'], inClone(dir));
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await git.read(`${dir}/guide/setup.md`)).toContain('Run it in the new home.');
    expect(await git.read(`${dir}/README.md`)).toContain('Moving soon.');
    const history = (await git.ok(['rev-list', '--first-parent', 'HEAD'], inClone(dir))).trim().split('\n');
    expect(history).toHaveLength(3);
  });
});

describe('fetching at once', () => {
  it('builds the space’s repository once for clones that come together, each getting the same commit', async () => {
    const { admin, space } = await docsSpace();
    const dirs = await Promise.all(Array.from({ length: 4 }, () => clone(space.id, admin.token)));
    const heads = await Promise.all(dirs.map((dir) => git.ok(['rev-parse', 'HEAD'], inClone(dir))));
    expect(new Set(heads).size).toBe(1);
    const rows = await t.db
      .selectFrom('git_remote_commits')
      .select('commit_sha')
      .where('space_id', '=', space.id)
      .execute();
    expect(rows.map((row) => `${row.commit_sha}\n`)).toEqual([heads[0]]);
    expect((await git.run(['fsck', '--no-progress'], path.join(remoteDir, `${space.id}.git`))).code).toBe(0);
  });
});

describe('pushing to main', () => {
  it('merges an edited page into the space, keeping its id, and a pull then fast-forwards', async () => {
    const { admin, space, pageId } = await docsSpace();
    const setup = pageId('Setup');
    const dir = await clone(space.id, admin.token);
    const setupFile = `${dir}/guide/setup.md`;
    await git.write(setupFile, (await git.read(setupFile)).replace('Run the installer.', 'Run the pushed installer.'));
    const pushedCommit = await commitAll(dir, 'Say which installer');
    const pushed = await git.run(['push', 'origin', 'main'], inClone(dir));
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain('Merged into the space');

    expect(await markdownOf(admin, space.id, setup)).toContain('Run the pushed installer.');
    expect((await pagesOf(admin, space.id)).map((page) => [page.title, page.id])).toEqual([
      ['Welcome', pageId('Welcome')],
      ['Guide', pageId('Guide')],
      ['Setup', setup],
    ]);
    const merged = await api.listChangeRequests(admin, space.id, { status: 'merged' });
    expect(merged.json().items.map((item: { subject: string }) => item.subject)).toContain('Say which installer');

    const pulled = await git.run(['pull', '--ff-only'], inClone(dir));
    expect(pulled.code, pulled.stderr).toBe(0);
    const parents = (await git.ok(['log', '-1', '--format=%P'], inClone(dir))).trim().split(' ');
    expect(parents).toHaveLength(2);
    expect(parents[1]).toBe(pushedCommit);
  });

  it('refuses a force push, and the deletion of main', async () => {
    const { admin, space } = await docsSpace();
    const revision = await currentRevision(admin, space.id);
    const dir = await clone(space.id, admin.token);
    await git.ok(['checkout', '--quiet', '--orphan', 'other'], inClone(dir));
    await git.write(`${dir}/README.md`, '# Replaced\n');
    await commitAll(dir, 'Replace everything');
    const forced = await git.run(['push', '--force', 'origin', 'other:main'], inClone(dir));
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toContain('force pushes to main are refused');
    const deleted = await git.run(['push', 'origin', ':main'], inClone(dir));
    expect(deleted.code).not.toBe(0);
    expect(deleted.stderr).toContain('cannot be deleted');
    expect(await currentRevision(admin, space.id)).toBe(revision);
  });
});

describe('pushing to another branch', () => {
  it('opens a change request of that name, and a second push updates it; a fetch of the branch gives it', async () => {
    const { admin, space, pageId } = await docsSpace();
    const revision = await currentRevision(admin, space.id);
    const dir = await clone(space.id, admin.token);
    await git.write(
      `${dir}/README.md`,
      (await git.read(`${dir}/README.md`)).replace('Start here.', 'Start over here.'),
    );
    await commitAll(dir, 'Reword the welcome');
    const first = await git.run(['push', 'origin', 'HEAD:refs/heads/reword'], inClone(dir));
    expect(first.code, first.stderr).toBe(0);
    const number = /Change request #(\d+) is open/.exec(first.stderr)?.[1];
    expect(number, first.stderr).toBeDefined();

    const open = (await api.listChangeRequests(admin, space.id)).json().items as Array<{ id: string; subject: string }>;
    expect(open.map((item) => item.subject)).toEqual(['reword']);
    const changeRequestId = open[0]!.id;
    const inChangeRequest = () =>
      api
        .read(admin, `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content/page/${pageId('Welcome')}`, {
          format: 'markdown',
        })
        .then((res) => res.json().markdown as string);
    expect(await inChangeRequest()).toContain('Start over here.');
    expect(await currentRevision(admin, space.id)).toBe(revision);

    await git.write(
      `${dir}/README.md`,
      (await git.read(`${dir}/README.md`)).replace('Start over here.', 'Begin here.'),
    );
    const second = await commitAll(dir, 'Reword it again');
    const again = await git.run(['push', 'origin', 'HEAD:refs/heads/reword'], inClone(dir));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`Change request #${number} is updated`);
    expect((await api.listChangeRequests(admin, space.id)).json().items).toHaveLength(1);
    expect(await inChangeRequest()).toContain('Begin here.');
    expect(await currentRevision(admin, space.id)).toBe(revision);

    const listed = await git.ok(['ls-remote', 'origin', 'refs/heads/reword'], inClone(dir));
    expect(listed.split('\t')[0]).toBe(second);

    // An edit in the change request itself: the branch gets a commit of it, on top of the pushed one.
    await api.writeContent(admin, space.id, changeRequestId, [
      { operation: 'update_page', page: pageId('Guide'), document: { markdown: 'The edited guide.\n' } },
    ]);
    await git.ok(['fetch', '--quiet', 'origin', 'reword'], inClone(dir));
    expect(await git.ok(['show', 'FETCH_HEAD:guide/README.md'], inClone(dir))).toContain('The edited guide.');
    expect((await git.ok(['log', '-1', '--format=%P', 'FETCH_HEAD'], inClone(dir))).trim()).toBe(second);

    const removed = await git.run(['push', 'origin', ':reword'], inClone(dir));
    expect(removed.code, removed.stderr).toBe(0);
    const archived = await api.getChangeRequest(admin, space.id, changeRequestId);
    expect(archived.json().status).toBe('archived');
  });
});

/** A proxy in front of the service that runs `before` ahead of each push's pack reaching it. */
async function racingProxy(before: () => Promise<void>): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(base);
  const server: Server = createServer((incoming, outgoing) => {
    incoming.pause();
    const go = incoming.method === 'POST' && incoming.url?.endsWith('/git-receive-pack') ? before() : Promise.resolve();
    void go.then(() => {
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(forwarded);
      incoming.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a push racing a merge', () => {
  it('is refused when it conflicts with what was merged meanwhile, and the space keeps the merge', async () => {
    const { admin, space, pageId } = await docsSpace();
    const setup = pageId('Setup');
    let raced = false;
    const proxy = await racingProxy(async () => {
      if (raced) return;
      raced = true;
      await api.change(admin, space.id, [
        { operation: 'update_page', page: setup, document: { markdown: 'Run the installer as root.\n' } },
      ]);
    });
    try {
      const dir = `clone-${++clones}`;
      await git.ok(['clone', '--quiet', remote(space.id, admin.token, proxy.url), dir]);
      const setupFile = `${dir}/guide/setup.md`;
      await git.write(setupFile, (await git.read(setupFile)).replace('Run the installer.', 'Run the installer twice.'));
      await commitAll(dir, 'Run it twice');
      const pushed = await git.run(['push', 'origin', 'main'], inClone(dir));
      expect(raced).toBe(true);
      expect(pushed.code).not.toBe(0);
      expect(pushed.stderr).toContain('conflicts with changes merged in the space');
      const afterRace = await currentRevision(admin, space.id);
      expect(await markdownOf(admin, space.id, setup)).toContain('Run the installer as root.');
      expect((await pagesOf(admin, space.id)).map((page) => page.id)).toContain(setup);
      // The refused push changed nothing of the space: its revision is the racing merge's.
      const latest = await t.db
        .selectFrom('revisions')
        .select('id')
        .where('space_id', '=', space.id)
        .where('change_request_id', 'is', null)
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      expect(latest.id).toBe(afterRace);
    } finally {
      await proxy.close();
    }
  });

  it('is merged when what was merged meanwhile touches other pages', async () => {
    const { admin, space, pageId } = await docsSpace();
    let raced = false;
    const proxy = await racingProxy(async () => {
      if (raced) return;
      raced = true;
      await api.change(admin, space.id, [
        { operation: 'update_page', page: pageId('Welcome'), document: { markdown: 'Welcome, racer.\n' } },
      ]);
    });
    try {
      const dir = `clone-${++clones}`;
      await git.ok(['clone', '--quiet', remote(space.id, admin.token, proxy.url), dir]);
      const setupFile = `${dir}/guide/setup.md`;
      await git.write(setupFile, (await git.read(setupFile)).replace('Run the installer.', 'Run the installer twice.'));
      await commitAll(dir, 'Run it twice');
      const pushed = await git.run(['push', 'origin', 'main'], inClone(dir));
      expect(pushed.code, pushed.stderr).toBe(0);
      expect(await markdownOf(admin, space.id, pageId('Setup'))).toContain('Run the installer twice.');
      expect(await markdownOf(admin, space.id, pageId('Welcome'))).toContain('Welcome, racer.');
      const pulled = await git.run(['pull', '--ff-only'], inClone(dir));
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(await git.read(`${dir}/README.md`)).toContain('Welcome, racer.');
    } finally {
      await proxy.close();
    }
  });
});

describe('who may fetch and push', () => {
  it('asks for a token: no token or a bad one is a 401 with a Basic challenge', async () => {
    const { space } = await docsSpace();
    const bare = await fetch(`${base}/git/${space.id}.git/info/refs?service=git-upload-pack`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const bad = await fetch(`${base}/git/${space.id}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from('someone:not-a-token').toString('base64')}` },
    });
    expect(bad.status).toBe(401);
    const cloned = await git.run(['clone', `${base}/git/${space.id}.git`, `clone-${++clones}`]);
    expect(cloned.code).not.toBe(0);
    expect(cloned.stderr).toMatch(/Authentication failed|could not read Username/);
  });

  it('hides a space from a user of another organization (404), fetch or push', async () => {
    const { space } = await docsSpace();
    const stranger = await t.factory.team();
    for (const service of ['git-upload-pack', 'git-receive-pack']) {
      const res = await fetch(`${base}/git/${space.id}.git/info/refs?service=${service}`, {
        headers: { authorization: `Basic ${Buffer.from(`x:${stranger.admin.token}`).toString('base64')}` },
      });
      expect(res.status, service).toBe(404);
    }
    const cloned = await git.run(['clone', remote(space.id, stranger.admin.token), `clone-${++clones}`]);
    expect(cloned.code).not.toBe(0);
    expect(cloned.stderr).toContain('not found');
  });

  it('lets a reader clone but not push, and a token without space:write cannot push', async () => {
    const { admin, member, space } = await docsSpace();
    const revision = await currentRevision(admin, space.id);
    const readOnly = await t.factory.token(admin.user.id, { scopes: ['space:read'] });
    for (const token of [member('read').token, readOnly.token]) {
      const dir = await clone(space.id, token);
      await git.write(`${dir}/README.md`, '# Welcome\n\nChanged.\n');
      await commitAll(dir, 'Change');
      const pushed = await git.run(['push', 'origin', 'main'], inClone(dir));
      expect(pushed.code).not.toBe(0);
      expect(pushed.stderr).toContain('403');
    }
    expect(await currentRevision(admin, space.id)).toBe(revision);
  });

  it('refuses a merge into main to a token without change-request:merge, which may still push a branch', async () => {
    const { admin, space } = await docsSpace();
    const revision = await currentRevision(admin, space.id);
    const writer = await t.factory.token(admin.user.id, { scopes: ['space:write'] });
    const dir = await clone(space.id, writer.token);
    await git.write(`${dir}/README.md`, (await git.read(`${dir}/README.md`)).replace('Start here.', 'Start there.'));
    await commitAll(dir, 'Move the start');
    const toMain = await git.run(['push', 'origin', 'main'], inClone(dir));
    expect(toMain.code).not.toBe(0);
    expect(toMain.stderr).toContain('change-request:merge');
    expect(await currentRevision(admin, space.id)).toBe(revision);
    const toBranch = await git.run(['push', 'origin', 'HEAD:refs/heads/start'], inClone(dir));
    expect(toBranch.code, toBranch.stderr).toBe(0);
    expect(await currentRevision(admin, space.id)).toBe(revision);
  });

  it('shows a visitor of a public space its main branch only', async () => {
    const { admin, space } = await docsSpace();
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { visibility: 'public' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const dir = await clone(space.id, admin.token);
    await git.write(`${dir}/README.md`, '# Welcome\n\nA draft.\n');
    await commitAll(dir, 'Draft');
    await git.ok(['push', '--quiet', 'origin', 'HEAD:refs/heads/draft'], inClone(dir));
    const visitor = await t.factory.account();
    const listed = await git.ok(['ls-remote', remote(space.id, visitor.token)]);
    expect(listed).toContain('refs/heads/main');
    expect(listed).not.toContain('refs/heads/draft');
    const pushed = await git.run(['push', remote(space.id, visitor.token), 'HEAD:refs/heads/visitor'], inClone(dir));
    expect(pushed.code).not.toBe(0);
    // Nor can a visitor fetch the change request's commit by its hash.
    const draft = (await git.ok(['rev-parse', 'HEAD'], inClone(dir))).trim();
    const stranger = `clone-${++clones}`;
    await git.ok(['init', '--quiet', stranger]);
    const byHash = await git.run(['fetch', remote(space.id, visitor.token), draft], inClone(stranger));
    expect(byHash.code).not.toBe(0);
  });
});

describe('the push size limit', () => {
  // Over git's 1 MiB http.postBuffer: sent chunked, after a probe.
  it('refuses a push over GIT_REMOTE_MAX_PUSH_BYTES with a message, and the space is unchanged', async () => {
    const { admin, space } = await docsSpace();
    const revision = await currentRevision(admin, space.id);
    const dir = await clone(space.id, admin.token);
    await git.write(`${dir}/.gitbook/assets/noise.bin`, randomBytes(1536 * 1024));
    await commitAll(dir, 'Add noise');
    const pushed = await git.run(['push', 'origin', 'main'], inClone(dir));
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain('GIT_REMOTE_MAX_PUSH_BYTES');
    expect(await currentRevision(admin, space.id)).toBe(revision);
    // The rest of the refused pack is read and dropped, so the connection is done with once git has
    // gone rather than held mid-request until a timeout. Idle keep-alive connections (of the racing
    // proxies' agent) are closed first; the poll's timeout is only a guard against a hang.
    const busyConnections = () =>
      new Promise<number>((resolve) => {
        t.app.server.closeIdleConnections();
        t.app.server.getConnections((_, count) => resolve(count));
      });
    await expect.poll(busyConnections, { timeout: 20_000, interval: 50 }).toBe(0);
  });
});

describe('the Git remote’s routes', () => {
  it('are Git’s smart HTTP, outside /v1 and the OpenAPI document, each with the scope it needs', () => {
    const routes = t.app.routeTable
      .filter((route) => route.url.startsWith('/git/'))
      .map((route) => [route.method, route.url, route.scope, route.hidden]);
    expect(routes).toEqual([
      ['GET', '/git/:repository/info/refs', 'space:read', true],
      ['POST', '/git/:repository/git-upload-pack', 'space:read', true],
      ['POST', '/git/:repository/git-receive-pack', 'space:write', true],
    ]);
  });
});
