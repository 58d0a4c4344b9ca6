import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database.js';
import type { ClockFeed } from '../db/clock-feed.js';
import { onPrimary, readsPrimaryOnly } from '../db/read-routing.js';
import { PreconditionFailedError } from './errors.js';
import { etagOf, etagOfSent, matchHolds, noneMatchHolds } from './etags.js';
import { sentJsonOf } from './replies.js';

/**
 * What a GET route's answer depends on, read in one statement before its
 * handler runs: a text that changes whenever the answer could (clocks the
 * database ticks, the caller's membership), or null when the answer may not be
 * kept at all (it depends on the time). The same version, the same answer.
 */
export type CacheVersion = (db: Db, request: FastifyRequest) => Promise<Version | null>;

/** A version's value, and the organization whose clocks it reads (undefined: several, or every one). */
export interface Version {
  value: string;
  organizationId: string | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The version this GET route's answer depends on (see CacheVersion): its
     * answers are then kept and served again while the version holds. A route
     * that declares none is never kept.
     */
    cache?: CacheVersion;
  }
  interface FastifyRequest {
    /**
     * Whether the route's handler answers to be kept under the version just
     * read: it must then read nothing older than that version, such as a
     * short-lived cache of its own that another instance's change does not
     * reach. False when it answers only the request at hand.
     */
    answerKept: boolean;
  }
  interface FastifyInstance {
    httpCache: {
      /** Its entries and weight now, its bound, and how many answers it served, made, and left to their handler: for monitoring. */
      stats(): {
        entries: number;
        bytes: number;
        maxBytes: number;
        hits: number;
        /** Of the hits, those served without reading their version: no clock of theirs moved since it was read. */
        unread: number;
        /** Whether the clock feed is heard now (kept versions are trusted unread); null without one. */
        clocksHeard: boolean | null;
        misses: number;
        skipped: number;
      };
      /** Drops every kept answer (they are made again as requests come). */
      clear(): void;
    };
  }
}

export interface HttpCacheOptions {
  db: Db;
  /** The most bytes of answers kept; 0 keeps none (ETags, 304 and 412 still work). */
  capacityBytes: number;
  /** Tells when the clocks moved, so that a version read once holds until then; without it, every request reads it. */
  clocks?: ClockFeed;
}

/** An answer kept with the version it was made at. */
interface KeptAnswer {
  payload: Buffer;
  /** Headers the handler set, beyond those every reply gets. */
  headers: Record<string, string>;
  version: string;
  /** The organization whose clocks the version reads (undefined: several). */
  organizationId: string | undefined;
  /**
   * The clock feed's mark taken before the version was last read and found
   * the same: while no clock of its organization moved since, the version
   * still holds without reading it. Undefined: read it.
   */
  confirmed: number | undefined;
  etag: string;
  /** How many answers in a row for this key were outdated by the time they were asked for again. */
  outdated: number;
  /** Requests left to answer without reading the version (see `SKIPS_AFTER`). */
  skips: number;
}

/**
 * After its answers were outdated this many times in a row, a key's next
 * requests go straight to the handler (2, 4 … up to 64 of them), and the one
 * after reads the version again: a list that changes before every read does
 * not pay for a version read and a copy of its bytes on each request.
 */
const SKIPS_AFTER = 2;
const MAX_SKIPS = 64;
const skipsFor = (outdated: number) => (outdated < SKIPS_AFTER ? 0 : Math.min(2 ** (outdated - 1), MAX_SKIPS));
const ENTRY_WEIGHT = 512;
const weigh = (answer: KeptAnswer) => answer.payload.length + answer.version.length + ENTRY_WEIGHT;

/**
 * Conditional writes that may hold a connection at once: each holds one for
 * its resource's lock while it reads the current answer and writes with
 * others, so that they can never take the whole pool.
 */
const CONDITIONAL_WRITE_LANES = 4;

