/**
 * The Git threads' task module: reading and committing a branch run here,
 * never on the event loop (isomorphic-git inflates packs and hashes objects
 * in JavaScript). A remote's failure comes back as a value, to be shown in
 * the sync's status; anything else is a defect and is thrown.
 */
import { createOutboundFetcher } from '../../core/outbound.js';
import { readRepository, type NestedEntry, type TopLevelEntry } from '../format/index.js';
import { joinPath } from '../format/paths.js';
import { GitRemoteError } from './errors.js';
import { commitFiles, readBranch } from './repository.js';
import type { GitTask, GitTaskOutcome } from './threads.js';

export default async function runGitTask(task: GitTask): Promise<GitTaskOutcome> {
  const context = { fetcher: createOutboundFetcher(task.outbound), limits: task.limits };
  try {
    if (task.kind === 'read') return { ok: true, value: await readBranch(task.remote, context) };
    if (task.kind === 'read-repository') {
      const { commit, files } = await readBranch(task.remote, context);
      const read = commit === null ? null : readRepository(files, { projectDirectory: task.projectDirectory });
      return { ok: true, value: { commit, read } };
    }
    const { keepOutsideSpace, ...change } = task.change;
    const keep = keepOutsideSpace && ((tip: ReadonlyMap<string, Uint8Array>) => keptBesideSpace(tip, keepOutsideSpace));
    const outcome = await commitFiles(task.remote, { ...change, ...(keep ? { keep } : {}) }, context);
    if (outcome.result === 'behind' || !keepOutsideSpace) return { ok: true, value: outcome };
    // What the branch now holds of the space, for the next sync to tell Git's changes from the space's.
    const { fingerprints } = readRepository(change.files, { projectDirectory: keepOutsideSpace.projectDirectory });
    return { ok: true, value: { ...outcome, fingerprints } };
  } catch (error) {
    if (error instanceof GitRemoteError) return { ok: false, message: error.message, failure: error.failure };
    throw error;
  }
}

function* pagePaths(entries: ReadonlyArray<TopLevelEntry | NestedEntry>): Generator<string> {
  for (const entry of entries) {
    if (entry.kind === 'page') yield entry.path;
    if (entry.kind !== 'link') yield* pagePaths(entry.children);
  }
}

/**
 * The tip's files an export keeps beside the space's: every file but the
 * pages the tip's own Git Sync content lists (the space's pages as they were,
 * which the export writes anew or, gone from the space, removes). A markdown
 * file SUMMARY.md does not list is not the space's, so it stays, as do
 * assets, which other branches' pages may still show.
 */
function keptBesideSpace(tip: ReadonlyMap<string, Uint8Array>, at: { projectDirectory: string }): Set<string> {
  const { content } = readRepository(tip, { projectDirectory: at.projectDirectory });
  const root = joinPath(at.projectDirectory, content.config.root) ?? at.projectDirectory;
  const listed = new Set([...pagePaths(content.entries)].map((path) => (root ? `${root}/${path}` : path)));
  return new Set([...tip.keys()].filter((path) => !listed.has(path)));
}
