import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { ApiError, BadRequestError } from './api-errors.js';
import { ownThreads, type HeldThreads, type ThreadSource } from './thread-source.js';

/** What a task returns: a value, or a refusal to show the caller as a 400. */
export type TaskOutcome<T> = { ok: true; value: T } | { ok: false; refused: string };

/**
 * Runs a task's work on a worker. Input it refuses (a 400) and input nested
 * past what a parser's own recursion takes (a RangeError) come back as
 * refusals; any other failure is `otherwise`'s to name as a refusal, or, by
 * default, a defect that is thrown.
 */
export function taskOutcome<T>(work: () => T, otherwise?: (error: unknown) => string): TaskOutcome<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return { ok: false, refused: error.message };
    if (error instanceof RangeError) return { ok: false, refused: 'nests too deeply to be read' };
    if (otherwise) return { ok: false, refused: otherwise(error) };
    throw error;
  }
}

/** What a task module's default export is given: the task's name, its input, and where to say it started. */
export interface TaskRequest {
  task: string;
  data: unknown;
  started: MessagePort;
}

type Task = (data: never) => TaskOutcome<unknown>;

/**
 * A task whose modules are imported on its first run in a thread: a thread
 * that never runs it never holds them (the reader's renderer, with its
 * highlighter and math, is some 5 MiB of every conversion thread).
 */
export class LazyTask {
  private loaded: Promise<Task> | undefined;

  constructor(private readonly load: () => Promise<Task>) {}

  task(): Promise<Task> {
    return (this.loaded ??= this.load());
  }
}

/**
 * A task module's default export, serving `tasks` by name. It says when a
 * task starts, once its modules are loaded, so that its deadline counts its
 * own work, not its wait for a thread, the thread's start or an import.
 */
export function serveTasks(tasks: Record<string, Task | LazyTask>) {
  return async ({ task, data, started }: TaskRequest): Promise<TaskOutcome<unknown>> => {
    const entry = tasks[task];
    const work = entry instanceof LazyTask ? await entry.task() : entry;
    started.postMessage(null);
    started.close();
    if (!work) throw new Error(`No task ${task} in this module`);
    return work(data as never);
  };
}

export interface WorkPoolOptions {
  /** The module whose default export runs a TaskRequest: a `.js` file, or `.ts` where the service runs from source. */
  filename: URL;
  threads: number;
  /** How long a task may take before it is stopped, plus `msPerKib` for each KiB of its input. */
  timeoutMs: number;
  msPerKib: number;
  /** Tasks waiting for a thread beyond which new ones are refused with a 503. */
  maxQueue: number;
  /** How long a task may wait for a thread (and the thread to start) before it is refused with a 503; by default five timeouts, ten seconds at least. */
  queueWaitMs?: number;
  /** Told of a thread that failed outside any task (it could not start, for one). */
  onThreadError: (error: unknown) => void;
  /** Where its threads come from: by default its own, stopped when it closes. */
  threadSource?: ThreadSource;
}

/**
 * The task module `name` beside the module at `moduleUrl` (its `import.meta.url`),
 * in the form the service runs from: built JavaScript, or TypeScript source.
 */
export function taskModuleBeside(moduleUrl: string, name: string): URL {
  return new URL(`./${name}${moduleUrl.endsWith('.ts') ? '.ts' : '.js'}`, moduleUrl);
}

/**
 * Where a pool's thread starts, to serve the task module `tasks`: the module
 * itself when built, or from TypeScript source an entry that can load it.
 */
export function threadEntry(tasks: URL): { filename: string; workerData: { tasks: string } } {
  const fromSource = tasks.pathname.endsWith('.ts');
  return {
    filename: fromSource ? new URL('./typescript-tasks.mjs', import.meta.url).href : tasks.href,
    workerData: { tasks: tasks.href },
  };
}

/** The conversions' settings (CONVERSION_THREADS, CONVERSION_TIMEOUT_MS, CONVERSION_QUEUE_WAIT_MS). */
export interface ConversionSettings {
  threads: number;
  timeoutMs: number;
  queueWaitMs: number;
}

/**
 * A pool beside the conversions: as many threads, the same deadline and wait,
 * with its own time per KiB of input and its own queue per thread.
 */
