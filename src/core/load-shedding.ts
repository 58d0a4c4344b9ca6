import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, errorBody } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: served even while the instance sheds load (the liveness probe). */
    loadShedding?: boolean;
  }
}

export interface LoadSheddingOptions {
  /**
   * The mean delay of the event loop over one sample, in milliseconds, past
   * which requests are refused until a sample comes back under it; 0 turns
   * shedding off.
   */
  maxEventLoopDelayMs?: number;
  /** How often the delay is measured; the state holds from one sample to the next. */
  sampleIntervalMs?: number;
}

export const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 1000;
const DEFAULT_SAMPLE_INTERVAL_MS = 1000;
/** A few samples: long enough for a busy instance to catch up, short enough to come back soon. */
const RETRY_AFTER_SECONDS = 5;

const overloaded = errorBody(new ApiError(503, 'The service is overloaded; retry after the time in Retry-After'));

/**
 * When the event loop lags past the threshold, every request but the liveness
 * probe is answered 503 with Retry-After before any work is done for it, and
 * `/readyz` with it, so that a load balancer sends traffic to other instances
 * while this one catches up. `/healthz` stays 200: the process is alive, and
 * restarting it would only lose the work it is doing.
 */
export const loadSheddingPlugin = fp<LoadSheddingOptions>(
  async (app: FastifyInstance, options) => {
    const sampleIntervalMs = options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
    let lastShedAt = Number.NEGATIVE_INFINITY;

    // under-pressure sends whatever the handler returns (other than nothing or
    // a promise) and stops the request there (its README); returning nothing
    // lets the request through. Its type only admits the latter.
    const shed = (request: FastifyRequest, reply: FastifyReply, _type: string, value: number | undefined): unknown => {
      if (request.routeOptions.config.loadShedding === false) return undefined;
      const now = Date.now();
      // One line per episode of pressure, not one per refused request.
      if (now - lastShedAt > 2 * sampleIntervalMs)
        request.log.warn({ eventLoopDelayMs: value }, 'shedding load: the event loop is lagging');
      lastShedAt = now;
      void reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
      return overloaded;
    };

    await app.register(underPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs ?? DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
      sampleInterval: sampleIntervalMs,
      // The plugin types the handler's `value` as always present; without the cast its overloads do not match.
      // oxlint-disable-next-line typescript/no-unnecessary-type-assertion
      pressureHandler: shed as (
        request: FastifyRequest,
        reply: FastifyReply,
        type: string,
        value: number | undefined,
      ) => void,
    });
  },
  { name: 'load-shedding' },
);
