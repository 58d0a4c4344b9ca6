import { taskModuleBeside, WorkPool } from '../../core/work-pool.js';
import type { ReadRepository } from '../format/index.js';

const WORKER_MODULE = taskModuleBeside(import.meta.url, 'read-worker');

/**
 * A pushed commit's files read as a Git Sync repository on a thread of its
 * own, within the remote's deadline: SUMMARY.md, frontmatter and YAML are
 * user input, never parsed on the event loop. One thread, started on the
 * first push and ended when idle.
 */
export class PushReader {
  private readonly pool: WorkPool;

  constructor(timeoutMs: number, onThreadError: (error: unknown) => void) {
    this.pool = new WorkPool({
      filename: WORKER_MODULE,
      threads: 1,
      timeoutMs,
      msPerKib: 0,
      maxQueue: 64,
      queueWaitMs: timeoutMs,
      onThreadError,
    });
  }

  async read(files: Map<string, Uint8Array>): Promise<ReadRepository> {
    let bytes = 0;
    for (const content of files.values()) bytes += content.byteLength;
    return this.pool.run<ReadRepository>('read-repository', files, { field: 'The pushed commit', characters: bytes });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
