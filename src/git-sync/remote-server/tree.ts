import type { Context } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { runGit } from './git-process.js';

/**
 * A commit's files by path, read with `git ls-tree` and `git cat-file`:
 * regular files only (a symbolic link names a path, a submodule another
 * repository), within GIT_SYNC_MAX_FILES and GIT_SYNC_MAX_BYTES, as a
 * branch Git Sync imports is.
 */
export async function readCommitFiles(context: Context, gitDir: string, commit: string) {
  const { maxFiles, maxBytes } = context.config.gitSync;
  const timeoutMs = context.config.gitRemote.timeoutMs;
  const { stdout: listing } = await runGit(['ls-tree', '-r', '-z', '--long', '--full-tree', commit], {
    gitDir,
    timeoutMs,
  });
  const entries: Array<{ sha: string; path: string; size: number }> = [];
  let total = 0;
  for (const record of listing.toString('utf8').split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, sha, size] = record.slice(0, tab).split(/ +/);
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755')) continue;
    entries.push({ sha: sha!, path: record.slice(tab + 1), size: Number(size) });
    total += Number(size);
    if (entries.length > maxFiles) throw new ApiError(400, `the commit holds more than ${maxFiles} files`);
    if (total > maxBytes) throw new ApiError(400, `the commit's files are over ${maxBytes} bytes together`);
  }
  const files = new Map<string, Uint8Array>();
  if (entries.length === 0) return files;
  const { stdout } = await runGit(['cat-file', '--batch'], {
    gitDir,
    timeoutMs,
    input: `${entries.map((entry) => entry.sha).join('\n')}\n`,
    maxOutputBytes: total + entries.length * 64 + 1024,
  });
  // Each object: "<sha> blob <size>\n", its bytes, "\n"; in the order asked.
  let offset = 0;
  for (const entry of entries) {
    const end = stdout.indexOf(0x0a, offset);
    const header = stdout.subarray(offset, end).toString('latin1').split(' ');
    const size = Number(header[2]);
    files.set(entry.path, new Uint8Array(stdout.subarray(end + 1, end + 1 + size)));
    offset = end + 1 + size + 1;
  }
  return files;
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(context: Context, gitDir: string, ancestor: string, descendant: string) {
  const { code } = await runGit(['merge-base', '--is-ancestor', ancestor, descendant], {
    gitDir,
    timeoutMs: context.config.gitRemote.timeoutMs,
    okCodes: [1],
  });
  return code === 0;
}