export function poolLikeConversions(
  filename: URL,
  conversion: ConversionSettings,
  own: { msPerKib: number; queuePerThread: number },
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  return {
    filename,
    threads: conversion.threads,
    timeoutMs: conversion.timeoutMs,
    queueWaitMs: conversion.queueWaitMs,
    msPerKib: own.msPerKib,
    maxQueue: conversion.threads * own.queuePerThread,
    onThreadError,
  };
}

/** Where a task's input came from and how large it is: for its deadline and for the caller's message. */
export interface TaskInput {
  field: string;
  characters: number;
}

/** How long a task may wait for a thread by default: five timeouts, ten seconds at least. */
const defaultQueueWaitMs = (timeoutMs: number) => Math.max(10_000, timeoutMs * 5);

/** Memory a task may use before its thread is stopped: far above any page, far below the machine. */
const THREAD_HEAP_MB = 512;
/**
 * A thread's young generation: a conversion's objects live no longer than
 * its task, so a small one costs a few more scavenges, where V8's default
 * (up to 48 MiB) stayed in each idle thread's resident memory.
 */
const THREAD_YOUNG_HEAP_MB = 8;

/**
 * A pool of worker threads for CPU-heavy work on user input, so that the
 * event loop keeps serving everyone else while it runs. Every task has a
 * deadline; a task past it is stopped (its thread is ended and replaced) and
 * answered with a 400 naming the input.
 */
export class WorkPool {
  private readonly threads: HeldThreads;
  private readonly pool: Piscina;

  constructor(private readonly options: WorkPoolOptions) {
    this.threads = (options.threadSource ?? ownThreads).hold(
      {
        ...threadEntry(options.filename),
        minThreads: 0,
        maxThreads: options.threads,
        idleTimeout: 5 * 60_000,
        maxQueue: options.maxQueue,
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_HEAP_MB },
      },
      options.onThreadError,
    );
    this.pool = this.threads.pool;
  }

  /** The deadline of a task on `characters` of input. */
  deadlineMs(characters: number): number {
    return this.options.timeoutMs + Math.ceil(characters / 1024) * this.options.msPerKib;
  }

  /**
   * Runs the task module's task `task` on `data`. Its refusal becomes a 400,
   * and so does running past its deadline; waiting too long for a thread is a 503.
   * When `signal` aborts (its caller stops), the task ends at once and fails
   * with a plain Error: the caller's fault, not the input's.
   */
  async run<T>(task: string, data: unknown, input: TaskInput, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw stopped();
    if (this.pool.queueSize >= this.options.maxQueue) throw busy();
    const deadline = this.deadlineMs(input.characters);
    const stop = new AbortController();
    const stopWithCaller = () => stop.abort();
    signal?.addEventListener('abort', stopWithCaller, { once: true });
    const { port1: startedPort, port2: started } = new MessageChannel();
    let running = false;
    let timer = setTimeout(() => stop.abort(), this.options.queueWaitMs ?? defaultQueueWaitMs(this.options.timeoutMs));
    startedPort.once('message', () => {
      running = true;
      clearTimeout(timer);
      timer = setTimeout(() => stop.abort(), deadline);
    });
    let outcome: TaskOutcome<T>;
    try {
      outcome = (await this.pool.run({ task, data, started } satisfies TaskRequest, {
        signal: stop.signal,
        transferList: [started],
      })) as TaskOutcome<T>;
    } catch (error) {
      if (signal?.aborted) throw stopped();
      if (stop.signal.aborted && !running) throw busy();
      if (stop.signal.aborted) {
        throw new BadRequestError(
          `${input.field} took longer than ${deadline} ms to read and was stopped: it is too large or too complex`,
        );
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new BadRequestError(
          `${input.field} needs more memory to read than a page may use: it is too large or too complex`,
        );
      }
      if ((error as Error).message === 'Task queue is at limit') throw busy();
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stopWithCaller);
      startedPort.close();
    }
    if (!outcome.ok) throw new BadRequestError(`${input.field}: ${outcome.refused}`);
    return outcome.value;
  }

  async close(): Promise<void> {
    await this.threads.release();
  }
}

function stopped(): Error {
  return new Error('The task was stopped: its caller stopped');
}

function busy(): ApiError {
  return new ApiError(503, 'The service is busy converting other content; try again shortly', { 'retry-after': '1' });
}
