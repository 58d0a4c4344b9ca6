import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CompiledQuery } from 'kysely';
import type { Db } from '../db/database.js';
import { digestStatement, joinedDigests, ReadRecording, recordReads } from '../db/read-recording.js';
import { WeightedLru } from './weighted-lru.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's answer is made from the caller, the URL and the rows its
     * reads return, and nothing else: no clock, no cache of this instance, no
     * fetch. Its answers may then be kept and served again while its reads
     * return the same rows (the answer store).
     */
    replayable?: boolean;
  }
}

/** An answer kept with what it was made from. */
interface StoredAnswer {
  payload: Buffer;
  /** Headers the handler set, beyond those every reply gets. */
  headers: Record<string, string>;
  /** The handler's reads, each as the statement that returns the digest of its rows, and those digests when the answer was made. */
  replays: Array<{ text: string; values: readonly unknown[] }>;
  digests: string;
  /** Of the payload: a strong validator for If-None-Match. */
  etag: string;
  /** How many answers in a row for this key were outdated by the time they were asked for again. */
  outdated: number;
  /** Requests left to answer without checking or recording (see `SKIPS_AFTER`). */
  skips: number;
}

/**
 * After its answers were outdated this many times in a row, a key's next
 * requests run as if the store were not there (2, 4 … up to 64 of them), and
 * the one after checks again. A list that changes before every read then
 * costs the store one check and one recording in up to 65 requests instead
 * of each time (a read after each change cost 4.4 ms with them and 3.1 ms
 * without); once it stops changing, it is kept again within 65 requests.
 */
const SKIPS_AFTER = 2;
const MAX_SKIPS = 64;
const skipsFor = (outdated: number) => (outdated < SKIPS_AFTER ? 0 : Math.min(2 ** (outdated - 1), MAX_SKIPS));

/** About what a value of the replay's parameters and the entry's bookkeeping weigh, in bytes. */
const VALUE_WEIGHT = 64;
/** An answer made from more reads than this is not kept: checking it would cost about as much as making it. */
const MAX_READS = 32;
const ENTRY_WEIGHT = 512;

const weigh = (answer: StoredAnswer) =>
  answer.replays.reduce(
    (total, replay) => total + replay.text.length + replay.values.length * VALUE_WEIGHT,
    answer.payload.length + ENTRY_WEIGHT,
  );

export interface AnswerStoreOptions {
  db: Db;
  /** The most bytes of answers kept; 0 keeps none. */
  capacityBytes: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    answerStore: {
      /** Its entries and weight now, its bound, and how many answers it served, made, and left to their handler: for monitoring. */
      stats(): { entries: number; bytes: number; maxBytes: number; hits: number; misses: number; skipped: number };
      /** Drops every kept answer (they are made again as requests come). */
      clear(): void;
    };
  }
}

/**
 * Keeps the answers of `replayable` GET routes, each with the digest of
 * every row its handler read, and answers the same request again with the
 * same bytes when one statement running those reads again finds the same
 * rows. The reads still run on every request, so an answer is never stale
 * and a change made through any instance shows at once; what a kept answer
 * saves is making it (parsing rows, presenting and serialising them).
 *
 * Kept per token and URL: the caller is part of what the reads return (their
 * membership, their role), and the token's scopes were checked before the
 * handler. An answer is kept only if every statement its handler ran was a
 * plain read, and only for a 200.
 */
export const answerStorePlugin = fp<AnswerStoreOptions>(
  async (app: FastifyInstance, { db, capacityBytes }) => {
    const store = new WeightedLru<string, StoredAnswer>(capacityBytes, weigh);
    let hits = 0;
    let misses = 0;
    let skipped = 0;
    app.decorate('answerStore', {
      stats: () => ({ entries: store.size, bytes: store.weight, maxBytes: capacityBytes, hits, misses, skipped }),
      clear: () => store.clear(),
    });
    if (capacityBytes === 0) return;

    /** The digests the reads return now, joined, or undefined if one failed (the handler then answers). */
    const digestsNow = async (replays: StoredAnswer['replays']) => {
      try {
        const results = await Promise.all(
          replays.map((replay) =>
            db.executeQuery<{ digest: string }>(CompiledQuery.raw(replay.text, [...replay.values])),
          ),
        );
        return results.map((result) => result.rows[0]?.digest).join(' ');
      } catch (error) {
        app.log.warn({ err: error }, 'A kept answer could not be checked; its handler answers');
        return undefined;
      }
    };

    app.addHook('onRoute', (route) => {
      if (!route.config?.replayable) return;
      const handler = route.handler as (
        this: FastifyInstance,
        request: FastifyRequest,
        reply: FastifyReply,
      ) => Promise<unknown>;
      route.handler = async function replayable(this: FastifyInstance, request, reply) {
        const caller = request.caller;
        if (request.method !== 'GET' || !caller) return handler.call(this, request, reply);
        const key = [
          caller.tokenId,
          caller.userId,
          caller.email,
          caller.displayName,
          caller.photoUrl,
          caller.scopes?.join(' '),
          request.url,
        ].join('\n');

        const kept = store.get(key);
        if (kept && kept.skips > 0) {
          kept.skips--;
          skipped++;
          return handler.call(this, request, reply);
        }
        if (kept && (await digestsNow(kept.replays)) === kept.digests) {
          hits++;
          kept.outdated = 0;
          return answer(request, reply, kept);
        }
        misses++;
        const outdated = kept ? kept.outdated + 1 : 0;

        const before = new Set(Object.keys(reply.getHeaders()));
        const recording = new ReadRecording();
        let result: unknown;
        try {
          result = await recordReads(recording, () => handler.call(this, request, reply));
        } finally {
          recording.close();
        }
        const reads = recording.reads.length;
        const keepable = recording.spoiled === undefined && reads > 0 && reads <= MAX_READS;
        if (!keepable || result === reply || reply.sent || reply.statusCode !== 200) {
          if (kept) store.delete(key);
          return result;
        }
        const serialized = reply.serialize(result) as string | Buffer;
        const payload = typeof serialized === 'string' ? Buffer.from(serialized) : serialized;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (!before.has(name) && name !== 'content-type' && typeof value === 'string') headers[name] = value;
        }
        const made: StoredAnswer = {
          payload,
          headers,
          replays: recording.reads.map(digestStatement),
          digests: joinedDigests(recording.reads),
          etag: `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`,
          outdated,
          skips: skipsFor(outdated),
        };
        store.set(key, made);
        return answer(request, reply, made);
      };
    });
  },
  { name: 'answer-store' },
);

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends a kept answer, or 304 to a client that holds it already (its ETag in If-None-Match). */
function answer(request: FastifyRequest, reply: FastifyReply, kept: StoredAnswer) {
  void reply.headers(kept.headers).header('etag', kept.etag);
  if (matches(request.headers['if-none-match'], kept.etag)) return reply.code(304).send();
  return reply.type(JSON_TYPE).send(kept.payload);
}

/** Whether an If-None-Match header names `etag` (or is `*`); weak tags compare by their opaque part. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}
