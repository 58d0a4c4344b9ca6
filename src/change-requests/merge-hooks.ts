import type { Db } from '../db/database.js';

/** A merge into a space, told to the domains above that act on one (Git Sync's export of each merge). */
export interface MergeEvent {
  organizationId: string;
  spaceId: string;
  changeRequestId: string;
  /** The space's revision the merge made. */
  revisionId: string;
  /** Who merged. */
  userId: string;
  /** Who asked for it: a user (the API), or Git Sync writing what a Git branch changed. */
  origin: MergeOrigin;
}

export type MergeOrigin = 'user' | 'git-sync';

/**
 * Runs in the merge's transaction, with it: what it records stays exactly
 * when the merge does. It must be short (the space is locked) and may throw
 * only to refuse the merge.
 */
export type MergeHook = (tx: Db, merge: MergeEvent) => Promise<void>;

declare module '../context.js' {
  interface Context {
    /** Told of every merge into a space, in its transaction; set by the app from the domains that need it. */
    mergeHooks?: readonly MergeHook[];
  }
}
