import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from './errors.js';

/** A background loop of an instance (the Git Sync worker, the import runs' worker, polling); `stop` waits for its turn under way. */
export interface PollLoop {
  stop(): Promise<void>;
}

export interface PollLoopOptions {
  /** Takes the next thing due and does it; false when nothing was due. */
  next: () => Promise<boolean>;
  /** How long to wait once nothing is due, or after a failed look. */
  idleMs: number;
  log: FastifyBaseLogger;
  /** What a turn does, for the log: `looking for import runs`. */
  what: string;
  /** Called first by `stop`: aborts a turn under way where the loop can. */
  onStop?: () => void;
}

/**
 * Runs `next` again and again while it finds something due, then waits
 * `idleMs` before looking again. A look that fails (the database away) is
 * logged and tried again after the wait, never ending the loop.
 */
export function startPollLoop({ next, idleMs, log, what, onStop }: PollLoopOptions): PollLoop {
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      let ran = false;
      try {
        ran = await next();
      } catch (error) {
        if (isDatabaseUnavailable(error))
          log.warn({ cause: (error as Error).message }, `${what} failed; trying again shortly`);
        else log.error({ err: error }, `${what} failed; trying again shortly`);
      }
      if (ran || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, idleMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      onStop?.();
      wake?.();
      await loop;
    },
  };
}
