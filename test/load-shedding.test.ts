import { describe, expect, it } from 'vitest';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';

const t = useTestApp();

/** Holds the event loop, as a CPU-bound request would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('load shedding', () => {
  it('answers 503 with Retry-After while the event loop lags, /readyz included but not /healthz, and recovers', async () => {
    // Samples every 100 ms; a 300 ms block makes one sample's mean delay far over 50 ms whatever else it holds.
    const app = await buildOwnApp(
      testConfig(t.database.url, { loadShedding: { maxEventLoopDelayMs: 50, sampleIntervalMs: 100 } }),
    );
    try {
      await app.ready();
      const me = await t.factory.account();
      // Building the app (schemas compiled, plugins loaded) may itself have held the loop for a sample.
      await waitFor(() => !app.isUnderPressure());
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);

      // Lag in bursts until a sample sees it: one long block is forgotten when the sampler's reset of its histogram
      // falls between the block and the histogram's next tick (2 times in 40 in a trial), as a lasting lag never is.
      await waitFor(() => {
        if (!app.isUnderPressure()) block(300);
        return app.isUnderPressure();
      });
      // All three are sent at once, within the sample that holds the block.
      const [api, ready, health] = await Promise.all([
        app.inject({ method: 'GET', url: '/v1/user', headers: me.headers }),
        app.inject({ method: 'GET', url: '/readyz' }),
        app.inject({ method: 'GET', url: '/healthz' }),
      ]);
      for (const res of [api, ready]) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({
          error: { code: 503, message: 'The service is overloaded; retry after the time in Retry-After' },
        });
        expect(res.headers['x-request-id']).toBeDefined();
      }
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });

      await waitFor(() => !app.isUnderPressure());
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
      const readyAgain = await app.inject({ method: 'GET', url: '/readyz' });
      expect(readyAgain.statusCode).toBe(200);
      expect(readyAgain.json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
    }
  });

  it('can be turned off', async () => {
    const app = await buildOwnApp(
      testConfig(t.database.url, { loadShedding: { maxEventLoopDelayMs: 0, sampleIntervalMs: 20 } }),
    );
    try {
      await app.ready();
      block(300);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(app.isUnderPressure()).toBe(false);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
