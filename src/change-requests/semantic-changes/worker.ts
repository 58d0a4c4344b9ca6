/**
 * The revision diff pool's task, on a worker thread, never on the event
 * loop: two revisions compared, and each changed page's documents diffed
 * block by block.
 */
import { serveTasks, taskOutcome, type TaskOutcome } from '../../core/work-pool.js';
import { revisionDiff, type RevisionDiff, type RevisionDiffInput } from './revision-diff.js';

export function diffRevisions(input: RevisionDiffInput): TaskOutcome<RevisionDiff> {
  return taskOutcome(() => revisionDiff(input));
}

export default serveTasks({ diffRevisions });