const JSON_TYPE = 'application/json; charset=utf-8';
/** Headers of the answer's bytes, which each reply sets for itself rather than take from the kept one. */
const ANSWER_HEADERS = new Set(['content-type', 'content-length', 'etag']);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The part of a kept answer's key that names its caller, made once per cached caller rather than per request. */
type Caller = NonNullable<FastifyRequest['caller']>;
const callerKeys = new WeakMap<Caller, string>();
function callerKey(caller: Caller): string {
  let key = callerKeys.get(caller);
  if (key === undefined) {
    key = [
      caller.tokenId,
      caller.userId,
      caller.email,
      caller.displayName,
      caller.photoUrl,
      caller.scopes?.join(' '),
      '',
    ].join('\n');
    callerKeys.set(caller, key);
  }
  return key;
}

type Handler = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * HTTP caching at the edge, as one contract that actions never see:
 * - every JSON answer to a GET carries a strong ETag of its bytes, and
 *   If-None-Match naming it gets a 304;
 * - a GET route that declares `config.cache` (its version) has its answers
 *   kept per caller and URL, and served again, or answered 304, without its
 *   handler while the version, read in one statement, is the one they were
 *   made at;
 * - a write with If-Match runs only while the resource's current answer
 *   (a GET of the same path, as the same caller) still has that ETag, and is
 *   refused with 412 otherwise. Conditional writes of one path wait for each
 *   other across instances (an advisory lock), so that of two editors who
 *   read the same answer, one writes and the other gets the 412.
 *
 * Kept answers are per token and URL: the caller is part of what the answer
 * shows (their membership, their role), and the token's scopes were checked
 * before the handler. The version is read before the handler: a change that
 * lands between the two makes the kept answer newer than its version, never
 * older, and the next request reads a new version.
 */
