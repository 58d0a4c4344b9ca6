import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from './database.js';

/** The channel the clocks' triggers notify on (migration clock_notifications). */
const CHANNEL = 'quire_clocks';
/** The payload of a clock that belongs to no one organization, or to all. */
const EVERY_ORGANIZATION = '*';
const PING_PREFIX = 'ping:';
/** How often the feed proves that it hears its own notifications; a ping unheard by the next one stops trusting it. */
const PING_INTERVAL_MS = 5_000;
const RECONNECT_MS = 1_000;
/** Organizations whose last move is remembered one by one; past it, every kept version is read again. */
const MAX_ORGANIZATIONS = 100_000;

/**
 * Marks are values of one counter for the whole process, so that a write by
 * any of its pools (another app on the same database, in tests) moves every
 * feed's clocks at once, as `localWrite` says.
 */
let ticks = 0;
let lastLocalWrite = 0;
const tick = () => ++ticks;

/**
 * Every clock moved for every feed of this process: a connection of it that
 * wrote went back to its pool, and the notification may not have come back
 * yet. What this process wrote then shows in its next reads at once.
 */
export function localWrite(): void {
  lastLocalWrite = tick();
}

/**
 * Whether the database's clocks moved since a mark, as PostgreSQL tells it:
 * the versions of kept answers (src/cache-versions.ts) read clocks whose
 * triggers notify `quire_clocks` with the organization that moved, when the
 * change commits. A version read after a mark then holds until its
 * organization's clock moves, and is served again without being read.
 *
 * It trusts only what it can hear: until it has heard its own ping on its
 * listening connection, and whenever that connection is lost or a ping goes
 * unheard for an interval, every mark counts as moved (versions are read
 * again on each request, as without it). A `LISTEN` through PgBouncer in
 * transaction mode hears nothing, so it is caught by the pings too.
 */
export interface ClockFeed {
  /** Whether the feed hears its own notifications now, and is trusted. */
  heard(): boolean;
  /** A mark to take before reading a version; undefined while the feed is not trusted (read it every time). */
  mark(): number | undefined;
  /** Whether a version read after `mark` may have changed since: of `organizationId`, or of several (undefined). */
  movedSince(mark: number, organizationId: string | undefined): boolean;
  close(): Promise<void>;
}

export interface ClockFeedOptions {
  /** Where to LISTEN: PostgreSQL itself (not a pooler in transaction mode). */
  listenUrl: string;
  /** The service's database, which the pings go through as the writers' notifications do. */
  db: Db;
  logger: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

export class ListeningClockFeed implements ClockFeed {
  /** The tick when every clock last moved (a `*`, or the feed lost or regained). */
  private everything = 0;
  /** The tick at the last event of any organization. */
  private anything = 0;
  private readonly organizations = new Map<string, number>();
  private trusted = false;
  private client: pg.Client | undefined;
  private closed = false;
  private readonly instance = randomUUID();
  private pingSent = 0;
  private pingHeard = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private warned = false;

  constructor(private readonly options: ClockFeedOptions) {}

  heard(): boolean {
    return this.trusted;
  }

  mark(): number | undefined {
    return this.trusted ? ticks : undefined;
  }

  movedSince(mark: number, organizationId: string | undefined): boolean {
    if (!this.trusted || this.everything > mark || lastLocalWrite > mark) return true;
    if (organizationId === undefined) return this.anything > mark;
    return (this.organizations.get(organizationId) ?? 0) > mark;
  }

  private movedEverything(): void {
    this.everything = this.anything = tick();
  }

  /** Starts listening; the feed is trusted once its first ping comes back. Never throws: it retries. */
  start(): void {
    void this.connect();
    this.every(PING_INTERVAL_MS, () => void this.ping());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.distrust();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private hear(payload: string): void {
    if (payload.startsWith(PING_PREFIX)) {
      const [instance, sequence] = payload.slice(PING_PREFIX.length).split('/');
      if (instance !== this.instance) return;
      this.pingHeard = Math.max(this.pingHeard, Number(sequence));
      if (!this.trusted && this.pingHeard === this.pingSent) this.trust();
      return;
    }
    const count = tick();
    this.anything = count;
    if (payload === EVERY_ORGANIZATION) this.everything = count;
    else {
      if (this.organizations.size >= MAX_ORGANIZATIONS) {
        this.organizations.clear();
        this.everything = count;
      }
      this.organizations.set(payload, count);
    }
  }

  private trust(): void {
    this.movedEverything();
    this.trusted = true;
    if (this.warned)
      this.options.logger.info('clock feed heard again: kept versions are trusted until their clocks move');
    this.warned = false;
  }

  /**
   * Stops trusting the feed, saying why once per episode: at `info` when the
   * server ended the session as it shut down (57P01), as the pool does.
   */
  private distrust(cause?: string, code?: string): void {
    if (this.trusted) this.movedEverything();
    this.trusted = false;
    if (cause === undefined || this.warned || this.closed) return;
    this.warned = true;
    const line = 'clock feed connection lost: kept answers read their version every time';
    if (code === '57P01') this.options.logger.info({ cause }, line);
    else this.options.logger.warn({ cause }, line);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.options.listenUrl });
    const lost = (error?: Error & { code?: string }) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.distrust(error?.message ?? 'the listening connection ended', error?.code);
      void client.end().catch(() => undefined);
      this.after(RECONNECT_MS, () => void this.connect());
    };
    client.on('notification', (message) => {
      if (message.channel === CHANNEL) this.hear(message.payload ?? '');
    });
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.closed) await client.end();
      else void this.ping();
    } catch (error) {
      lost(error as Error & { code?: string });
    }
  }

  /** Notifies the feed's own ping through the service's database; one unheard since the last stops the trust. */
  private async ping(): Promise<void> {
    // Timers run before pending I/O: after the event loop was held, the last ping may wait unread on the socket.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.closed || !this.client) return;
    if (this.pingHeard < this.pingSent) this.distrust(`its ping went unheard for ${PING_INTERVAL_MS} ms`);
    const sequence = ++this.pingSent;
    try {
      await sql`select pg_notify(${CHANNEL}, ${`${PING_PREFIX}${this.instance}/${sequence}`})`.execute(this.options.db);
    } catch (error) {
      this.distrust((error as Error).message);
    }
  }

  private after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private every(ms: number, run: () => void): void {
    this.after(ms, () => {
      run();
      this.every(ms, run);
    });
  }
}
