import { taskModuleBeside, type WorkPool, type WorkPoolOptions } from '../core/work-pool.js';
import type { BuildInput, BuildResult, ListRefsInput, ListRefsResult } from './parser-tasks.js';

export type { BuildInput, BuildResult, ListRefsInput, ListRefsResult } from './parser-tasks.js';

const TASK_MODULE = taskModuleBeside(import.meta.url, 'parser-tasks');

/**
 * The pool specs are parsed on, built once by the app: one thread (a worker
 * processes one spec at a time), SPEC_PROCESS_TIMEOUT_MS a task.
 */
export function specParserPool(
  specs: { processTimeoutMs: number },
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  const threads = 1;
  return {
    filename: TASK_MODULE,
    threads,
    timeoutMs: specs.processTimeoutMs,
    msPerKib: 0,
    maxQueue: threads * 8,
    onThreadError,
  };
}

/**
 * Every parse of a spec, on worker threads: a spec is a stranger's file of
 * up to SPEC_MAX_BYTES, and parsing, hashing and validating it would hold
 * the event loop for seconds. A task past its deadline (or out of memory)
 * fails with a 400-class error naming the file, which processing records as
 * a PARSE_ERROR.
 */
export class SpecParser {
  /**
   * `pool` runs specParserPool's tasks; when `stop` aborts, the parse under
   * way ends at once and fails as a fault of the service's, not the spec's.
   */
  constructor(
    private readonly pool: WorkPool,
    private readonly stop?: AbortSignal,
  ) {}

  /** The file's format and the other files its $refs name. */
  listRefs(input: ListRefsInput): Promise<ListRefsResult> {
    return this.pool.run('listRefs', input, { field: input.name, characters: input.text.length }, this.stop);
  }

  /** The whole spec checked, validated and made ready to store, or what is wrong with it. */
  build(input: BuildInput): Promise<BuildResult> {
    const characters = input.files.reduce((sum, file) => sum + file.text.length, 0);
    return this.pool.run('build', input, { field: 'The spec', characters }, this.stop);
  }
}
