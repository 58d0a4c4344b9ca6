/** The push reader's task module (read-pool.ts): a commit's files read as a Git Sync repository. */
import { serveTasks, taskOutcome } from '../../core/work-pool.js';
import { readRepository } from '../format/index.js';

export default serveTasks({
  'read-repository': (files: Map<string, Uint8Array>) => taskOutcome(() => readRepository(files)),
});
