import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import git, { Errors, type HttpClient, type TreeEntry, type WalkerEntry } from 'isomorphic-git';
import type { OutboundFetcher } from '../../core/outbound.js';
import { describeGitFailure, GitRemoteError } from './errors.js';
import { guardedGitHttp } from './http-client.js';
import type { GitRemote } from './remote.js';

/**
 * Reading a branch's files from a Git remote and committing files on top of
 * it, with isomorphic-git over the guarded fetcher. Each operation works in a
 * throwaway folder holding only the branch's tip (a depth-1 fetch), and
 * pushes fast-forward only: a branch that moved since is reported, never
 * overwritten.
 */

export interface GitLimits {
  /** The most bytes one exchange with the remote may bring (the pack of the tip). */
  maxBytes: number;
  /** The most files a tree may hold. */
  maxFiles: number;
  /** For each exchange with the remote. */
  timeoutMs: number;
}

export interface GitContext {
  fetcher: OutboundFetcher;
  limits: GitLimits;
}

export interface BranchFiles {
  /** The branch's tip, or null when the branch does not exist (an empty repository has none). */
  commit: string | null;
  /** Every file of the tip's tree by its path from the repository's root, symbolic links and submodules left out. */
  files: Map<string, Uint8Array>;
}

export interface GitAuthor {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

export type PushOutcome =
  | { result: 'pushed'; commit: string }
  /** The files are the tip's already: nothing to commit. */
  | { result: 'unchanged'; commit: string }
  /** The branch is not at `expected`: someone pushed first. Nothing was written. */
  | { result: 'behind'; tip: string | null };

const REGULAR_FILE = '100644';

async function withWorkdir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-git-'));
  try {
    await git.init({ fs, dir, bare: true });
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function headersOf(remote: GitRemote): Record<string, string> {
  return remote.authorization ? { authorization: remote.authorization } : {};
}

/** The branch's tip on the remote, or null when it has no such branch. */
async function remoteTip(http: HttpClient, remote: GitRemote): Promise<string | null> {
  const refs = await git.listServerRefs({ http, url: remote.url, headers: headersOf(remote), prefix: remote.ref });
  return refs.find((entry) => entry.ref === remote.ref)?.oid ?? null;
}

/** Brings the branch's tip into `dir` (depth 1) and returns it, or null when the remote has no such branch. */
async function fetchTip(dir: string, http: HttpClient, remote: GitRemote): Promise<string | null> {
  const tip = await remoteTip(http, remote);
  if (tip === null) return null;
  // The fetch keeps what it brings as the remote's refs, which needs the remote configured.
  await git.addRemote({ fs, gitdir: dir, remote: 'origin', url: remote.url });
  await git.fetch({
    fs,
    http,
    gitdir: dir,
    remote: 'origin',
    remoteRef: remote.ref,
    ref: remote.ref,
    depth: 1,
    singleBranch: true,
    tags: false,
    headers: headersOf(remote),
  });
  return tip;
}

/** Every file of the commit's tree by path, within the limits. */
async function treeFiles(dir: string, commit: string, limits: GitLimits): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  let bytes = 0;
  await git.walk({
    fs,
    gitdir: dir,
    trees: [git.TREE({ ref: commit })],
    map: async (filepath: string, [entry]: Array<WalkerEntry | null>) => {
      if (!entry || filepath === '.') return true;
      const type = await entry.type();
      // null: nothing to keep, and no folder below to walk.
      if (type !== 'blob') return type === 'tree' ? true : null;
      const mode = await entry.mode();
      // A symbolic link (120000) names a path, and a submodule another repository: neither is a file of the docs.
      if (mode !== 0o100644 && mode !== 0o100755) return null;
      const content = await entry.content();
      if (!content) return null;
      bytes += content.byteLength;
      if (files.size >= limits.maxFiles)
        throw new GitRemoteError(`The branch holds more than ${limits.maxFiles} files`, 'too-large');
      if (bytes > limits.maxBytes)
        throw new GitRemoteError(`The branch's files are over ${limits.maxBytes} bytes`, 'too-large');
      files.set(filepath, content);
      return null;
    },
  });
  return files;
}

/** The files of the branch's tip, within the limits. */
export async function readBranch(remote: GitRemote, context: GitContext): Promise<BranchFiles> {
  const http = guardedGitHttp(context.fetcher, context.limits);
  try {
    return await withWorkdir(async (dir) => {
      const commit = await fetchTip(dir, http, remote);
      return { commit, files: commit === null ? new Map() : await treeFiles(dir, commit, context.limits) };
    });
  } catch (error) {
    throw describeGitFailure(remote.url, error);
  }
}

export interface FilesChange {
  /** The tip the files go on top of; null: the branch must not exist yet. */
  expected: string | null;
  files: ReadonlyMap<string, Uint8Array>;
  /**
   * The tip's files that stay beside `files` (those `files` does not name),
   * chosen from the tip's files; by default none: `files` is the whole tree.
   */
  keep?: (tip: ReadonlyMap<string, Uint8Array>) => ReadonlySet<string>;
  message: string;
  author: GitAuthor;
}

/**
 * Commits `files` (with the tip's files `keep` names) as the branch's tree on
 * top of `expected` and pushes it, fast-forward only.
 */
export async function commitFiles(remote: GitRemote, change: FilesChange, context: GitContext): Promise<PushOutcome> {
  foldersOf(change.files);
  const http = guardedGitHttp(context.fetcher, context.limits);
  try {
    return await withWorkdir(async (dir) => {
      const tip = await fetchTip(dir, http, remote);
      if (tip !== change.expected) return { result: 'behind', tip };
      const whole = new Map<string, Uint8Array>();
      if (tip !== null && change.keep) {
        const tipFiles = await treeFiles(dir, tip, context.limits);
        const kept = change.keep(tipFiles);
        for (const [path, content] of tipFiles) if (kept.has(path)) whole.set(path, content);
      }
      for (const [path, content] of change.files) whole.set(path, content);
      const tree = await writeFolder(dir, foldersOf(whole));
      if (tip !== null && (await git.readCommit({ fs, gitdir: dir, oid: tip })).commit.tree === tree) {
        return { result: 'unchanged', commit: tip };
      }
      const person = { ...change.author, timezoneOffset: 0 };
      const commit = await git.writeCommit({
        fs,
        gitdir: dir,
        commit: { message: change.message, tree, parent: tip === null ? [] : [tip], author: person, committer: person },
      });
      await git.writeRef({ fs, gitdir: dir, ref: remote.ref, value: commit, force: true });
      try {
        const pushed = await git.push({
          fs,
          http,
          gitdir: dir,
          url: remote.url,
          ref: remote.ref,
          remoteRef: remote.ref,
          headers: headersOf(remote),
        });
        if (!pushed.ok) return { result: 'behind', tip: await remoteTip(http, remote) };
      } catch (error) {
        // The remote moved between the fetch and the push: its receive-pack refused the stale old value.
        if (error instanceof Errors.PushRejectedError || error instanceof Errors.GitPushError) {
          return { result: 'behind', tip: await remoteTip(http, remote) };
        }
        throw error;
      }
      return { result: 'pushed', commit };
    });
  } catch (error) {
    throw describeGitFailure(remote.url, error);
  }
}

interface Folder {
  files: Map<string, Uint8Array>;
  folders: Map<string, Folder>;
}

/** The files as folders; a path that is not a repository file's is a programming error, thrown before any exchange. */
function foldersOf(files: ReadonlyMap<string, Uint8Array>): Folder {
  const root: Folder = { files: new Map(), folders: new Map() };
  for (const [filepath, content] of files) {
    const parts = filepath.split('/');
    if (parts.some((part) => part === '' || part === '.' || part === '..' || part.toLowerCase() === '.git')) {
      throw new Error(`Not a file path of a repository: ${JSON.stringify(filepath)}`);
    }
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      if (folder.files.has(part)) throw new Error(`A path is both a file and a folder: ${JSON.stringify(filepath)}`);
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { files: new Map(), folders: new Map() }));
      folder = next;
    }
    const name = parts.at(-1)!;
    if (folder.folders.has(name)) throw new Error(`A path is both a file and a folder: ${JSON.stringify(filepath)}`);
    folder.files.set(name, content);
  }
  return root;
}

/** Writes the folders' blobs and trees; returns the root tree. */
async function writeFolder(dir: string, folder: Folder): Promise<string> {
  const entries: TreeEntry[] = [];
  for (const [name, content] of folder.files) {
    const oid = await git.writeBlob({ fs, gitdir: dir, blob: content });
    entries.push({ mode: REGULAR_FILE, path: name, oid, type: 'blob' });
  }
  for (const [name, child] of folder.folders) {
    entries.push({ mode: '040000', path: name, oid: await writeFolder(dir, child), type: 'tree' });
  }
  return git.writeTree({ fs, gitdir: dir, tree: entries });
}
