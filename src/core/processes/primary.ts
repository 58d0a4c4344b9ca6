import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { isOurs, WORKER_INDEX_VARIABLE, type FromWorker, type ToWorker } from './messages.js';
import { CounterTally } from './rate-limit-counters.js';

/** The wait before a worker that exited is started again, doubled for each exit in the last minute. */
const RESTART_DELAY_MS = 1_000;
const MOST_RESTART_DELAY_MS = 30_000;

/** A start that failed because a worker did: the worker has logged why. */
export class StartFailed extends Error {}

export interface RunningWorkers {
  /** Where the workers listen, as the first to listen said. */
  address: string;
  /** Stops every worker (SIGTERM, then SIGKILL after `timeoutMs`); whether all exited cleanly. */
  stop(timeoutMs: number): Promise<boolean>;
}

export interface WorkersOptions {
  count: number;
  /** What each worker's environment adds to this process's. */
  env: Record<string, string>;
  log: Logger;
}

/**
 * Runs `count` workers of this script on one port (node:cluster: the primary
 * accepts connections and hands them round), and resolves once all listen.
 * The primary answers no request: it passes each worker's news to the others,
 * adds up the rate-limit counters, and starts again a worker that exits.
 * A worker that exits before it listens fails the start.
 */
export function startWorkers({ count, env, log }: WorkersOptions): Promise<RunningWorkers> {
  const tally = new CounterTally();
  const workers = new Map<number, Worker>();
  const exits: number[] = [];
  const restartTimers = new Set<NodeJS.Timeout>();
  let stopping = false;

  const send = (worker: Worker, message: ToWorker) => {
    if (worker.isConnected()) worker.send(message);
  };
  const heard = (from: Worker, message: FromWorker) => {
    if (message.quire === 'news') {
      for (const worker of workers.values()) if (worker !== from) send(worker, message);
    } else if (message.quire === 'counted') {
      const byId = new Map([...workers.values()].map((worker) => [worker.id, worker]));
      for (const [id, counts] of tally.add(from.id, message.reports, byId.keys())) {
        if (counts.length > 0) send(byId.get(id)!, { quire: 'others', counts });
      }
    }
  };

  return new Promise((resolve, reject) => {
    let listening = 0;
    let started = false;
    let address = '';
    const fork = (index: number) => {
      const worker = cluster.fork({ ...env, [WORKER_INDEX_VARIABLE]: String(index) });
      workers.set(index, worker);
      worker.on('message', (message: unknown) => {
        if (!isOurs<FromWorker>(message)) return;
        if (message.quire !== 'listening') return heard(worker, message);
        if (started) return log.info({ worker: index }, 'a worker started again and listens');
        address ||= message.address;
        if (++listening < count) return;
        started = true;
        resolve({ address, stop });
      });
      worker.on('exit', (code, signal) => {
        if (workers.get(index) === worker) workers.delete(index);
        if (stopping) return;
        if (!started) {
          // Its own log says why; the others are stopped, and the start fails.
          void stop(5_000).then(() => reject(new StartFailed(`worker ${index} exited before it listened`)));
          return;
        }
        const now = Date.now();
        exits.push(now);
        while (exits[0]! < now - 60_000) exits.shift();
        const delayMs = Math.min(MOST_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** (exits.length - 1));
        log.error({ worker: index, code, signal, restartInMs: delayMs }, 'a worker exited; starting another');
        const timer = setTimeout(() => {
          restartTimers.delete(timer);
          if (!stopping) fork(index);
        }, delayMs);
        restartTimers.add(timer);
      });
    };

    const stop = async (timeoutMs: number): Promise<boolean> => {
      stopping = true;
      for (const timer of restartTimers) clearTimeout(timer);
      const exited = [...workers.values()].map(
        (worker) =>
          new Promise<boolean>((done) => {
            if (worker.isDead()) return done(worker.process.exitCode === 0);
            worker.once('exit', (code) => done(code === 0));
            worker.process.kill('SIGTERM');
          }),
      );
      const killer = setTimeout(() => {
        for (const worker of workers.values()) if (!worker.isDead()) worker.process.kill('SIGKILL');
      }, timeoutMs);
      const clean = await Promise.all(exited);
      clearTimeout(killer);
      return clean.every(Boolean);
    };

    for (let index = 0; index < count; index++) fork(index);
  });
}
