import { createContext, runInContext } from 'node:vm';

/**
 * Past this, synchronous work counts as hung. The work these tests guard takes
 * milliseconds when it runs in linear time, and minutes to hours when it goes
 * back over its input (a 100 KB quadratic regular expression took 26 s on an
 * idle core): the guard tells a hang from an answer, it is no speed bound.
 */
export const HANG_MS = 10_000;

const context = createContext({ work: undefined as (() => unknown) | undefined });

/**
 * Runs `work` and returns what it returns, or throws if it is still running
 * after `HANG_MS`. A test timeout cannot do this: synchronous work holds the
 * thread its timer would run on, so a test that hangs there never ends. Node's
 * `vm` timeout stops the work itself (a regular expression included).
 */
export function finishes<T>(work: () => T, what = 'the work', hangMs = HANG_MS): T {
  context.work = work;
  try {
    return runInContext('work()', context, { timeout: hangMs }) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new Error(`${what} was still running after ${hangMs} ms: it hangs`);
    throw error;
  } finally {
    context.work = undefined;
  }
}
