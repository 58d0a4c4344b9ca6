import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from './database.js';
import type { LagTolerantReads } from './replica.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A read that may lag behind the primary (a list, a search, a reader
     * page): with DATABASE_REPLICA_URL it may run on the replica, within
     * read-your-writes for a `caller`, within the lag bound for a `visitor`.
     * The handler reads through `lagTolerant(ctx, request)` (context.ts).
     */
    lagTolerant?: 'caller' | 'visitor';
  }
  interface FastifyRequest {
    /** The database a `lagTolerant` route reads, chosen before its handler (and its kept answer's version); null elsewhere. */
    lagTolerantDb: Db | null;
  }
}

const primaryOnly = new AsyncLocalStorage<true>();

/** Runs `work` with every lag-tolerant read in it on the primary: for a check that must see the newest state. */
export function onPrimary<T>(work: () => Promise<T>): Promise<T> {
  return primaryOnly.run(true, work);
}

/** Whether the running work must see the newest state (it runs in `onPrimary`). */
export function readsPrimaryOnly(): boolean {
  return primaryOnly.getStore() === true;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface ReadRoutingOptions {
  /** Undefined: one database, and every read on it. */
  reads: LagTolerantReads | undefined;
  /** Whose writes a request's reads must see: the same key for all of a user's tokens. */
  callerKey: (request: FastifyRequest) => string | undefined;
}

/**
 * Sends the reads of `lagTolerant` routes to the replica when they may go
 * there, and remembers each caller's acknowledged writes (before the answer
 * leaves) so that their next reads, on any instance, see them.
 */
export const readRoutingPlugin = fp<ReadRoutingOptions>(
  async (app, { reads, callerKey }) => {
    app.decorateRequest('lagTolerantDb', null);
    if (!reads) return;

    app.addHook('onRoute', (route) => {
      const kind = route.config?.lagTolerant;
      if (!kind) return;
      const choose: preHandlerAsyncHookHandler = async (request) => {
        if (primaryOnly.getStore()) return;
        request.lagTolerantDb = await reads.forCaller(kind === 'visitor' ? undefined : callerKey(request));
      };
      const existing = route.preHandler;
      route.preHandler = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), choose];
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (!WRITES.has(request.method) || reply.statusCode >= 400) return payload;
      const key = callerKey(request);
      if (key !== undefined) await reads.wrote(key);
      return payload;
    });
  },
  { name: 'read-routing' },
);