export const httpCachePlugin = fp<HttpCacheOptions>(
  async (app: FastifyInstance, { db, capacityBytes, clocks }) => {
    // lru-cache needs a bound: with none, nothing is kept (the handlers answer) and this one is never filled.
    const store = new LRUCache<string, KeptAnswer>({ maxSize: Math.max(capacityBytes, 1), sizeCalculation: weigh });
    let hits = 0;
    let unread = 0;
    let misses = 0;
    let skipped = 0;
    app.decorateRequest('answerKept', false);
    app.decorate('httpCache', {
      stats: () => ({
        entries: store.size,
        bytes: store.calculatedSize,
        maxBytes: capacityBytes,
        hits,
        unread,
        clocksHeard: clocks ? clocks.heard() : null,
        misses,
        skipped,
      }),
      clear: () => store.clear(),
    });

    // A callback rather than a promise: it runs on every answer.
    app.addHook('onSend', (request, reply, payload, done) => {
      const read = request.method === 'GET' || request.method === 'HEAD';
      if (!read || reply.statusCode !== 200 || reply.hasHeader('etag')) return done(null, payload);
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
      const etag = etagOfSent(payload);
      void reply.header('etag', etag);
      if (!noneMatchHolds(request.headers['if-none-match'], etag)) return done(null, payload);
      void reply.code(304);
      done(null, '');
    });

    const readVersion = async (version: CacheVersion, request: FastifyRequest): Promise<Version | null> => {
      try {
        // The database the handler reads, so that an answer is never kept under a newer version than it shows.
        return await version(request.lagTolerantDb ?? db, request);
      } catch (error) {
        request.log.warn({ err: error }, 'The version of a kept answer could not be read; its handler answers');
        return null;
      }
    };

    /**
     * Whether a kept answer's version still holds without reading it: no clock
     * of its organization moved since it was read on the primary. A check that
     * must see the newest state (a conditional write's) reads it.
     */
    const holdsUnread = (entry: KeptAnswer) =>
      clocks !== undefined &&
      entry.confirmed !== undefined &&
      !clocks.movedSince(entry.confirmed, entry.organizationId) &&
      !readsPrimaryOnly();

    const keeping = (route: RouteOptions, cache: CacheVersion): Handler => {
      const handler = route.handler as Handler;
      return async function kept(this: FastifyInstance, request, reply) {
        const caller = request.caller;
        if (request.method !== 'GET' || !caller || capacityBytes === 0) return handler.call(this, request, reply);
        const key = callerKey(caller) + request.url;

        const entry = store.get(key);
        if (entry && entry.skips > 0) {
          entry.skips--;
          skipped++;
          return handler.call(this, request, reply);
        }
        if (entry && holdsUnread(entry)) {
          hits++;
          unread++;
          entry.outdated = 0;
          return answer(request, reply, entry);
        }
        // Taken before the read: a clock that moves while it runs moves past the mark. Not for a
        // lag-tolerant read with a replica: its version may lag the feed, and its caller's own
        // writes, made on any instance, must show at once (read-your-writes, docs/cluster.md).
        const mark = request.lagTolerantDb === null ? clocks?.mark() : undefined;
        const version = await readVersion(cache, request);
        if (version === null) {
          if (entry) store.delete(key);
          return handler.call(this, request, reply);
        }
        if (entry?.version === version.value) {
          hits++;
          entry.outdated = 0;
          entry.confirmed = mark;
          return answer(request, reply, entry);
        }
        misses++;
        const outdated = entry ? entry.outdated + 1 : 0;
        const before = new Set(Object.keys(reply.getHeaders()));
        request.answerKept = true;
        const result = await handler.call(this, request, reply);
        // A handler that sent JSON it had serialised already (sendJsonText) has sent its answer: it is kept as sent.
        const sent = result === undefined || result === reply ? sentJsonOf(reply) : undefined;
        if (sent === undefined && (result === undefined || result === reply || reply.sent)) {
          if (entry) store.delete(key);
          return result;
        }
        if (reply.statusCode !== 200) {
          if (entry) store.delete(key);
          return result;
        }
        const serialized = sent ?? (reply.serialize(result) as string | Buffer);
        const payload = typeof serialized === 'string' ? Buffer.from(serialized) : serialized;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (!before.has(name) && !ANSWER_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
        }
        const made: KeptAnswer = {
          payload,
          headers,
          version: version.value,
          organizationId: version.organizationId,
          confirmed: mark,
          etag: etagOf(payload),
          outdated,
          skips: skipsFor(outdated),
        };
        store.set(key, made);
        return sent === undefined ? answer(request, reply, made) : reply;
      };
    };

    let lanes = CONDITIONAL_WRITE_LANES;
    const waiting: Array<() => void> = [];
    const lane = async <T>(work: () => Promise<T>): Promise<T> => {
      if (lanes === 0) await new Promise<void>((resolve) => waiting.push(resolve));
      else lanes--;
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else lanes++;
      }
    };

    /** The ETag of `path`'s current answer to the caller of `request`, or undefined when it has none. */
    const currentEtag = async (request: FastifyRequest, path: string): Promise<string | undefined> => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'cookie'] as const) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const current = await app.inject({ method: 'GET', url: path, headers });
      const etag = current.headers.etag;
      return current.statusCode === 200 && typeof etag === 'string' ? etag : undefined;
    };

    const conditional = (route: RouteOptions): Handler => {
      const handler = route.handler as Handler;
      return async function conditionalWrite(this: FastifyInstance, request, reply) {
        const condition = request.headers['if-match'];
        if (typeof condition !== 'string' || !request.caller) return handler.call(this, request, reply);
        const path = request.url.split('?', 1)[0]!;
        const lockKey = `if-match ${path}`;
        // A transaction's lock, held until it ends: behind PgBouncer in transaction mode a session's
        // lock and unlock, each a transaction of its own, could run on two server connections.
        return lane(() =>
          db.transaction().execute(async (tx) => {
            await sql`select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`.execute(tx);
            // The check reads the primary: a replica that lags could show the ETag another editor's write replaced.
            if (!matchHolds(condition, await onPrimary(() => currentEtag(request, path))))
              throw new PreconditionFailedError(
                'The resource changed since the answer whose ETag is in If-Match: read it again, then write',
              );
            return await handler.call(this, request, reply);
          }),
        );
      };
    };

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.config?.cache && methods.includes('GET')) route.handler = keeping(route, route.config.cache);
      else if (methods.some((method) => WRITES.has(method))) route.handler = conditional(route);
    });
  },
  { name: 'http-cache' },
);

/** Sends a kept answer, or 304 to a client that holds it already (its ETag in If-None-Match). */
function answer(request: FastifyRequest, reply: FastifyReply, kept: KeptAnswer) {
  void reply.headers(kept.headers).header('etag', kept.etag);
  if (noneMatchHolds(request.headers['if-none-match'], kept.etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(kept.payload);
}
