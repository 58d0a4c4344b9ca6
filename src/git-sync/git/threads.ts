import type { Piscina } from 'piscina';
import type { OutboundFetcherOptions } from '../../core/outbound.js';
import { GitRemoteError, type GitFailure } from './errors.js';
import type { GitRemote } from './remote.js';
import type { ReadRepository, RepositoryFingerprints } from '../format/index.js';
import type { BranchFiles, FilesChange, GitLimits, PushOutcome } from './repository.js';
import { ownThreads, type HeldThreads, type ThreadSource } from '../../core/thread-source.js';
import { taskModuleBeside, threadEntry } from '../../core/work-pool.js';

/** What a Git thread is asked to do; everything in it crosses to the thread by structured clone. */
export type GitTask = { outbound: OutboundFetcherOptions; limits: GitLimits; remote: GitRemote } & (
  | { kind: 'read' }
  | { kind: 'read-repository'; projectDirectory: string }
  | { kind: 'commit'; change: CommitChange }
);

/**
 * A commit as the thread is asked for one: `keepOutsideSpace` keeps the tip's
 * files that are not the space's in the Git Sync repository at
 * `projectDirectory` (keptBesideSpace in worker.ts).
 */
export type CommitChange = Omit<FilesChange, 'keep'> & { keepOutsideSpace?: { projectDirectory: string } };

/** A branch's tip read as a Git Sync repository: its content and problems, or null when the branch does not exist. */
export interface RepositoryAtTip {
  commit: string | null;
  read: ReadRepository | null;
}

/** A commit's outcome; one that wrote a space's repository (`keepOutsideSpace`) has its fingerprints. */
export type CommitOutcome = PushOutcome & { fingerprints?: RepositoryFingerprints };

export type GitTaskOutcome =
  | { ok: true; value: BranchFiles | RepositoryAtTip | CommitOutcome }
  | { ok: false; message: string; failure: GitFailure };

export interface GitThreadsOptions {
  threads: number;
  /** For a whole read or commit; past it the thread is stopped and replaced. */
  operationTimeoutMs: number;
  /** The fetcher's guard (allowPrivate, userAgent); its time and byte limits are the Git ones below. */
  outbound: OutboundFetcherOptions;
  maxBytes: number;
  maxFiles: number;
  exchangeTimeoutMs: number;
  onThreadError: (error: unknown) => void;
  /** Where its threads come from: by default its own, stopped when it closes. */
  threadSource?: ThreadSource;
}

const WORKER_MODULE = taskModuleBeside(import.meta.url, 'worker');

/** Memory a Git thread may use: a branch's pack and files are held whole, within GIT_SYNC_MAX_BYTES. */
const THREAD_HEAP_MB = 2048;

/**
 * Reads and commits of Git branches on their own threads, built once by the
 * app: one operation per thread at a time, each with a deadline.
 */
export class GitThreads {
  private readonly threads: HeldThreads;
  private readonly pool: Piscina;

  constructor(private readonly options: GitThreadsOptions) {
    this.threads = (options.threadSource ?? ownThreads).hold(
      {
        ...threadEntry(WORKER_MODULE),
        minThreads: 0,
        maxThreads: options.threads,
        concurrentTasksPerWorker: 1,
        idleTimeout: 60_000,
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      },
      options.onThreadError,
    );
    this.pool = this.threads.pool;
  }

  /** The files of the branch's tip; a remote's failure is thrown as a GitRemoteError. */
  async readBranch(remote: GitRemote, signal?: AbortSignal): Promise<BranchFiles> {
    return (await this.run({ kind: 'read', remote, ...this.shared() }, signal)) as BranchFiles;
  }

  /** The branch's tip read as a Git Sync repository, its reading on the thread too. */
  async readRepository(remote: GitRemote, projectDirectory: string, signal?: AbortSignal): Promise<RepositoryAtTip> {
    return (await this.run(
      { kind: 'read-repository', remote, projectDirectory, ...this.shared() },
      signal,
    )) as RepositoryAtTip;
  }

  /** Commits the files on top of `expected` and pushes them, fast-forward only. */
  async commitFiles(remote: GitRemote, change: CommitChange, signal?: AbortSignal): Promise<CommitOutcome> {
    return (await this.run({ kind: 'commit', remote, change, ...this.shared() }, signal)) as CommitOutcome;
  }

  async close(): Promise<void> {
    await this.threads.release();
  }

  private shared() {
    const { outbound, maxBytes, maxFiles, exchangeTimeoutMs } = this.options;
    return {
      outbound: { ...outbound, timeoutMs: exchangeTimeoutMs, maxBytes },
      limits: { maxBytes, maxFiles, timeoutMs: exchangeTimeoutMs },
    };
  }

  private async run(task: GitTask, signal?: AbortSignal): Promise<BranchFiles | RepositoryAtTip | CommitOutcome> {
    const stop = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, this.options.operationTimeoutMs);
    const stopWithCaller = () => stop.abort();
    signal?.addEventListener('abort', stopWithCaller, { once: true });
    try {
      const outcome = (await this.pool.run(task, { signal: stop.signal })) as GitTaskOutcome;
      if (!outcome.ok) throw new GitRemoteError(outcome.message, outcome.failure);
      return outcome.value;
    } catch (error) {
      if (timedOut) {
        throw new GitRemoteError(
          `The Git operation took longer than ${this.options.operationTimeoutMs} ms and was stopped`,
          'timeout',
        );
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new GitRemoteError('The branch needs more memory than a Git thread may use', 'too-large');
      }
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stopWithCaller);
    }
  }
}

declare module '../../context.js' {
  interface Context {
    /** Git Sync's reads and commits of branches, on threads of their own through the same guard as `outbound`. */
    git: GitThreads;
  }
}
