// autocannon ships no types and the repo has no @types/autocannon; this
// declares only what bench/measure.ts uses. Drop it if @types/autocannon is added.
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      connections?: number;
      workers?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds a request may take before it counts as a timeout. */
      timeout?: number;
      pipelining?: number;
      /** Requests made in turn by each connection; `setupRequest` may change each one (its path, say) before it is sent. */
      requests?: Array<{
        method?: string;
        path?: string;
        setupRequest?: (request: { path: string; [key: string]: unknown }) => { path: string; [key: string]: unknown };
      }>;
    }

    /** Percentiles are keyed p50, p90, p99, p99_9, …; latency is in milliseconds. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      p50: number;
      p90: number;
      p99: number;
      total?: number;
    }

    interface Result {
      duration: number;
      samples: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      /** Requests per sampled second; `total` is the number completed. */
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    /** The running benchmark: an EventEmitter that is also thenable with the result. */
    type Instance = import('node:events').EventEmitter & PromiseLike<Result>;
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
