import cluster from 'node:cluster';
import { isOurs, WORKER_INDEX_VARIABLE, type FromWorker, type News, type ToWorker } from './messages.js';
import { WorkerCounters } from './rate-limit-counters.js';

/**
 * A worker's side of the channel to the primary (PROCESSES > 1): news to pass
 * on to the other workers and news from them, and the rate-limit counters the
 * primary tallies across workers.
 */
export class WorkerChannel {
  readonly counters: WorkerCounters;
  private readonly listeners = new Set<(news: News) => void>();

  constructor(
    /** This worker's place among the primary's. */
    readonly index: number,
    private readonly send: (message: FromWorker) => void,
    subscribe: (listener: (message: ToWorker) => void) => void,
  ) {
    this.counters = new WorkerCounters((reports) => this.send({ quire: 'counted', reports }));
    subscribe((message) => {
      if (message.quire === 'others') this.counters.heard(message.counts);
      else for (const listener of this.listeners) listener(message.news);
    });
  }

  /** The channel of this process, when it is a worker of a primary; undefined when it serves alone. */
  static ofThisProcess(): WorkerChannel | undefined {
    if (!cluster.isWorker || !process.send) return undefined;
    return new WorkerChannel(
      Number(process.env[WORKER_INDEX_VARIABLE] ?? 0),
      (message) => {
        // Once the primary is gone the worker is stopping (see server.ts): nothing is left to tell.
        if (process.connected) process.send!(message);
      },
      (listener) =>
        process.on('message', (message: unknown) => {
          if (isOurs<ToWorker>(message)) listener(message);
        }),
    );
  }

  /** Tells every other worker. */
  tell(news: News): void {
    this.send({ quire: 'news', news });
  }

  /** Hears what the other workers tell. */
  hear(listener: (news: News) => void): void {
    this.listeners.add(listener);
  }

  /** Tells the primary that this worker listens, at `address`. */
  listening(address: string): void {
    this.send({ quire: 'listening', address });
  }
}
