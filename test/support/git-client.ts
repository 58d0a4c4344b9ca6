import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The real `git` client for the tests, in a throwaway HOME so no user or
 * system configuration applies, and with no credential helper or prompt:
 * what it does is what Debian's git does against the service.
 */
export interface GitClient {
  /** A folder for a working copy. */
  root: string;
  /** Runs git; resolves with its output whatever its exit code. */
  run(args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Runs git and fails the test unless it exits 0. */
  ok(args: string[], cwd?: string): Promise<string>;
  write(file: string, text: string | Uint8Array): Promise<void>;
  read(file: string): Promise<string>;
  close(): Promise<void>;
}

export async function gitClient(): Promise<GitClient> {
  const root = await mkdtemp(path.join(tmpdir(), 'git-client-'));
  const home = path.join(root, '.home');
  await mkdir(home);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Writer',
    GIT_AUTHOR_EMAIL: 'writer@example.com',
    GIT_COMMITTER_NAME: 'Writer',
    GIT_COMMITTER_EMAIL: 'writer@example.com',
    LANG: 'C',
  };
  const run = (args: string[], cwd = root) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'git',
        ['-c', 'credential.helper=', '-c', 'init.defaultBranch=main', ...args],
        { cwd, env, maxBuffer: 256 << 20 },
        (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
        },
      );
    });
  return {
    root,
    run,
    async ok(args, cwd) {
      const result = await run(args, cwd);
      if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
      return result.stdout;
    },
    async write(file, text) {
      const full = path.join(root, file);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, text);
    },
    read: (file) => readFile(path.join(root, file), 'utf8'),
    close: () => rm(root, { recursive: true, force: true }),
  };
}
