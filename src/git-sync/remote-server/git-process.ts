import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { tmpdir } from 'node:os';

/**
 * The `git` binary, run for the space remotes: the wire protocol
 * (upload-pack, receive-pack) and the object store (fast-import, cat-file)
 * are Git's own. Every process gets an environment of its own (no user or
 * system configuration, no prompt) and a deadline, past which it is killed;
 * the event loop only streams its input and output.
 */

/** Git as the system's PATH finds it (Debian's /usr/bin/git in the Docker image). */
const GIT = 'git';

export class GitProcessError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** An environment in which no configuration but the repository's and the command line's applies. */
export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmpdir(),
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    ...extra,
  };
}

export interface GitSpawnOptions {
  /** The repository (`--git-dir`), when the command runs in one. */
  gitDir?: string;
  env?: Record<string, string>;
  timeoutMs: number;
}

/** A running `git`, killed at its deadline; `done` settles when it has exited. */
export interface GitChild {
  child: ChildProcessWithoutNullStreams;
  /** Its exit code, or a GitProcessError when it was killed at the deadline or could not start. */
  done: Promise<number>;
  /** The last 8 KiB of its standard error. */
  stderr: () => string;
  kill: () => void;
}

export function spawnGit(args: readonly string[], options: GitSpawnOptions): GitChild {
  const fullArgs = options.gitDir ? [`--git-dir=${options.gitDir}`, ...args] : [...args];
  const child = spawn(GIT, fullArgs, { env: gitEnvironment(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8192);
  });
  // A client that goes away while git writes or reads is not an error of the process.
  child.stdin.on('error', () => {});
  child.stdout.on('error', () => {});
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const done = new Promise<number>((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new GitProcessError(`git could not start: ${error.message}`, false));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new GitProcessError(`git ${args[0]} took longer than ${options.timeoutMs} ms`, true));
      else resolve(code ?? 1);
    });
  });
  return { child, done, stderr: () => stderr, kill: () => child.kill('SIGKILL') };
}

export interface GitRunOptions extends GitSpawnOptions {
  input?: string | Uint8Array;
  /** Most bytes of standard output kept; more is an error. */
  maxOutputBytes?: number;
  /** Exit codes that are answers rather than failures (`merge-base --is-ancestor` says no with 1). */
  okCodes?: readonly number[];
}

/** Runs `git` to its end and returns its standard output; a failing exit is a GitProcessError with its stderr. */
export async function runGit(
  args: readonly string[],
  options: GitRunOptions,
): Promise<{ stdout: Buffer; code: number }> {
  const running = spawnGit(args, options);
  const chunks: Buffer[] = [];
  let size = 0;
  const max = options.maxOutputBytes ?? 64 * 1024 * 1024;
  let overflow = false;
  running.child.stdout.on('data', (chunk: Buffer) => {
    size += chunk.byteLength;
    if (size > max) {
      overflow = true;
      running.kill();
      return;
    }
    chunks.push(chunk);
  });
  running.child.stdin.end(options.input === undefined ? undefined : Buffer.from(options.input));
  const code = await running.done;
  if (overflow) throw new GitProcessError(`git ${args[0]} wrote more than ${max} bytes`, false);
  if (code !== 0 && !(options.okCodes ?? []).includes(code)) {
    throw new GitProcessError(`git ${args[0]} failed (${code}): ${running.stderr().trim().slice(0, 500)}`, false);
  }
  return { stdout: Buffer.concat(chunks), code };
}
