/**
 * The Git threads' task module: reading and committing a branch run here,
 * never on the event loop (isomorphic-git inflates packs and hashes objects
 * in JavaScript). A remote's failure comes back as a value, to be shown in
 * the sync's status; anything else is a defect and is thrown.
 */
import { createOutboundFetcher } from '../../core/outbound.js';
import { readRepository } from '../format/index.js';
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
    return { ok: true, value: await commitFiles(task.remote, task.change, context) };
  } catch (error) {
    if (error instanceof GitRemoteError) return { ok: false, message: error.message, failure: error.failure };
    throw error;
  }
}
