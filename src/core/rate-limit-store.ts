import { Redis } from 'ioredis';

/**
 * The Redis connection that rate-limit counters share between instances.
 * Short timeouts and one retry, as @fastify/rate-limit advises: a request
 * must not wait on a Redis that is gone. `onError` hears of each failure
 * (ioredis keeps reconnecting, at most every 2 s).
 */
export function rateLimitStore(url: string, onError: (error: Error) => void): Redis {
  const redis = new Redis(url, {
    connectTimeout: 500,
    maxRetriesPerRequest: 1,
    // While disconnected, a count fails at once (and the request goes on) rather than waiting in a queue.
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  redis.on('error', onError);
  return redis;
}
