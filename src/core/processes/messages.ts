/*
 * What the processes of one service (PROCESSES > 1) tell one another over
 * node:cluster's channel. A process answering requests (a worker) talks only
 * to the primary, which passes news on to the other workers.
 */

/** Where a worker learns its place from the primary: the first (0) also runs the background work and the first start's setup. */
export const WORKER_INDEX_VARIABLE = 'QUIRE_WORKER_INDEX';

/** Something one worker did that the others must know at once. */
export type News =
  /** A token was revoked or its user renamed: forget its caller. */
  | { kind: 'token-forgotten'; tokenId: string }
  /** A write committed: every kept answer reads its version again. */
  | { kind: 'wrote' };

/**
 * A rate-limit counter's requests admitted since the last report, in the
 * fixed window that began at `start` (ms since the epoch) and lasts `windowMs`.
 */
export type CounterReport = [key: string, start: number, windowMs: number, admitted: number];

/** What every other worker admitted on a counter in its window. */
export type OthersCount = [key: string, start: number, windowMs: number, admitted: number];

export type FromWorker =
  | { quire: 'listening'; address: string }
  | { quire: 'news'; news: News }
  | { quire: 'counted'; reports: CounterReport[] };

export type ToWorker = { quire: 'news'; news: News } | { quire: 'others'; counts: OthersCount[] };

/** Whether a message on the channel is one of ours (node:cluster sends its own on it too). */
export function isOurs<Message extends { quire: string }>(message: unknown): message is Message {
  return typeof message === 'object' && message !== null && typeof (message as { quire?: unknown }).quire === 'string';
}
