import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundFetcher } from '../src/core/outbound.js';
import { GitRemoteError } from '../src/git-sync/git/errors.js';
import { gitRemote } from '../src/git-sync/git/remote.js';
import { commitFiles, readBranch, type GitContext } from '../src/git-sync/git/repository.js';
import { GitThreads } from '../src/git-sync/git/threads.js';
import { startGitServer, type GitServer, type GitServerOptions } from './support/git-server.js';
import { ownBuiltThreads } from './support/threads.js';

const LIMITS = { maxBytes: 8 << 20, maxFiles: 100, timeoutMs: 10_000 };
const context = (overrides: Partial<GitContext['limits']> = {}, allowPrivate = true): GitContext => ({
  fetcher: createOutboundFetcher({ allowPrivate, timeoutMs: 10_000, maxBytes: 8 << 20 }),
  limits: { ...LIMITS, ...overrides },
});
const author = { name: 'Ada Writer', email: 'ada@example.com', timestamp: 1_780_000_000 };
const text = (value: string) => new TextEncoder().encode(value);
const decoded = (files: Map<string, Uint8Array>) =>
  Object.fromEntries([...files].map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]));

let servers: GitServer[] = [];
async function server(options?: GitServerOptions): Promise<GitServer> {
  const started = await startGitServer(options);
  servers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** What the remote branch holds, read with the `git` binary: path → text. */
async function remoteFiles(git: GitServer, name: string, ref = 'refs/heads/main'): Promise<Record<string, string>> {
  const listing = await git.git(name, ['ls-tree', '-r', '--name-only', '-z', ref]);
  const files: Record<string, string> = {};
  for (const file of listing.split('\0').filter(Boolean)) files[file] = await git.git(name, ['show', `${ref}:${file}`]);
  return files;
}

describe('a Git remote named by the API', () => {
  it('keeps its credentials out of the URL, as an Authorization header', () => {
    expect(gitRemote('https://bot:s3cr%40t@git.example.com/docs.git#x', 'refs/heads/main')).toEqual({
      url: 'https://git.example.com/docs.git',
      ref: 'refs/heads/main',
      authorization: `Basic ${Buffer.from('bot:s3cr@t').toString('base64')}`,
    });
    expect(gitRemote('https://git.example.com/docs.git', 'refs/heads/release/2.0')).toEqual({
      url: 'https://git.example.com/docs.git',
      ref: 'refs/heads/release/2.0',
    });
  });

  it('is refused when it is no http(s) URL or its ref is no branch Git accepts', () => {
    for (const [url, ref] of [
      ['ssh://git@example.com/docs.git', 'refs/heads/main'],
      ['file:///srv/docs.git', 'refs/heads/main'],
      ['not a url', 'refs/heads/main'],
      ['https://example.com/docs.git', 'main'],
      ['https://example.com/docs.git', 'refs/tags/v1'],
      ['https://example.com/docs.git', 'refs/heads/a..b'],
      ['https://example.com/docs.git', 'refs/heads/a b'],
      ['https://example.com/docs.git', 'refs/heads/x.lock'],
      ['https://example.com/docs.git', 'refs/heads/.hidden'],
      ['https://example.com/docs.git', 'refs/heads/end/'],
    ]) {
      expect(() => gitRemote(url!, ref!), `${url} ${ref}`).toThrow(/url must|ref must/);
    }
  });
});

describe('reading a branch', () => {
  it('gives every file of the tip by its path, and the tip', async () => {
    const git = await server();
    await git.create('docs');
    const tip = await git.commit('docs', 'main', {
      'README.md': '# Welcome\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
      'guide/setup.md': '# Setup\n',
      '.gitbook/assets/screen shot (1).png': 'png bytes',
    });
    const read = await readBranch(gitRemote(git.url('docs'), 'refs/heads/main'), context());
    expect(read.commit).toBe(tip);
    expect(decoded(read.files)).toEqual({
      'README.md': '# Welcome\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
      'guide/setup.md': '# Setup\n',
      '.gitbook/assets/screen shot (1).png': 'png bytes',
    });
  });

  it('gives no commit and no files for an empty repository or a branch it does not have', async () => {
    const git = await server();
    await git.create('empty');
    expect(await readBranch(gitRemote(git.url('empty'), 'refs/heads/main'), context())).toEqual({
      commit: null,
      files: new Map(),
    });
    await git.commit('empty', 'main', { 'a.md': 'a' });
    expect(await readBranch(gitRemote(git.url('empty'), 'refs/heads/other'), context())).toEqual({
      commit: null,
      files: new Map(),
    });
  });

  it('sends the URL’s credentials, and says so when the server refuses them', async () => {
    const git = await server({ auth: { username: 'bot', password: 'token-1' } });
    await git.create('private');
    await git.commit('private', 'main', { 'a.md': 'secret' });
    const url = git.url('private');
    const withToken = (token: string) => url.replace('http://', `http://bot:${token}@`);
    expect(decoded((await readBranch(gitRemote(withToken('token-1'), 'refs/heads/main'), context())).files)).toEqual({
      'a.md': 'secret',
    });
    for (const remote of [gitRemote(withToken('wrong'), 'refs/heads/main'), gitRemote(url, 'refs/heads/main')]) {
      const failure = await readBranch(remote, context()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GitRemoteError);
      expect(failure).toMatchObject({ failure: 'auth', message: expect.stringContaining('refused the credentials') });
      // The message names the host only: never the token.
      expect((failure as Error).message).not.toContain('wrong');
    }
  });

  it('says when there is no repository at the URL', async () => {
    const git = await server();
    const failure = await readBranch(gitRemote(git.url('missing'), 'refs/heads/main'), context()).catch((e) => e);
    expect(failure).toMatchObject({ name: 'GitRemoteError', failure: 'not-found' });
  });

  it('stops at the limits on files and bytes', async () => {
    const git = await server();
    await git.create('big');
    await git.commit('big', 'main', { 'a.md': 'a'.repeat(2_000), 'b.md': 'b'.repeat(2_000), 'c.md': 'c' });
    const remote = gitRemote(git.url('big'), 'refs/heads/main');
    await expect(readBranch(remote, context({ maxFiles: 2 }))).rejects.toMatchObject({
      failure: 'too-large',
      message: 'The branch holds more than 2 files',
    });
    await expect(readBranch(remote, context({ maxBytes: 3_000 }))).rejects.toMatchObject({ failure: 'too-large' });
  });

  it('never reaches a private address unless the operator allows it', async () => {
    const git = await server();
    await git.create('docs');
    const failure = await readBranch(gitRemote(git.url('docs'), 'refs/heads/main'), context({}, false)).catch((e) => e);
    expect(failure).toMatchObject({ name: 'GitRemoteError', failure: 'refused' });
    expect(git.requests).toEqual([]);
  });
});

describe('committing files to a branch', () => {
  it('creates the branch of an empty repository, with the author and message given', async () => {
    const git = await server();
    await git.create('docs');
    const remote = gitRemote(git.url('docs'), 'refs/heads/main');
    const files = new Map([
      ['README.md', text('# Welcome\n')],
      ['guide/README.md', text('# Guide\n')],
      ['.gitbook/assets/a b.png', text('png')],
    ]);
    const outcome = await commitFiles(remote, { expected: null, files, message: 'First sync', author }, context());
    expect(outcome).toEqual({ result: 'pushed', commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(await git.git('docs', ['rev-parse', 'refs/heads/main'])).toBe(`${(outcome as { commit: string }).commit}\n`);
    expect(await remoteFiles(git, 'docs')).toEqual({
      'README.md': '# Welcome\n',
      'guide/README.md': '# Guide\n',
      '.gitbook/assets/a b.png': 'png',
    });
    expect(await git.git('docs', ['log', '-1', '--format=%an <%ae>|%cn|%at|%s', 'main'])).toBe(
      'Ada Writer <ada@example.com>|Ada Writer|1780000000|First sync\n',
    );
  });

  it('fast-forwards the tip it was given, as the whole tree: files left out are removed', async () => {
    const git = await server();
    await git.create('docs');
    const tip = await git.commit('docs', 'main', { 'README.md': 'old\n', 'gone.md': 'bye\n' });
    const remote = gitRemote(git.url('docs'), 'refs/heads/main');
    const outcome = await commitFiles(
      remote,
      { expected: tip, files: new Map([['README.md', text('new\n')]]), message: 'Edit', author },
      context(),
    );
    expect(outcome.result).toBe('pushed');
    expect(await git.git('docs', ['rev-parse', 'main^'])).toBe(`${tip}\n`);
    expect(await remoteFiles(git, 'docs')).toEqual({ 'README.md': 'new\n' });
  });

  it('writes nothing when the files are the tip’s already', async () => {
    const git = await server();
    await git.create('docs');
    const tip = await git.commit('docs', 'main', { 'README.md': 'same\n' });
    const outcome = await commitFiles(
      gitRemote(git.url('docs'), 'refs/heads/main'),
      { expected: tip, files: new Map([['README.md', text('same\n')]]), message: 'Edit', author },
      context(),
    );
    expect(outcome).toEqual({ result: 'unchanged', commit: tip });
    expect(git.requests.some((request) => request.includes('git-receive-pack') && request.startsWith('POST'))).toBe(
      false,
    );
  });

  it('never overwrites a branch that moved: it says where the branch is and writes nothing', async () => {
    const git = await server();
    await git.create('docs');
    const seen = await git.commit('docs', 'main', { 'README.md': 'one\n' });
    const theirs = await git.commit('docs', 'main', { 'README.md': 'two\n' }, 'Someone else');
    const outcome = await commitFiles(
      gitRemote(git.url('docs'), 'refs/heads/main'),
      { expected: seen, files: new Map([['README.md', text('mine\n')]]), message: 'Edit', author },
      context(),
    );
    expect(outcome).toEqual({ result: 'behind', tip: theirs });
    expect(await remoteFiles(git, 'docs')).toEqual({ 'README.md': 'two\n' });
  });

  it('loses the race to a push that lands between its fetch and its push, and writes nothing', async () => {
    let raced = '';
    const git: GitServer = await server({
      beforeRequest: async ({ method, url }) => {
        if (method === 'POST' && url.endsWith('/git-receive-pack') && !raced) {
          raced = await git.commit('docs', 'main', { 'README.md': 'theirs\n' }, 'Raced');
        }
      },
    });
    await git.create('docs');
    const tip = await git.commit('docs', 'main', { 'README.md': 'base\n' });
    const outcome = await commitFiles(
      gitRemote(git.url('docs'), 'refs/heads/main'),
      { expected: tip, files: new Map([['README.md', text('mine\n')]]), message: 'Edit', author },
      context(),
    );
    expect(outcome).toEqual({ result: 'behind', tip: raced });
    expect(await remoteFiles(git, 'docs')).toEqual({ 'README.md': 'theirs\n' });
  });

  it('refuses a path that is not a repository file', async () => {
    const git = await server();
    await git.create('docs');
    for (const bad of ['../x.md', 'a//b.md', '.git/config', 'a/./b.md']) {
      await expect(
        commitFiles(
          gitRemote(git.url('docs'), 'refs/heads/main'),
          { expected: null, files: new Map([[bad, text('x')]]), message: 'Edit', author },
          context(),
        ),
      ).rejects.toThrow();
    }
    expect(await git.git('docs', ['for-each-ref'])).toBe('');
  });
});

describe('the Git threads', () => {
  const threads = (operationTimeoutMs = 30_000) =>
    new GitThreads({
      threads: 1,
      operationTimeoutMs,
      outbound: { allowPrivate: true, timeoutMs: 10_000, maxBytes: 8 << 20 },
      maxBytes: 8 << 20,
      maxFiles: 100,
      exchangeTimeoutMs: 10_000,
      onThreadError: (error) => {
        throw error;
      },
      threadSource: ownBuiltThreads,
    });

  it('read and commit a branch off the event loop, with the same outcomes', async () => {
    const git = await server();
    await git.create('docs');
    const tip = await git.commit('docs', 'main', { 'README.md': 'one\n' });
    const pool = threads();
    try {
      const remote = gitRemote(git.url('docs'), 'refs/heads/main');
      const read = await pool.readBranch(remote);
      expect(read.commit).toBe(tip);
      expect(decoded(read.files)).toEqual({ 'README.md': 'one\n' });
      const pushed = await pool.commitFiles(remote, {
        expected: tip,
        files: new Map([['README.md', text('two\n')]]),
        message: 'Edit',
        author,
      });
      expect(pushed.result).toBe('pushed');
      expect(await pool.commitFiles(remote, { expected: tip, files: new Map(), message: 'Edit', author })).toEqual({
        result: 'behind',
        tip: (pushed as { commit: string }).commit,
      });
      const failure = await pool.readBranch(gitRemote(git.url('missing'), 'refs/heads/main')).catch((e) => e);
      expect(failure).toBeInstanceOf(GitRemoteError);
      expect(failure).toMatchObject({ failure: 'not-found' });
    } finally {
      await pool.close();
    }
  });

  it('stop an operation past its deadline, and say so', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const git = await server({ beforeRequest: () => held });
    await git.create('docs');
    const pool = threads(300);
    try {
      const failure = await pool.readBranch(gitRemote(git.url('docs'), 'refs/heads/main')).catch((e) => e);
      expect(failure).toBeInstanceOf(GitRemoteError);
      expect(failure).toMatchObject({
        failure: 'timeout',
        message: 'The Git operation took longer than 300 ms and was stopped',
      });
    } finally {
      release();
      await pool.close();
    }
  });
});
