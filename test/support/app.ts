import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppConfig } from '../../src/app.js';
import type { Clock } from '../../src/core/clock.js';
import type { Db } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { Factory } from './factory.js';

export const PUBLIC_URL = 'http://docs.test';

export function testConfig(databaseUrl: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    databaseUrl,
    databasePoolSize: 5,
    databasePreparedStatements: true,
    publicUrl: PUBLIC_URL,
    logLevel: 'silent',
    rateLimit: { max: 100_000, windowMs: 60_000 },
    bodyLimit: 5 * 1024 * 1024,
    authCacheTtlMs: 0,
    siteCacheTtlMs: 0,
    answerStoreBytes: 16 * 1024 * 1024,
    secretKey: 'test-secret-key-test-secret-key-0123456789',
    trustProxy: false,
    spaceRetentionMs: 7 * 86_400_000,
    // Tests serve their own websites and files on 127.0.0.1.
    outbound: { allowPrivate: true, timeoutMs: 5_000, maxBytes: 10 * 1024 * 1024 },
    fileUrlTtlSeconds: 3_600,
    importLimits: { maxPages: 200, maxBytes: 50 * 1024 * 1024, timeoutMs: 60_000 },
    // Test files share two cores, and a thread started from TypeScript source
    // compiles its modules first: a slow start there is the machine's, not a reason to refuse.
    conversion: { threads: 2, timeoutMs: 2_000, queueWaitMs: 120_000 },
    // Test files share two cores; a lagging event loop there is the machine's, not a reason to refuse.
    loadShedding: { maxEventLoopDelayMs: 0 },
    specs: {
      maxBytes: 20 * 1024 * 1024,
      maxFiles: 50,
      maxRefDepth: 10,
      fetchTimeoutMs: 5_000,
      processTimeoutMs: 30_000,
      pollIntervalMs: 50,
      maxAttempts: 3,
    },
    encryption: { key: undefined, previousKey: undefined },
    integrations: { maxImageBytes: 1024 * 1024 },
    visitorTokenMaxAgeSeconds: 7 * 86_400,
    ...overrides,
  };
}

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  factory: Factory;
}

export interface TestAppOptions {
  /** Settings over testConfig; a function is read when the app is built, after the file's earlier beforeAll hooks. */
  config?: Partial<AppConfig> | (() => Partial<AppConfig>);
  clock?: Clock;
}

/**
 * Gives the test file its own migrated database and an app on it, made before
 * the first test and dropped after the last. Read its fields inside tests.
 */
export function useTestApp(options: TestAppOptions = {}): TestContext {
  const context = {} as TestContext;
  beforeAll(async () => {
    context.database = await createTestDatabase();
    context.app = await buildApp(
      testConfig(context.database.url, typeof options.config === 'function' ? options.config() : options.config),
      options.clock ? { clock: options.clock } : {},
    );
    await context.app.ready();
    context.db = context.app.db;
    context.factory = new Factory(context.db);
  });
  afterAll(async () => {
    await context.app?.close();
    await context.database?.drop();
  });
  return context;
}

/** Listens on a free loopback port and returns the base URL, for the official client and raw HTTP. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/**
 * A free loopback port, for a server whose PUBLIC_URL must name the port it
 * listens on (the addresses it prints and links are built from it).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
