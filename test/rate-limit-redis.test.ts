import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOwnApp, testConfig } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Factory, type Account } from './support/factory.js';

/** TEST_REDIS_URL, or the Redis of the machine; a machine without one skips these tests. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (answers: boolean) => {
      socket.destroy();
      resolve(answers);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const available = await redisAnswers(REDIS_URL);

describe.skipIf(!available)('rate limits shared through Redis (RATE_LIMIT_REDIS_URL)', () => {
  const LIMIT = 4;
  let database: TestDatabase;
  let apps: FastifyInstance[] = [];
  let caller: Account;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { rateLimit: { max: LIMIT, windowMs: 60_000, redisUrl: REDIS_URL } });
    apps = [await buildOwnApp(config), await buildOwnApp(config)];
    await Promise.all(apps.map((app) => app.ready()));
    caller = await new Factory(apps[0]!.context.db).account();
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await database?.drop();
  });

  const me = (app: FastifyInstance, account: Account) =>
    app.inject({ method: 'GET', url: '/v1/user', headers: account.headers });

  it('count a token’s requests on every instance together', async () => {
    const statuses: number[] = [];
    // Alternating between the two instances: each alone would allow LIMIT.
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await me(apps[i % 2]!, caller)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await me(apps[0]!, caller);
    expect(refused.json().error.message).toMatch(/^Rate limit exceeded: 4 requests per 1 minute/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('count each user apart', async () => {
    const other = await new Factory(apps[0]!.context.db).account();
    expect((await me(apps[1]!, other)).statusCode).toBe(200);
    expect((await me(apps[0]!, other)).headers['ratelimit-remaining']).toBe(String(LIMIT - 2));
  });

  it('let requests through, uncounted, while Redis cannot be reached', async () => {
    const config = testConfig(database.url, {
      rateLimit: { max: 1, windowMs: 60_000, redisUrl: 'redis://127.0.0.1:1' },
    });
    const cut = await buildOwnApp(config);
    try {
      await cut.ready();
      const account = await new Factory(cut.context.db).account();
      for (let i = 0; i < 3; i++) expect((await me(cut, account)).statusCode).toBe(200);
    } finally {
      await cut.close();
    }
  });
});

describe('rate limits without Redis', () => {
  it('are counted by each instance alone', async () => {
    const database = await createTestDatabase();
    const config = testConfig(database.url, { rateLimit: { max: 2, windowMs: 60_000 } });
    const apps = [await buildOwnApp(config), await buildOwnApp(config)];
    try {
      const caller = await new Factory(apps[0]!.context.db).account();
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await apps[i % 2]!.inject({ method: 'GET', url: '/v1/user', headers: caller.headers })).statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 200]);
      const third = await apps[0]!.inject({ method: 'GET', url: '/v1/user', headers: caller.headers });
      expect(third.statusCode).toBe(429);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await database.drop();
    }
  });
});
