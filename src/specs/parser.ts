import { WorkPool } from '../core/work-pool.js';
import type { BuildInput, BuildResult, ListRefsInput, ListRefsResult } from './parser-tasks.js';

export type { BuildInput, BuildResult, ListRefsInput, ListRefsResult } from './parser-tasks.js';

/** The task module beside this one, in the form the service runs from (built JavaScript, or TypeScript source). */
const TASK_MODULE = new URL(`./parser-tasks${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export interface SpecParserOptions {
  /** How long one task may run (SPEC_PROCESS_TIMEOUT_MS); past it the task is stopped and the spec fails to parse. */
  timeoutMs: number;
  /** Threads; a worker processes one spec at a time, so one is enough for it. */
  threads?: number;
  onThreadError: (error: unknown) => void;
}

/**
 * Every parse of a spec, on worker threads: a spec is a stranger's file of
 * up to SPEC_MAX_BYTES, and parsing, hashing and validating it would hold
 * the event loop for seconds. A task past its deadline (or out of memory)
 * fails with a 400-class error naming the file, which processing records as
 * a PARSE_ERROR.
 */
export class SpecParser {
  private readonly pool: WorkPool;

  constructor(options: SpecParserOptions) {
    const threads = options.threads ?? 1;
    this.pool = new WorkPool({
      filename: TASK_MODULE,
      threads,
      timeoutMs: options.timeoutMs,
      msPerKib: 0,
      maxQueue: threads * 8,
      onThreadError: options.onThreadError,
    });
  }

  /** The file's format and the other files its $refs name. */
  listRefs(input: ListRefsInput): Promise<ListRefsResult> {
    return this.pool.run('listRefs', input, { field: input.name, characters: input.text.length });
  }

  /** The whole spec checked, validated and made ready to store, or what is wrong with it. */
  build(input: BuildInput): Promise<BuildResult> {
    const characters = input.files.reduce((sum, file) => sum + file.text.length, 0);
    return this.pool.run('build', input, { field: 'The spec', characters });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
