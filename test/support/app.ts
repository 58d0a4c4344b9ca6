import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type AppConfig, type AppDependencies } from '../../src/app.js';
import type { Clock } from '../../src/core/clock.js';
import type { Db } from '../../src/db/database.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { Factory } from './factory.js';
import { keptBuiltThreads, ownBuiltThreads } from './threads.js';

export const PUBLIC_URL = 'http://docs.test';

/**
 * The environment tests run in, read through loadConfig as a server's is:
 * every other setting has its default.
 */
const TEST_ENVIRONMENT = {
  PUBLIC_URL,
  LOG_LEVEL: 'silent',
  DATABASE_POOL_SIZE: '5',
  // Statements of a test may take what the shared machine makes them take.
  DATABASE_STATEMENT_TIMEOUT_MS: '0',
  RATE_LIMIT_MAX: '100000',
  RATE_LIMIT_ORGANIZATION_MAX: '500000',
  AUTH_CACHE_TTL_MS: '0',
  SITE_CACHE_TTL_MS: '0',
  ANSWER_STORE_BYTES: String(16 * 1024 * 1024),
  SECRET_KEY: 'test-secret-key-test-secret-key-0123456789',
  // Tests serve their own websites and files on 127.0.0.1.
  OUTBOUND_ALLOW_PRIVATE: 'true',
  OUTBOUND_TIMEOUT_MS: '5000',
  // Test files share two cores, and a thread started from TypeScript source
  // compiles its modules first: a slow start there is the machine's, not a reason to refuse.
  CONVERSION_THREADS: '2',
  CONVERSION_QUEUE_WAIT_MS: '120000',
  // A hang guard, not a speed bound: a large page's conversion took past the 2 s default on a loaded
  // machine. The tests of the deadline itself set their own (stall, work-pool, saml-sign-in).
  CONVERSION_TIMEOUT_MS: '30000',
  // Test files share two cores; a lagging event loop there is the machine's, not a reason to refuse.
  MAX_EVENT_LOOP_DELAY_MS: '0',
  SPEC_FETCH_TIMEOUT_MS: '5000',
  SPEC_PROCESS_TIMEOUT_MS: '30000',
  SPEC_POLL_INTERVAL_MS: '50',
  SPEC_MAX_ATTEMPTS: '3',
};

/** The configuration of a test's app: TEST_ENVIRONMENT's, on `databaseUrl`, with `overrides` in place of whole settings or groups. */
/** Settings of a provider no test reaches: its routes are registered, and the sign-in page offers it. */
export const OIDC_UNREACHED = {
  issuer: 'https://id.example.com',
  clientId: 'quire',
  clientSecret: 'unused',
  name: 'Example ID',
  createUsers: false,
  endSession: false,
};

export function testConfig(databaseUrl: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return { ...loadConfig(TEST_ENVIRONMENT), databaseUrl, ...overrides };
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
      { threadSource: keptBuiltThreads, ...(options.clock ? { clock: options.clock } : {}) },
    );
    await context.app.ready();
    context.db = context.app.context.db;
    context.factory = new Factory(context.db);
  });
  afterAll(async () => {
    await context.app?.close();
    // Not waited for: nothing reads the database again, and the run's teardown drops any left.
    void context.database?.drop().catch(() => undefined);
  });
  return context;
}

/**
 * An app of its own, beside the file's (another instance, other settings):
 * built as a server builds it, with threads of its own (./threads.ts).
 */
export function buildOwnApp(config: AppConfig, deps: AppDependencies = {}): Promise<FastifyInstance> {
  return buildApp(config, { threadSource: ownBuiltThreads, ...deps });
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
