import { countedCache } from '../core/loading-cache.js';
import type { ClockFeed } from '../db/clock-feed.js';
import type { Db } from '../db/database.js';
import { findCurrentRevisionId } from './state.js';

/** Spaces whose current revision is remembered; past it, the least read are read again. */
const SPACES_KEPT = 50_000;

interface Remembered {
  /** The space's current revision then; undefined when no live space of that organization had the id. */
  revisionId: string | undefined;
  /** The clock feed's mark taken before it was read. */
  mark: number;
}

/**
 * The current revision of the spaces the readers show, remembered until
 * their organization's clock moves. A merge, a restore, a deletion or a
 * transfer writes the space's row, which ticks its organization's clock
 * (organization_ticks): while the clock feed hears that no such tick came
 * since a revision id was read, it is still the current one, and the reader
 * serves a page already composed without reading the database.
 *
 * Only reads of the primary are remembered: a replica's may lag the
 * notification that moved the clock, and would then be kept as current.
 */
export class CurrentRevisions {
  private readonly remembered = countedCache<Remembered>(SPACES_KEPT);

  constructor(
    private readonly primary: Db,
    private readonly clocks: ClockFeed | undefined,
  ) {}

  /** The space's current revision id, read from `db` (the primary, or a replica for a read that may lag). */
  async of(space: { id: string; organization_id: string }, db: Db): Promise<string | undefined> {
    const key = `${space.id}|${space.organization_id}`;
    const remembering = db === this.primary && this.clocks !== undefined;
    if (remembering) {
      const kept = this.remembered.get(key);
      if (kept && !this.clocks.movedSince(kept.mark, space.organization_id)) return kept.revisionId;
    }
    // Taken before the read: a merge that commits while it runs moves the clock past the mark.
    const mark = remembering ? this.clocks.mark() : undefined;
    const revisionId = await findCurrentRevisionId(db, space);
    if (mark !== undefined) this.remembered.set(key, { revisionId, mark });
    return revisionId;
  }
}

declare module '../context.js' {
  interface Context {
    /** Spaces' current revisions for the readers, remembered while their organization's clock stands. */
    currentRevisions: CurrentRevisions;
  }
}
